"""The conformance suite: every registered game and preset obeys the Game/State
protocol of docs/architecture.md. New games join by being registered."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core.errors import CardtableError, ConfigError, IllegalActionError, ParseError
from cardtable.core.game import Outcome, PlayerView
from cardtable.core.registry import game_class, game_names
from cardtable.core.seats import SIMULTANEOUS, TERMINAL

from .walk import walk as random_walk
from .walk import walked

CASES = [(name, preset) for name in game_names() for preset in game_class(name).PRESETS]
STEPS = 600


def walk(name: str, preset: str, seed: int, steps: int = STEPS):
    """Yield (state, action) along a seeded random game, before each action."""
    return random_walk(cardtable.load(name, preset).new_state(seed=seed), random.Random(seed), steps)


@pytest.mark.parametrize(("name", "preset"), CASES)
def test_legal_actions_until_terminal_and_play_accepts_exactly_them(name, preset):
    game = cardtable.load(name, preset)
    for state, _ in walk(name, preset, seed=1):
        legal = state.legal_actions()
        assert legal, "legal actions are non-empty until the game is over"
        assert list(legal) == sorted(legal, key=lambda a: a.index), "legal actions are sorted by index"
        assert len(set(legal)) == len(legal)
        player = state.current_player()
        assert player == SIMULTANEOUS or 0 <= player < game.num_players
        before = str(state)
        for index in random.Random(len(state.history)).sample(range(game.num_distinct_actions), 6):
            action = game.action_from_index(index)
            assert action.index == index
            assert game.parse_action(str(action)) == action, "text forms round-trip"
            assert eval(repr(action), {type(action).__name__: type(action)}) == action, "repr is evaluable"
            if action in legal:
                continue
            with pytest.raises(IllegalActionError):
                state.play(action)
            assert str(state) == before, "a rejected action leaves the state unchanged"


@pytest.mark.parametrize(("name", "preset"), CASES)
def test_clone_is_independent(name, preset):
    for state, action in walk(name, preset, seed=2, steps=200):
        if len(state.history) % 17:
            continue
        copy = state.clone()
        before = str(state)
        copy.apply(action)
        assert str(state) == before
        assert len(copy.history) == len(state.history) + 1


@pytest.mark.parametrize(("name", "preset"), CASES)
def test_i1_replay_determinism_and_card_conservation(name, preset):
    state = cardtable.load(name, preset).new_state(seed=3)
    cards = Counter(state.all_cards())
    for _ in random_walk(state, random.Random(3), STEPS):
        assert Counter(state.all_cards()) == cards, "cards are conserved"
    assert Counter(state.all_cards()) == cards, "cards are conserved"
    again = cardtable.load(name, preset).new_state(seed=3)
    for action in state.history:
        again.play(str(action))  # through the text form, as a record does
    assert str(again) == str(state)
    assert again.view(None) == state.view(None)


@pytest.mark.parametrize(("name", "preset"), CASES)
def test_same_seed_same_game(name, preset):
    a = [str(x) for _, x in walk(name, preset, seed=4, steps=300)]
    b = [str(x) for _, x in walk(name, preset, seed=4, steps=300)]
    assert a == b
    s1 = cardtable.load(name, preset).new_state(seed=4)
    s2 = cardtable.load(name, preset).new_state(seed=4)
    assert str(s1) == str(s2)


@pytest.mark.parametrize(("name", "preset"), CASES)
def test_views_are_json_and_hold_no_seed(name, preset):
    game = cardtable.load(name, preset)
    seed = 987654321987
    for state, _ in walk(name, preset, seed=seed, steps=200):
        for seat in [*range(game.num_players), None]:
            view = state.view(seat)
            assert isinstance(view, PlayerView) and view.seat == seat
            text = json.dumps(view.to_json(), ensure_ascii=False)
            assert str(seed) not in text
            if seat is None:
                assert view.legal_actions == ()
            else:
                assert set(view.legal_actions) == set(state.legal_actions(seat))


CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9TJQKA])[CDHS♣♦♥♠](?![0-9A-Za-z])")


def _cards_shown(view: PlayerView) -> set[str]:
    return set(CARD_TEXT.findall(json.dumps(view.to_json(), ensure_ascii=False)))


@pytest.mark.parametrize(("name", "preset"), CASES)
def test_h11_the_spectators_view_shows_only_what_every_seat_sees(name, preset):
    """H11: every card the spectators' view names, every seat's view names too (spectators see the
    public part only), and it carries nothing of a seat: no seat and no legal actions. Over every
    game and preset; the server sends spectators exactly this view (A7, LD6)."""
    game = cardtable.load(name, preset)
    checked = 0
    for state, _ in walk(name, preset, seed=11, steps=300):
        public = state.view(None)
        assert public.seat is None and public.legal_actions == ()
        shown = _cards_shown(public)
        for seat in range(game.num_players):
            hidden = shown - _cards_shown(state.view(seat))
            assert not hidden, f"the spectators see {sorted(hidden)}, which seat {seat} does not"
        checked += bool(shown)
    assert checked, "no card was ever public: is the card pattern right?"


@pytest.mark.parametrize(("name", "preset"), CASES)
def test_i3_whole_games_end_with_an_outcome(name, preset):
    game = cardtable.load(name, preset)
    state = walked(game.new_state(seed=5), random.Random(5), 200_000)
    assert state.current_player() == TERMINAL
    outcome = state.outcome()
    assert isinstance(outcome, Outcome) and len(outcome.returns) == game.num_players
    assert set(outcome.winners) <= set(range(game.num_players)) and outcome.reason


@pytest.mark.parametrize("name", game_names())
def test_bad_input_gets_typed_errors(name):
    with pytest.raises(ConfigError):
        cardtable.load(name, preset="no-such-preset")
    with pytest.raises(ConfigError):
        cardtable.load(name, no_such_option=1)
    game = cardtable.load(name)
    with pytest.raises(ParseError):
        game.parse_action("@@ not an action @@")
    with pytest.raises(CardtableError):
        game.new_state(deck=["AS"])
    with pytest.raises(ParseError):
        game.action_from_index(-1)


NUMBERS = st.text(alphabet="0123456789²³¹١٢٣߁０", min_size=1, max_size=6) | st.just("9" * 5000)
WORDS = st.sampled_from(["wild", "slot", "w", "play", "fill", "stack", "flip", "0", "1", "s1", "qh", "kh", "jd",
                         "double", "pass", "seat", "p0", "timer", "spit", "choose", "slap", "stock"])
ACTION_TEXTS = st.lists(WORDS | NUMBERS | st.text(max_size=8), max_size=6).map(" ".join) | st.text(max_size=40)


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=400, deadline=None)
@given(text=ACTION_TEXTS)
@example(text="wild ²").via("a Trash slot in another script's digit")
@example(text="0 fill ² qh 4").via("a Spit stock pile in another script's digit")
@example(text="0 stack 1 qh " + "9" * 5000).via("a Spit stock pile of 5,000 digits")
def test_p4_any_action_text_parses_or_gets_a_parse_error(name, text):
    """P4 at the engine: whatever text a client sends as an action (other scripts' digits such as
    "²" or "١", which ``str.isdigit`` accepts and ``int`` may not, numbers of thousands of digits)
    is an action or a :class:`ParseError`, never another exception."""
    try:
        action = cardtable.load(name).parse_action(text)
    except ParseError:
        return
    assert action.index >= 0


def test_registry_aliases():
    assert cardtable.load("garbage").name == cardtable.load("ten").name == "trash"
    with pytest.raises(ConfigError, match="unknown game"):
        cardtable.load("poker")
