"""The Spit key handling both terminal front ends share (tui.spit_controls): the Textual table
and the plain text screen (cli.spit_play) turn the same inputs into the same actions and notes."""

from __future__ import annotations

from cardtable.cli.spit_play import LEFT, RIGHT, Controller
from cardtable.tui.spit_controls import Note, SpitControls
from tests.spit.util import piles, position


def test_sp16_choosing_a_pile_without_a_lone_spitter_is_refused_with_a_note():
    """SP-16: only a lone spitter picks the spit pile; the plain screen says so instead of
    waiting for a left/right that would be refused."""
    st = position(piles("4H"), piles("6D"), "2C", "2D", s0="5S", s1="KS")
    ctl = Controller(0)
    assert ctl.key("choose", st.view(0)) is None
    assert not ctl.controls.choosing and ctl.message == "You cannot choose a pile now."
    assert ctl.key(LEFT, st.view(0)) is not None  # left plays again (no choice pending)


def test_sp7_a_chosen_card_that_was_played_is_no_longer_chosen():
    """SP-7: once the chosen card has gone to a spit pile, the next view drops the choice in both
    front ends (the number keys start a fresh choice)."""
    st = position(piles("4H", "7C"), piles("6D", "JD"), "2C", "2D", s0="5S", s1="KS")
    ctl = Controller(0)
    assert ctl.key("1", st.view(0)) is None and ctl.selected == 1
    st.play("0 play 1 4H S0")
    assert ctl.key("spit", st.view(0)) is None and ctl.selected is None


def test_sp7_the_same_inputs_give_the_same_actions_and_notes_in_both_front_ends():
    st = position(piles("4H", "7C 9C"), piles("6D", "JD"), "2C", "2D", s0="5S", s1="KS")
    shared, ctl = SpitControls(), Controller(0)
    view = st.view(0)
    assert shared.pile(view, 2) is None and ctl.key("2", view) is None
    assert str(shared.pile(view, 3)) == str(ctl.key("3", view)) == "0 fill 2 9C 3"
    assert shared.spit_pile(view, 1) is None and ctl.key(RIGHT, view) is None
    assert shared.note == Note("spit.note.nothing", {"k": 1}) and ctl.message == "Nothing of yours fits on S1."
