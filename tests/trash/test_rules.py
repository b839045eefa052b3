"""Trash rule tests, one or more per rule id of docs/rules/trash.md (TR-n, TR-Vn, TR-An)."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.core.errors import ConfigError, IllegalActionError
from cardtable.core.seats import TERMINAL
from cardtable.games.trash import TrashGame

from .util import RUN_LAYOUT, RUN_STOCK, face_up, new, redeal, stacked_deck

# Seat 1's layout for tests where seat 1 only ever draws stop cards.
IDLE = "5S 6H 7S 8S 9H TH 2H 3D 4H 6D"
EXAMPLE = "5C KD 9S JH 2D 6C AS 8H 3C QS"  # the worked example of docs/rules/trash.md §1.2


def kinds(state):
    return [e.kind for e in state.view(0).events]


# ------------------------------------------------------------------ worked example
def test_tr10_worked_example_from_stacked_deck():
    """docs/rules/trash.md §1.2 worked example, turn by turn (TR-10, TR-12, TR-7, TR-9)."""
    s = new([EXAMPLE, IDLE], "3H QH JC KH 4D KS")
    s.play("stock")  # 1. draw 3H: 3H->3 (9S up), 9S->9 (3C up), 3C already shown: discard
    assert face_up(s, 0) == "3:3H 9:9S"
    assert str(s.view(0).top_discard) == "3C"
    assert s.current_player() == 1
    s.play("stock")  # seat 1 draws QH, a stop card
    assert s.legal_actions() == (cardtable.games.trash.actions.A_STOCK,)  # 2. QH on top: stock only
    s.play("stock")  # draws JC: a wild with several face-down slots -> seat 0 chooses
    assert s.view(0).phase == "place_wild"
    s.play("wild 4")  # JC on 4, turning up JH (wild) -> choose again
    assert str(s.view(0).card_in_hand) == "JH"
    s.play("wild 10")  # JH on 10 turning up QS: a stop card, discarded
    assert face_up(s, 0) == "3:3H 4:JC 9:9S 10:JH"
    assert str(s.view(0).top_discard) == "QS"
    s.play("stock")  # seat 1: KH, stop
    s.play("stock")  # 3. draw 4D; slot 4 holds JC
    assert s.view(0).phase == "displace"
    s.play("displace")
    s.play("wild 1")  # JC moved to slot 1, turning up 5C -> 5 (2D up) -> 2 (KD up) -> discard
    assert face_up(s, 0) == "1:JC 2:2D 3:3H 4:4D 5:5C 9:9S 10:JH"
    assert s.view(0).face_down_slots(0) == (6, 7, 8)
    assert str(s.view(0).top_discard) == "KD"
    assert s.current_player() == 1


def test_tr9_worked_example_further_checks():
    """With L = 9 a drawn 10 is unplayable; in kings mode a J is a stop and a K is wild."""
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK + " QH KH")
    s.play("stock")  # seat 0 wins hand 1; its layout is 9 from now on
    assert s.sizes[0] == 9
    redeal(s, [9, 10], ["2C 3C 4C 5C 6C 7C 8C 9C AC", IDLE], "TD")
    assert not s.placeable(0, cardtable.Card.parse("TD").id)
    s.play("stock")
    assert str(s.view(0).top_discard) == "TD"
    k = new([EXAMPLE.replace("JH", "4S").replace("KD", "JH"), IDLE], "KS", wild_mode="kings")
    assert not k.placeable(0, cardtable.Card.parse("JD").id)
    assert k.placeable(0, cardtable.Card.parse("KS").id)
    k.play("stock")
    assert k.view(0).phase == "place_wild"


# --------------------------------------------------------------------- set-up
def test_tr1_players_two_or_more():
    with pytest.raises(ConfigError):
        cardtable.load("trash", players=1)
    assert cardtable.load("trash", players=8).num_players == 8


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4)])
def test_tr2_decks_by_player_count(players, decks):
    game = cardtable.load("trash", players=players)
    assert len(game.cards) == 52 * decks


def test_tr2_too_few_cards_rejected_and_decks_option():
    with pytest.raises(ConfigError, match="TR-2"):
        cardtable.load("trash", players=6, decks=1)
    assert len(cardtable.load("trash", players=2, decks=2).cards) == 104


def test_tr3_card_roles_by_wild_mode():
    from cardtable.games.trash.roles import STOP, WILDCARD, role_table

    def roles(mode):
        t = role_table(mode)
        return {r: t[cardtable.Card.parse(r + "S").id] for r in "A5TJQK"} | {"JK": t[52]}

    assert roles("jacks") == {"A": 1, "5": 5, "T": 10, "J": WILDCARD, "Q": STOP, "K": STOP, "JK": WILDCARD}
    assert roles("kings")["K"] == WILDCARD and roles("kings")["J"] == STOP and roles("kings")["Q"] == STOP
    assert {roles("all_faces")[r] for r in "JQK"} == {WILDCARD}


def test_tr4_layout_of_ten_slots():
    s = cardtable.load("trash").new_state(seed=3)
    v = s.view(0)
    assert v.sizes == (10, 10) and all(len(layout) == 10 for layout in v.layouts)


def test_tr5_deal_face_down_and_empty_discard():
    s = cardtable.load("trash").new_state(seed=4)
    v = s.view(0)
    assert all(c is None for layout in v.layouts for c in layout)
    assert v.discard == () and v.stock_count == 52 - 20
    assert "seed" not in str(v.to_json())


def test_tr6_tra1_first_player_option_and_clockwise_order():
    assert cardtable.load("trash").new_state(seed=8).current_player() == 0  # TR-A1 default
    s = new([RUN_LAYOUT.replace("AC", "AD"), IDLE, IDLE.replace("H", "S").replace("D", "C")], "QH QD QC",
            players=3, first_player=1)
    assert s.current_player() == 1
    s.play("stock")
    assert s.current_player() == 2
    s.play("stock")
    assert s.current_player() == 0
    with pytest.raises(ConfigError):
        cardtable.load("trash", players=2, first_player=2)


# ------------------------------------------------------------------- a turn
def test_tr7_tra2_first_player_must_draw_from_stock():
    """TR-A2: no discard exists at the start of a hand."""
    s = cardtable.load("trash").new_state(seed=5)
    assert [str(a) for a in s.legal_actions()] == ["stock"]
    with pytest.raises(IllegalActionError):
        s.play("discard")


def test_tr7_tra3_unplayable_discard_cannot_be_taken():
    """TR-A3, option discard_take_requires_playable = true."""
    s = new([EXAMPLE, IDLE], "QH 3H")
    s.play("stock")  # QH discarded by seat 0
    assert [str(a) for a in s.legal_actions()] == ["stock"]


def test_tr7_playable_discard_must_be_placed():
    """TR-7b, TR-9: seat 1's chain ends by discarding 6D; seat 0's slot 6 is face-down, so
    seat 0 may take the 6D, and it is placed there."""
    s = new(["5C 9D 9S JH 7D 6C AS 8H 3C QS", "5H 6H 7H 8D 9H TH AD 2S 4H 6D"], "QH 2C")
    s.play("stock")  # seat 0: QH discarded
    s.play("stock")  # seat 1: 2C -> slot 2 (6H up) -> 6H to slot 6 (TH up) -> 10 (6D up) -> discard 6D
    assert str(s.view(0).top_discard) == "6D"
    assert [str(a) for a in s.legal_actions()] == ["stock", "discard"]
    s.play("discard")
    assert "6:6D" in face_up(s, 0)
    assert s.view(0).events[0].kind == "take"


def test_tr7_tra4_number_from_discard_must_displace_wild():
    """TR-A4: a number taken from the discard pile onto a wild's slot displaces it, no choice."""
    s = new(["JC 9D 9S 5H 7D 6C AS 8H 3C QS", "5S KS 7S 8S 9H TH 4D 3D 4S 6D"], "4C 2H KH 2C")
    s.play("stock")  # 4C -> 4 (5H up) -> 5 (7D up) -> 7 (AS up) -> 1 (JC up): a wild
    s.play("wild 2")  # JC on 2 (9D up) -> 9 (3C up) -> 3 (9S up): 9 already shown, discarded
    assert face_up(s, 0) == "1:AS 2:JC 3:3C 4:4C 5:5H 7:7D 9:9D"
    s.play("stock")  # seat 1: 2H on its slot 2, turning up KS: discarded
    s.play("stock")  # seat 0: KH discarded
    s.play("stock")  # seat 1: 2C, its slot 2 shows 2H: discarded
    assert [str(a) for a in s.legal_actions()] == ["stock", "discard"]
    s.play("discard")
    assert [e.kind for e in s.view(0).events] == ["take", "displace"]
    assert s.view(0).phase == "place_wild" and str(s.view(0).card_in_hand) == "JC"


