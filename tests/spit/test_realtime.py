"""The real-time host (SP-13 sequencer, timers, SP-10 interval) and the bots, in virtual time."""

from __future__ import annotations

import itertools
import random

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.spit import LEVEL_ORDER, LEVELS, SpitBot
from cardtable.core.cards import Card
from cardtable.games.spit.state import Phase
from cardtable.host import RealtimeHost, VirtualClock

from .util import conserved, piles, position


def C(text: str) -> int:
    return Card.parse(text).id


def race_position(**opts):
    # 4H (seat 0) and 6D (seat 1) both fit on 5S; whoever is applied first wins.
    return position(piles("4H", "QC"), piles("6D", "JD"), "2C", "2D", s0="5S", s1="KS", **opts)


@pytest.mark.parametrize("first", [0, 1])
def test_sp13_race_two_plays_same_pile_same_instant_explicit_order(first):
    st = race_position()
    host = RealtimeHost(st, VirtualClock())
    plays = {0: "0 play 1 4H S0", 1: "1 play 1 6D S0"}
    host.submit(plays[1], at=1.0, order=1 if first == 0 else 0)
    host.submit(plays[0], at=1.0, order=0 if first == 0 else 1)
    host.run(until=1.0)
    log = host.log
    assert [a.accepted for a in log] == [True, False]
    assert log[0].seat == first and log[1].seat != first
    assert "without penalty" in (log[1].reason or "")
    assert [a.seq for a in log] == [0, 1] and log[0].move == 0 and log[1].move is None
    loser = log[1].seat
    assert st.stock[loser][0]  # the loser's card is still on its stock pile
    assert conserved(st) and len(st.history) == 1


def test_sp13_race_identical_timestamps_seeded_rng_is_deterministic():
    winners = set()
    for seed in range(12):
        results = []
        for _ in range(2):
            st = race_position()
            host = RealtimeHost(st, VirtualClock(), seed=seed)
            host.submit("0 play 1 4H S0", at=0.5)
            host.submit("1 play 1 6D S0", at=0.5)
            host.run(until=0.5)
            assert sum(a.accepted for a in host.log) == 1 and conserved(st)
            results.append(next(a.seat for a in host.log if a.accepted))
        assert results[0] == results[1]
        winners.add(results[0])
    assert winners == {0, 1}


def test_sp13_earlier_arrival_wins():
    st = race_position()
    host = RealtimeHost(st, VirtualClock())
    host.submit("1 play 1 6D S0", at=0.30)
    host.submit("0 play 1 4H S0", at=0.31)
    host.run(until=1)
    assert [(a.seat, a.accepted) for a in host.log] == [(1, True), (0, False)]


def test_sp16_host_feeds_spit_timer_after_spit_delay():
    st = position(piles("4H"), piles("6D"), "5C", "2D", s0="9S", s1="TS", spit_delay=0.75)
    st._after_change()
    clock = VirtualClock(10.0)
    host = RealtimeHost(st, clock)
    assert host.next_due() == pytest.approx(10.75)
    clock.set(10.7)
    assert host.advance() == []
    clock.set(10.75)
    (arrival,) = host.advance()
    assert str(arrival.action) == "timer spit" and arrival.source == "timer" and st.phase is Phase.PLAY


def test_sp20_c6_slap_race_on_host_and_timeout():
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="9D TS", slap_timeout=3.0)
    clock = VirtualClock()
    host = RealtimeHost(st, clock)
    host.submit("0 play 1 4H S0", at=1.0)
    host.submit("1 slap S1", at=2.0)
    host.submit("0 slap S1", at=2.0)  # same instant: the finisher (seat 0) wins the tie
    host.run(until=2.0)
    assert [(str(a.action), a.accepted) for a in host.log] == [
        ("0 play 1 4H S0", True),
        ("0 slap S1", True),
        ("1 slap S1", False),
    ]
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="9D TS", slap_timeout=3.0)
    host = RealtimeHost(st, VirtualClock())
    host.submit("0 play 1 4H S0", at=1.0)
    host.run()
    assert str(host.log[-1].action) == "timer slap" and host.log[-1].time == pytest.approx(4.0)


def test_sp10_min_action_interval_ms_delays_a_seats_next_action():
    st = race_position(min_action_interval_ms=500)
    host = RealtimeHost(st, VirtualClock())
    host.submit("0 play 1 4H S0", at=1.0)
    host.submit("0 play 2 QC S1", at=1.1)
    host.run(until=1.9)
    assert [(a.time, a.accepted) for a in host.log] == [(1.0, True), (1.5, True)]


