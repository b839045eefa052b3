"""docs/rules/trex.md §2.8: variants TX-V1, TX-V2, TX-V5, TX-V6, TX-V7 (V3, V4, V8, V9 live beside their rules),
the options of §4 and the presets of §0.6."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.core.cards import Card
from cardtable.core.errors import ConfigError
from cardtable.games.trex import Phase
from cardtable.games.trex.options import OPTIONS, PRESET_DOCS, PRESETS

from ..walk import walked
from .conftest import SUITS_DEAL, deck_from_hands, keep_all, load, new, no_doubles, play, random_game, start, texts

MIXED = deck_from_hands(
    "7H 2S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "3S 4S 5S 6S 7S 8S 9S TS JS QS KC AC AD",
    "AS KS 2H 3H 4H 5H 6H 8H 9H TH JH QH AH",
)


def test_tx_v1_complex_kingdom_is_complex_and_trex() -> None:
    game = load("complex")
    assert game.num_deals == 8
    state = game.new_state(seed=1, deck=SUITS_DEAL)
    keep_all(state)
    assert texts(state.legal_actions()) == ["contract CX", "contract TR"]


def test_tx_v1_complex_scores_all_four_at_once_and_q_diamonds_counts_twice() -> None:
    state = start(new(MIXED, preset="complex"), "CX")
    no_doubles(state)
    play(state, "2S, QD, 3S, AS")  # seat 3 takes Q♦ and the trick
    assert state.deal_scores == [0, 0, 0, -25 - 10 - 15]


def test_tx_v1_complex_deal_total_is_minus_500() -> None:
    for seed in range(5):
        state = start(new(MIXED, preset="complex", seed=seed), "CX")
        walked(state, random.Random(seed), until=lambda s: s.deal_index > 0)
        assert sum(state.records[0][4]) == -500


def test_tx_v1_complex_hearts_lead_and_doubling_apply() -> None:
    state = start(new(MIXED, preset="complex"), "CX")
    assert state.phase is Phase.DOUBLE
    no_doubles(state)
    assert "7H" not in texts(state.legal_actions())


def test_tx_v1_complex_groups() -> None:
    game = load(complex_mode=True, complex_groups="QN+DI, KH, TK")
    assert game.num_deals == 16
    state = game.new_state(seed=2, deck=SUITS_DEAL)
    keep_all(state)
    assert texts(state.legal_actions()) == ["contract KH", "contract QN+DI", "contract TK", "contract TR"]
    random_game(state, random.Random(2))
    assert sum(state.totals) == 0


def test_tx_v1_complex_groups_needs_complex_mode() -> None:
    with pytest.raises(ConfigError):
        load(complex_groups="QN+DI, KH, TK")


@pytest.mark.parametrize("bad", ["QN+DI, KH", "QN+QN, KH, DI, TK", "KH+TR, QN, DI, TK", "XX"])
def test_tx_v1_complex_groups_must_partition_the_negatives(bad: str) -> None:
    with pytest.raises(ConfigError):
        load(complex_mode=True, complex_groups=bad)


def test_tx_v2_partnership_team_scores() -> None:
    state = random_game(load("partnership").new_state(seed=4), random.Random(4))
    outcome = state.outcome()
    assert outcome is not None
    t = state.totals
    assert outcome.returns == (t[0] + t[2], t[1] + t[3], t[0] + t[2], t[1] + t[3])
    assert len(outcome.winners) in (2, 4)
    assert state.view(1).team_totals == outcome.returns


def test_tx_v2_partner_capturing_partners_doubled_card() -> None:
    # seat 1 doubles K♥ and seat 3 (its partner) captures it: the team gets −150 + 75
    state = start(new(MIXED, preset="partnership"), "KH")
    play(state, "done, double KH, done, done")
    play(state, "2S, KH, 3S, AS")
    assert state.side_totals()[1] == -75 and state.side_totals()[3] == -75


def test_tx_v2_partnership_expose_twos_after_one_round_of_trex() -> None:
    state = start(new(SUITS_DEAL, preset="partnership"), "TR")
    for card in ("JH", "JS", "JC"):
        state.play(card)
        assert state.view(0).exposed_twos == ((), (), (), ())
    state.play("JD")
    view = state.view(0)
    assert view.exposed_twos == ((Card.parse("2C"),), (Card.parse("2D"),), (Card.parse("2H"),), (Card.parse("2S"),))
    assert any(e.kind == "twos_exposed" for e in view.events)


def test_tx_v2_partnership_expose_twos_off() -> None:
    state = start(new(SUITS_DEAL, preset="partnership", partnership_expose_twos=False), "TR")
    for card in ("JH", "JS", "JC", "JD"):
        state.play(card)
    assert state.view(0).exposed_twos == ((), (), (), ())


def test_tx_v5_inverted_trex_payouts_are_not_zero_sum() -> None:
    state = start(new(SUITS_DEAL, preset="inverted"), "TR")
    while state.deal_index == 0:
        state.apply(state.legal_actions()[0])
    assert state.records[0][4] == (50, -50, 150, 100) and sum(state.records[0][4]) == 250


def test_tx_v6_open_hands_are_public() -> None:
    state = new(SUITS_DEAL, preset="open")
    view = state.view(0)
    assert all(h is not None and len(h) == 13 for h in view.hands)
    spectator = state.view(None)
    assert all(h is not None for h in spectator.hands)
    closed = new(SUITS_DEAL).view(0)
    assert closed.hands[1] is None and closed.hands[0] is not None


def test_tx_v7_reverse_scores_negates_and_the_lowest_wins() -> None:
    plain = random_game(load().new_state(seed=5), random.Random(5))
    rev = random_game(load(reverse_scores=True).new_state(seed=5), random.Random(5))
    assert rev.totals == [-t for t in plain.totals]
    o1, o2 = plain.outcome(), rev.outcome()
    assert o1 is not None and o2 is not None
    if o1.reason == "best_total":
        assert o2.winners == o1.winners


def test_options_rules_and_validation() -> None:
    names = {o.name for o in OPTIONS}
    assert names == {
        "first_dealer", "dealer", "first_leader", "redeal_requests", "redeal_timing", "doubling",
        "doubled_self_capture", "hearts_lead_rule", "end_early", "trex_payouts", "accept_unchecked_plays",
        "tiebreak", "complex_mode", "complex_groups", "partnership", "partnership_expose_twos", "open_hands",
        "reverse_scores", "swap_diamonds_tricks", "forced_penalty_discard", "deals",
    }
    bad = [
        {"dealer": "left"}, {"first_leader": "dealer"}, {"redeal_requests": "sometimes"},
        {"redeal_timing": "never"}, {"doubling": "kings_only"}, {"hearts_lead_rule": "open"},
        {"end_early": "maybe"}, {"trex_payouts": (1, 2)},
        {"trex_payouts": (1, 2, 3, 4.5)}, {"first_dealer": -1}, {"no_such_option": 1},
        {"deals": 0}, {"deals": 21},
    ]
    for options in bad:
        with pytest.raises(ConfigError):
            cardtable.load("trex", **options)


def test_options_parse_from_command_line_text() -> None:
    game = cardtable.load("trex", redeal_requests="trex_only", doubling="false", trex_payouts="150,100,50,-50")
    assert game.options.redeal_requests == "trex_only" and game.options.doubling is False
    assert game.options.trex_payouts == (150, 100, 50, -50)


def test_presets() -> None:
    assert set(PRESETS) >= {"standard", "seed", "complex", "partnership", "inverted", "open"}
    assert set(PRESET_DOCS) == set(PRESETS)
    seed = cardtable.load("trex", preset="seed").options
    assert (seed.dealer, seed.first_leader, seed.redeal_timing) == ("rotating", "eldest", "before_choice")
    assert cardtable.load("trex", preset="inverted").options.trex_payouts == (150, 100, 50, -50)
    with pytest.raises(ConfigError):
        cardtable.load("trex", preset="nope")
    # a preset combines with single overrides
    assert cardtable.load("trex", preset="complex", doubling=False).options.doubling is False


# ---------------------------------------------------------------- TX-V10: a set number of deals
@pytest.mark.parametrize(("deals", "preset"), [(1, None), (5, None), (7, None), (3, "complex"), (12, "partnership")])
def test_tx_v10_the_game_ends_after_the_set_number_of_deals(deals: int, preset: str | None) -> None:
    """TX-V10, TX-5, TX-38: the game ends after ``deals`` official deals (redeals and the tie-break
    deal not counted); each total is the sum of the deals played."""
    rng = random.Random(deals)
    for seed in range(3):
        state = random_game(load(preset, deals=deals).new_state(seed=seed), rng)
        assert state.num_deals == deals and len(state.records) == deals
        assert [r[0] for r in state.records] == list(range(1, deals + 1))
        assert state.totals == [sum(r[4][q] for r in state.records) for q in range(4)]
        view = state.view(None)
        assert view.num_deals == deals and len(view.deal_scores) == deals
        outcome = state.outcome()
        assert outcome is not None
        assert list(outcome.returns) == [float(x) for x in state.side_totals()]


def test_tx_v10_one_kingdom_is_five_deals_held_by_one_player_and_sums_to_zero() -> None:
    """TX-V10 with ``deals = 5``: one kingdom, every deal held by the player 7♥ named (TX-6), each
    of the five contracts once (TX-9), and the totals sum to zero (§2.7: a whole kingdom)."""
    rng = random.Random(5)
    for seed in range(4):
        state = random_game(load(deals=5).new_state(seed=seed), rng)
        assert {r[1] for r in state.records} == {0} and len({r[2] for r in state.records}) == 1
        assert sorted(r[3] for r in state.records) == sorted(state.kingdom_contracts)
        assert sum(state.totals) == 0


def test_tx_v10_at_or_above_the_games_length_is_the_whole_game() -> None:
    """TX-V10: 20 is the standard game; under Complex (TX-V1, 8 deals) any value from 8 up is the
    whole game, a smaller one ends it sooner."""
    assert load().num_deals == 20 and load(deals=20).num_deals == 20
    assert load("complex", deals=20).num_deals == 8 and load("complex", deals=8).num_deals == 8
    assert load("complex", deals=4).num_deals == 4
    assert load(deals=19).num_deals == 19


@pytest.mark.parametrize("bad", [0, -5, 21, 100, True, 2.5, "five", None])
def test_tx_v10_a_bad_number_of_deals_is_refused_with_a_clear_error(bad: object) -> None:
    """TX-V10: ``deals`` is a whole number from 1 to 20; anything else is a ConfigError naming it."""
    with pytest.raises(ConfigError, match="option deals"):
        load(deals=bad)


def test_tx_v10_tx_40_a_tie_in_a_short_game_is_broken_outside_the_totals() -> None:
    """TX-40 in a game of one deal (TX-V10): the players tied on the best total, with no Trex
    first place among them, play one extra TR deal, dealt by the first tied player
    counter-clockwise from the kingdom's holder; its scores stay outside the totals."""
    rng = random.Random(40)
    found = 0
    for seed in range(40):
        state = load(deals=1, doubling=False).new_state(seed=seed)
        dealers = []
        while not state.is_terminal():
            if state.tiebreak and not dealers:
                dealers.append(state.dealer)
            state.apply(rng.choice(list(state.legal_actions())))
        outcome = state.outcome()
        assert outcome is not None and len(state.records) == 1
        assert state.totals == list(state.records[0][4])
        if outcome.reason != "tiebreak_deal":
            continue
        found += 1
        best = max(state.totals)
        tied = [q for q in range(4) if state.totals[q] == best]
        holder = state.records[0][2]
        assert dealers == [next(q for q in ((holder + i) % 4 for i in range(4)) if q in tied)]  # next = +1 (TX-2)
        assert state.tiebreak_scores and outcome.winners[0] in tied
        assert sum(state.totals) == sum(state.records[0][4])  # the extra deal added nothing
    assert found  # a one-deal game of a trick contract always ties some players at 0