def test_tr7_pass_when_unplayable_take_allowed():
    """discard_take_requires_playable = false: taking an unplayable discard puts it back (a pass)."""
    s = new([EXAMPLE, IDLE], "QH KH", discard_take_requires_playable=False)
    s.play("stock")  # QH discarded
    assert [str(a) for a in s.legal_actions()] == ["stock", "discard"]
    s.play("discard")
    assert str(s.view(0).top_discard) == "QH" and len(s.view(0).discard) == 1
    assert s.current_player() == 0


def test_tr8_tra7_stock_rebuilt_keeping_top_discard():
    s = new([EXAMPLE, IDLE], "3H")
    s.play("stock")  # seat 0 discards 3C
    s.discard[:0], s.stock = s.stock, []  # white box: the stock has run out into the discards
    top = s.discard[-1]
    before = sorted(s.all_cards())
    nd = len(s.discard)
    s.play("stock")
    assert s.events[0][0] == "rebuild" and s.events[0][3] == nd - 1
    assert s.discard[0] == top
    assert sorted(s.all_cards()) == before


def test_tr9_placeable_cases():
    s = new([EXAMPLE, IDLE], "3H QH JC KH 4D")
    cid = lambda t: cardtable.Card.parse(t).id  # noqa: E731
    assert s.placeable(0, cid("JD"))  # wild with face-down slots
    assert s.placeable(0, cid("3D"))  # slot 3 face-down
    assert not s.placeable(0, cid("QD")) and not s.placeable(0, cid("KD"))  # stop cards
    s.play("stock")
    assert not s.placeable(0, cid("3D"))  # slot 3 shows a 3
    s.play("stock")
    s.play("stock")
    s.play("wild 4")
    s.play("wild 10")
    assert s.placeable(0, cid("4S"))  # slot 4 holds a wild: playable by displacement