@pytest.mark.parametrize("seed", range(8))
def test_sp10_sp13_a_seats_held_back_plays_keep_the_order_they_came_in(seed):
    """Three plays of one seat within the interval, each legal after the one before: all are
    applied, in the order the server received them, whatever the host's seed for ties."""
    st = position(piles("QC 6H", "QD 7H", "QS 8H"), piles("KC", "KD"), "2C", "2D", s0="5S", s1="TS",
                  min_action_interval_ms=100)
    host = RealtimeHost(st, VirtualClock(), seed=seed)
    for i, (pile, card) in enumerate(((1, "6H"), (2, "7H"), (3, "8H"))):
        host.submit(f"0 play {pile} {card} S0", at=1.0 + i / 100)
    host.run(until=2.0)
    assert [(round(a.time, 2), str(a.action), a.accepted) for a in host.log] == [
        (1.0, "0 play 1 6H S0", True), (1.1, "0 play 2 7H S0", True), (1.2, "0 play 3 8H S0", True)]


def test_sp10_sp17_a_request_moves_no_card_and_is_not_held_back():
    """SP-10's interval paces the actions that move a card: a spit request withdrawn before the
    other player asks (SP-17) is withdrawn then, so no spit happens."""
    st = position(piles("QC 6H"), piles("KC 9D"), "2C 3C", "2D 3D", s0="5S", s1="TS",
                  min_action_interval_ms=100)
    host = RealtimeHost(st, VirtualClock(), seed=0)
    host.submit("0 spit", at=1.00)
    host.submit("0 unspit", at=1.01)
    host.submit("1 spit", at=1.05)
    host.run(until=2.0)
    assert [(a.time, str(a.action), a.accepted) for a in host.log] == [
        (1.0, "0 spit", True), (1.01, "0 unspit", True), (1.05, "1 spit", True)]
    assert [len(s) for s in st.spitcards] == [2, 2]  # nobody spat: seat 0's request was withdrawn
    assert st.one_handed(cardtable.load("spit").parse_action("0 play 1 6H S0"))
    assert not any(st.one_handed(cardtable.load("spit").parse_action(a)) for a in ("0 spit", "0 unspit"))


def test_bots_registered_and_seeded_virtual_games_are_deterministic():
    assert isinstance(make_bot("spit", "expert"), SpitBot)
    game = cardtable.load("spit", max_rounds=20)

    def play(seed):
        st = game.new_state(seed=seed)
        host = RealtimeHost(st, VirtualClock(), bots={0: SpitBot("easy"), 1: SpitBot("hard")}, seed=seed)
        out = host.run()
        return out, [(a.time, str(a.action), a.accepted) for a in host.log], str(st)

    for seed in (1, 2):
        assert play(seed) == play(seed)
    assert play(1)[1] != play(2)[1]


def test_bot_levels_ordered_by_strength():
    """Each level beats the one below it over 24 seeded virtual-time games (seats alternate)."""
    game = cardtable.load("spit", max_rounds=30)
    for weak, strong in itertools.pairwise(LEVEL_ORDER):
        score = 0.0
        for seed in range(24):
            st = game.new_state(seed=seed)
            bots = {0: SpitBot(weak), 1: SpitBot(strong)} if seed % 2 else {0: SpitBot(strong), 1: SpitBot(weak)}
            out = RealtimeHost(st, VirtualClock(), bots=bots, seed=seed).run()
            assert out is not None and conserved(st)
            score += sum(out.returns[s] for s in (0, 1) if bots[s].name == strong)
        assert score > 15, (weak, strong, score)
    assert [LEVELS[n].reaction_mean for n in LEVEL_ORDER] == sorted(
        (LEVELS[n].reaction_mean for n in LEVEL_ORDER), reverse=True
    )


def test_bot_vs_human_submissions_live_style():
    st = cardtable.load("spit", max_rounds=2).new_state(seed=3)
    clock = VirtualClock()
    host = RealtimeHost(st, clock, bots={1: SpitBot("beginner")}, seed=3)
    bad = 0
    while not st.is_terminal() and clock.now() < 2000:
        for a in st.legal_actions(0)[:1]:
            host.submit(a)
        nxt = host.next_due()
        clock.set(max(clock.now() + 0.5, nxt if nxt is not None else 0))
        bad += sum(not a.accepted for a in host.advance())
    assert st.is_terminal() and conserved(st)


@pytest.mark.parametrize(
    "opts",
    [
        {"auto_flip": False},
        {"allow_same_rank_stacking": True, "allow_mutual_spit": False},
        {"allow_mutual_spit": False},
        {"scoring": "points", "points_limit": 40},
        {"scoring": "points", "points_round_mode": "carry_over", "points_limit": 60},
    ],
)
def test_bots_finish_games_under_every_option(opts):
    game = cardtable.load("spit", max_rounds=15, **opts)
    for seed in range(6):
        st = game.new_state(seed=seed)
        bots = (
            {0: SpitBot("beginner"), 1: SpitBot("expert")} if seed % 2 else {0: SpitBot("medium"), 1: SpitBot("medium")}
        )
        out = RealtimeHost(st, VirtualClock(), bots=bots, seed=seed).run()
        assert out is not None and st.is_terminal() and conserved(st)


def _mean_delay(st, level, n=400):
    rng = random.Random(0)
    total = 0.0
    for _ in range(n):
        bot = SpitBot(level)
        _, when = bot.react(st.view(0), 10.0, rng)
        total += when - 10.0
    return total / n


def test_bot_reaction_slower_with_more_to_scan():
    few = position(piles("4H"), piles("6D"), "2C", "2D", s0="5S", s1="KS")
    many = position(piles("4H", "9C", "JD", "7S", "8S"), piles("6D"), "2C", "2D", s0="5S", s1="KS")
    lv = LEVELS["medium"]
    assert _mean_delay(many, "medium") > _mean_delay(few, "medium") + 0.5 * lv.scan_cost * 8
    assert _mean_delay(few, "expert") < _mean_delay(few, "beginner")


def test_bot_misses_plays_at_its_miss_rate():
    st = position(piles("4H"), piles("6D"), "2C", "2D", s0="5S", s1="KS")
    rng = random.Random(1)
    lv = LEVELS["beginner"]
    late = sum(
        SpitBot("beginner").react(st.view(0), 0.0, rng)[1] > lv.reaction_mean + 3 * lv.reaction_sd for _ in range(2000)
    )
    assert 0.1 < late / 2000 < 0.3  # about miss_rate (0.25), a few of them quick all the same


def test_bot_moves_one_card_at_a_time():
    st = position(piles("4H", "3C"), piles("6D"), "2C", "2D", s0="5S", s1="KS")
    bot = SpitBot("expert")
    rng = random.Random(2)
    action, when = bot.react(st.view(0), 0.0, rng)
    st.play(action)
    bot.sent(action, when)
    action, again = bot.react(st.view(0), when, rng)
    assert str(action) == "0 play 2 3C S0" and again >= when + LEVELS["expert"].move_time


def test_bot_slaps_the_smaller_pile():
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="9D TS")
    st.play("0 play 1 4H S0")
    assert st.view(1).spit_sizes[1] < st.view(1).spit_sizes[0]
    rng = random.Random(3)
    picks = [SpitBot("expert").react(st.view(1), 0.0, rng)[0] for _ in range(50)]
    assert {str(a) for a in picks} == {"1 slap S1"}
    picks = [str(SpitBot("beginner").react(st.view(1), 0.0, rng)[0]) for _ in range(400)]
    assert 0.45 < picks.count("1 slap S1") / 400 < 0.75  # slap_accuracy 0.6


def test_c7_sp17_a_spit_request_asked_over_and_over_turns_the_centre_once_and_only_when_both_ask():
    """C7: seat 0 asks to spit ten times; the centre does not turn until seat 1 asks too, every
    repeat is refused (the request already stands), and then the centre turns exactly once (one
    spit card each), however often seat 0 keeps asking."""
    st = position(piles("4H", "9H"), piles("6D"), "5C 3C", "7D 3D", s0="5S", s1="TS")
    host = RealtimeHost(st, VirtualClock())
    for i in range(10):
        host.submit("0 spit", at=1.0 + i / 10)
    host.run(until=2.5)
    assert [a.accepted for a in host.log] == [True] + [False] * 9
    assert [len(s) for s in st.spitcards] == [2, 2] and [s[-1] for s in st.spit] == [C("5S"), C("TS")]
    host.submit("1 spit", at=3.0)
    for i in range(10):
        host.submit("0 spit", at=3.0 + (i + 1) / 100)
    host.run(until=10.0)
    assert [len(s) for s in st.spitcards] == [1, 1]  # one spit, not one per request
    assert [s[-1] for s in st.spit] == [C("5C"), C("7D")]
    # the first repeat after the spit is a new request, which waits for seat 1 like the first one
    assert [str(a.action) for a in host.log[10:] if a.accepted] == ["1 spit", "0 spit"]
    assert st.requests == [True, False]
    assert not st.blocked() and st.phase is Phase.PLAY and conserved(st)


def test_c8_sp15_a_blocked_position_is_resolved_by_one_spit_whatever_the_players_ask():
    """C8: in a blocked position the host turns the centre once (the spit timer, SP-15/SP-16);
    requests both players send while it is pending change nothing, so there is no second spit."""
    st = position(piles("4H"), piles("6D"), "5C 3C", "7D 3D", s0="9S", s1="TS", spit_delay=0.5)
    assert st.blocked()
    st._after_change()
    host = RealtimeHost(st, VirtualClock())
    for i in range(8):
        host.submit(f"{i % 2} spit", at=0.05 * (i + 1))
    host.run(until=10.0)
    assert [len(s) for s in st.spitcards] == [1, 1]
    assert [s[-1] for s in st.spit] == [C("5C"), C("7D")]
    assert [str(a.action) for a in host.log if a.accepted] == ["timer spit"]
    assert not st.blocked() and st.phase is Phase.PLAY and conserved(st)