def test_tr10_chain_turns_up_and_continues():
    s = new([EXAMPLE, IDLE], "3H")
    s.play("stock")
    assert kinds(s) == ["draw", "place", "turn_up", "place", "turn_up", "discard"]
    texts = [e.text for e in s.view(1).events]
    assert texts[0] == "seat 0 draws 3♥ from the stock"
    assert s.view(0).events[0].text == "you draw 3♥ from the stock"


def test_tr10_tra5_wild_must_be_placed():
    """TR-A5: a wild in hand has only slot choices; no discard, no decline."""
    s = new([EXAMPLE, IDLE], "JC")
    s.play("stock")
    assert {a.kind for a in s.legal_actions()} == {"wild"}
    assert sorted(a.slot for a in s.legal_actions()) == list(range(1, 11))
    with pytest.raises(IllegalActionError):
        s.play("decline")


def test_tr11_completion_wins_hand_and_wild_counts():
    s = new(["2C 3C 4C 5C 6C 7C 8C 9C JD KC", IDLE], "AC")
    s.play("stock")  # A..8 then 9C turns up JD: wild on slot 10 (the only face-down slot): complete
    assert s.hands_won == [1, 0] and s.sizes == [9, 10]
    ev = kinds(s)
    assert "complete" in ev and ev.index("complete") < ev.index("deal")
    # the card in hand at completion (KC) was discarded (TR-11)
    assert any(e.kind == "discard" and str(e.card) == "KC" for e in s.view(1).events)


def test_tr12_tra6_displace_or_decline():
    s = new(["JC 9D 9S 5H 7D 6C AS 8H 3C QS", IDLE], "4C KH 2S")
    s.play("stock")
    s.play("wild 2")  # JC on slot 2
    s.play("stock")  # seat 1 KH
    c = s.clone()
    s.play("stock")  # seat 0 draws 2S, slot 2 holds JC
    assert [str(a) for a in s.legal_actions()] == ["displace", "decline"]
    s.play("decline")  # TR-12b: discarded, turn ends
    assert str(s.view(0).top_discard) == "2S" and s.current_player() == 1
    c.play("stock")
    c.play("displace")  # TR-12a: 2S on slot 2; JC must go to a face-down slot
    assert "2:2S" in face_up(c, 0)
    assert c.view(0).phase == "place_wild" and str(c.view(0).card_in_hand) == "JC"
    assert all(a.slot in c.view(0).face_down_slots(0) for a in c.legal_actions())


def test_tr12_turned_up_card_may_displace():
    """TR-12: the number may come from any source, here a card turned up in the chain."""
    s = new(["JC 9D 9S 5H 7D 6C AS 8H 3C QS", IDLE], "4C KH 6S")
    s.play("stock")
    s.play("wild 6")  # JC on slot 6 turning up 6C: slot 6 holds a wild -> displace choice
    assert s.view(0).phase == "displace"
    s.play("displace")
    assert "6:6C" in face_up(s, 0)


def test_tr13_every_decision_is_an_action():
    s = cardtable.load("trash").new_state(seed=21)
    seen = set()
    while not s.is_terminal():
        seen |= {a.kind for a in s.legal_actions()}
        s.apply(s.legal_actions()[-1])
    assert seen == {"stock", "discard", "wild", "displace", "decline"}


def test_tr14_public_information_in_views():
    s = new([EXAMPLE, IDLE], "3H")
    s.play("stock")
    v0, v1, spectator = s.view(0), s.view(1), s.view(None)
    assert v0.layouts == v1.layouts == spectator.layouts
    assert v0.discard == v1.discard
    assert v1.legal_actions and not v0.legal_actions and not spectator.legal_actions


# --------------------------------------------------------------- the match
def test_tr19_first_to_complete_wins_hand_immediately():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK)
    s.play("stock")
    assert s.hands_played == 1 and s.hands_won == [1, 0]
    assert s.view(0).hand_number == 2


def test_tr20_winner_shrinks_others_keep():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK)
    s.play("stock")
    assert s.sizes == [9, 10]
    assert len(s.view(1).layouts[0]) == 9


def test_tr21_winner_starts_next_hand():
    s = new([IDLE, RUN_LAYOUT], "QH " + RUN_STOCK)
    s.play("stock")
    s.play("stock")  # seat 1 wins
    assert s.current_player() == 1 and s.starter == 1


def test_tr22_match_ends_at_target_size_zero():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK)
    s.play("stock")
    redeal(s, [1, 10], ["5D", IDLE], "AC")
    s.play("stock")  # the ace fills the only slot (5D turned up is discarded)
    assert s.current_player() == TERMINAL
    assert s.outcome().winners == (0,) and s.outcome().reason == "target_size"
    w = new([RUN_LAYOUT, IDLE], RUN_STOCK)
    w.play("stock")
    redeal(w, [1, 10], ["5D", IDLE], "JD")  # a wild fills slot 1 too
    w.play("stock")
    assert w.outcome().winners == (0,)


def test_tr26_tra13_void_hand_after_stalled_rebuilds():
    """Option stall_reshuffles (default 3): the third consecutive rebuild with no layout change
    since the previous one voids the hand; it is redealt with the same sizes and first player."""
    s = cardtable.load("trash").new_state(seed=2)
    stops = [c for c in s.all_cards() if s.role[c] == -1]  # white box: only stop cards left to draw
    for p in range(2):
        for k in range(1, 10):
            s.up[p][k] = k - 1 + 13 * p  # A..9 of clubs / diamonds face-up
            s.down[p][k] = -1
        s.ndown[p] = 1
    s.stock, s.discard = stops, []
    s.changed_since_rebuild = False
    deals, rebuilds = s.deal_count, 0
    while s.deal_count == deals:
        s.play("stock")
        rebuilds += [e[0] for e in s.events].count("rebuild")
    assert rebuilds == 3 and s.events[0][0] == "void"
    assert s.hands_played == 0 and s.sizes == [10, 10] and s.current_player() == 0


def test_tr26_tra3_tra13_passes_in_a_row_round_the_table_void_the_hand():
    """With discard_take_requires_playable off, taking an unplayable discard is a pass (TR-7) and
    draws nothing, so no rebuild would ever stall: every player passing stall_reshuffles times in a
    row (players × stall_reshuffles passes, nothing else between) voids the hand (TR-26), redealt
    with the same sizes and first player. A draw between the passes starts the count again."""
    for players, stalls in ((2, 3), (3, 1), (2, 2)):
        s = cardtable.load("trash", players=players, discard_take_requires_playable=False,
                           stall_reshuffles=stalls).new_state(seed=11)
        while not s.discard or s.placeable(s.turn, s.discard[-1]):  # a discard nobody to move can place
            s.play(s.legal_actions()[0])
        starter, sizes, deals = s.starter, list(s.sizes), s.deal_count
        passes = 0
        while s.deal_count == deals:
            assert passes < players * stalls and not s.placeable(s.turn, s.discard[-1])
            s.play("discard")
            passes += 1
        kinds = [e[0] for e in s.events]
        assert passes == players * stalls and kinds[kinds.index("void") - 1:] == ["discard", "void", "deal"]
        assert s.hands_played == 0 and s.sizes == sizes and s.starter == starter
        assert s.current_player() == starter and s.passes == 0


def test_tr26_a_draw_between_passes_starts_their_count_again():
    s = cardtable.load("trash", discard_take_requires_playable=False).new_state(seed=11)
    while not s.discard or s.placeable(s.turn, s.discard[-1]):
        s.play(s.legal_actions()[0])
    deals = s.deal_count
    for _ in range(5):  # one short of 2 players × 3
        s.play("discard")
    assert s.passes == 5 and s.deal_count == deals
    s.play("stock")
    assert s.passes == 0


def test_tr26_void_when_stock_cannot_be_refilled():
    s = cardtable.load("trash").new_state(seed=9)
    s.stock.clear()
    s.discard = [s.discard[-1]] if s.discard else []
    starter, sizes = s.starter, list(s.sizes)
    s.play("stock")
    assert s.events[0][0] == "void" and s.starter == starter and s.sizes == sizes


# ----------------------------------------------------------------- variants
def test_trv1_short_game_target_size():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK, target_size=6)
    s.play("stock")
    redeal(s, [7, 10], ["2C 3C 4C 5C 6C 7C KC", IDLE], "AC")
    s.play("stock")
    assert s.outcome().winners == (0,) and s.sizes[0] == 6


def test_trv2_max_hands_smallest_layout_wins():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK, max_hands=1)
    s.play("stock")
    assert s.outcome().winners == (0,) and s.outcome().reason == "max_hands"


def test_trv2_tra11_time_limit_finishes_current_hand():
    """TR-A11: time-up mid-hand; the match ends when that hand is finished."""
    s = new([RUN_LAYOUT, IDLE], "QH QD " + RUN_STOCK, time_limit=60.0)
    s.play("stock")
    s.play("time-up")
    assert not s.is_terminal()
    s.play("stock")  # seat 1
    s.play("stock")  # seat 0 completes
    assert s.outcome().reason == "time_limit" and s.outcome().winners == (0,)
    with pytest.raises(IllegalActionError):
        cardtable.load("trash").new_state(seed=1).play("time-up")


def test_tra10_tie_shared_or_extra_hands():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK, max_hands=2)
    s.play("stock")
    redeal(s, [9, 10], [IDLE.replace("6D", "") .strip(), RUN_LAYOUT], "QH " + RUN_STOCK)
    s.play("stock")
    s.play("stock")
    assert s.outcome().winners == (0, 1) and s.outcome().returns == (0.5, 0.5)
    t = new([RUN_LAYOUT, IDLE], RUN_STOCK, max_hands=2, tiebreak_extra_hands=True)
    t.play("stock")
    redeal(t, [9, 10], [IDLE.replace("6D", "").strip(), RUN_LAYOUT], "QH " + RUN_STOCK)
    t.play("stock")
    t.play("stock")
    assert not t.is_terminal() and t.hands_played == 2


def test_trv3_rotating_first_player():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK, rotate_first_player=True)
    s.play("stock")  # seat 0 wins hand 1, but hand 2 is started by seat 1
    assert s.starter == 1 and s.current_player() == 1


def test_trv4_kings_wild():
    s = new([EXAMPLE, IDLE], "KH JD", wild_mode="kings")
    s.play("stock")
    assert s.view(0).phase == "place_wild"


def test_trv5_jokers_are_wild():
    game = cardtable.load("trash", jokers=True)
    assert len(game.cards) == 54 and sum(1 for c in game.cards if c == 52) == 2
    s = new([EXAMPLE, IDLE], "JK", jokers=True)
    s.play("stock")
    assert s.view(0).phase == "place_wild"


def test_trv6_all_faces_wild():
    s = new([EXAMPLE, IDLE], "QH", wild_mode="all_faces")
    s.play("stock")
    assert s.view(0).phase == "place_wild"
    s.play("wild 2")  # QH on 2 turning up KD: wild too
    assert s.view(0).phase == "place_wild"


def test_trv7_tra8_loser_reveal_shrinks_if_all_correct():
    s = new([RUN_LAYOUT, "AD 2D 3D 4D 5D 6D 7D 8D 9D JH"], RUN_STOCK, loser_reveal=True)
    s.play("stock")
    assert s.sizes == [9, 9]  # every revealed card correct; JH wild counts (TR-A8)
    r = new([RUN_LAYOUT, "AD 2D 3D 4D 5D 6D 7D 8D 9D QH"], RUN_STOCK, loser_reveal=True)
    r.play("stock")
    assert r.sizes == [9, 10]
    assert [e.kind for e in r.view(1).events].count("reveal") == 10


def test_tra9_loser_floor_is_target_plus_one():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK, loser_reveal=True)
    s.play("stock")
    redeal(s, [1, 1], ["3D", "AD"], "AC")
    s.play("stock")
    assert s.outcome().winners == (0,) and s.sizes == [0, 1]


def test_trv8_three_free_draws():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK + " QH QD QS", loser_free_draws=3)
    s.play("stock")  # seat 0 completes; seat 1 takes up to 3 free turns
    assert s.current_player() == 1 and s.view(1).free_draws_left == 3 and s.hands_played == 0
    for _ in range(3):
        s.play("stock")
    assert s.hands_played == 1 and s.current_player() == 0  # winner starts the next hand
    with pytest.raises(ConfigError):
        cardtable.load("trash", players=3, loser_free_draws=3)


def test_trv8_loser_completes_in_free_draws():
    s = new([RUN_LAYOUT, "2D 3D 4D 5D 6D 7D 8D 9D TD KD"], RUN_STOCK + " AD", loser_free_draws=3)
    s.play("stock")
    s.play("stock")  # seat 1 completes on its first free turn
    assert s.sizes == [9, 9] and s.hands_played == 1


def test_trv9_d2_kings_preset():
    game = cardtable.load("trash", preset="d2_kings")
    assert isinstance(game, TrashGame)
    assert (game.num_players, len(game.cards), game.options.wild_mode) == (2, 52, "kings")
    assert cardtable.load("trash", preset="d2_kings", max_hands=1).options.max_hands == 1


def test_tra12_d2_queen_and_jack_unplayable():
    s = new([EXAMPLE, IDLE], "JD", preset="d2_kings")
    s.play("stock")
    assert str(s.view(0).top_discard) == "JD"


def test_tra14_displaced_wild_reused():
    s = new(["JC 9D 9S 5H 7D 6C AS 8H 3C QS", IDLE], "4C KH 2S")
    s.play("stock")
    s.play("wild 2")
    s.play("stock")
    s.play("stock")
    s.play("displace")
    s.play("wild 8")  # the displaced JC goes straight to another face-down slot
    assert "8:JC" in face_up(s, 0)


def test_stacked_deck_must_hold_the_game_cards():
    game = cardtable.load("trash")
    with pytest.raises(ConfigError):
        game.new_state(deck=["AS"] * 52)
    deck = stacked_deck(game, [EXAMPLE, IDLE], "3H")
    assert game.new_state(deck=deck).view(0).stock_count == 32
