"""The wire oracle for Trex and Spit (H1, H3, H4, H5, H9, H12): every frame each seat
and a spectator receive over ≥200 random games of each, including error frames and
reconnects with missed events.

What a seat may know is derived from the true state by the rules, never from the
view: a card may appear in a frame only if, just before or just after the action
that produced the frame, the rules show it to that seat.

* Trex (H3): the seat's own hand; cards played this deal; doubled cards (TX-15);
  hands shown to force a redeal (TX-13); in partnership the 2s once exposed
  (TX-V2); with ``open_hands`` (the ``open`` preset, TX-V6) every hand.
* Spit (H4): the face-up tops of both layouts and the centre spit piles; never a
  face-down stock card nor a spit card, not even to their owner (SP-4).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

from cardtable.core.cards import Card
from cardtable.core.seats import TERMINAL
from cardtable.server import fanout
from cardtable.server.hub import Hub
from cardtable.server.state import TableState
from cardtable.server.store import Store

from .test_leaks import FORBIDDEN_KEYS, Capture, cards_in, fair_seats, no_secret, reconnect

Allowed = Callable[[Any, "int | None"], set[str]]
CONTRACT_CODES = re.compile(r'"contracts_left":\[[^\]]*\]|"contract":"[^"]*"|(?<=\d,)"[A-Z+]+"(?=,\[)')
"""Trex contract codes (``KH`` is King of Hearts the contract, not K♥ the card): in the
``contract`` and ``contracts_left`` fields and in ``deal_scores`` rows."""


def _names(ids: Any) -> set[str]:
    return {str(Card.from_id(c)) for c in ids}


def trex_allowed(state: Any, seat: int | None) -> set[str]:
    """What the Trex rules show ``seat`` now (``None``: a spectator)."""
    if state.opts["open_hands"]:
        return _names(range(52))
    ids = {c for c in range(52) if state.owner[c] < 0}  # played this deal (or the game is over)
    ids |= {c for c, _ in state.doubled}
    ids |= {c for _, cards in state.redeal_shown for c in cards}
    if state.twos_exposed:
        ids |= {s * 13 + 1 for s in range(4)}
    if seat is not None:
        ids |= {c for c in range(52) if state.owner[c] == seat}
    return _names(ids)


def trex_reveals(state: Any, seat: int, action: Any) -> set[str]:
    """Cards an action itself shows everyone: the card played or doubled, the hand shown
    for a redeal (it may end the deal, so the state after it no longer holds them)."""
    from cardtable.games.trex.actions import DOUBLE, PLAY, REDEAL

    if action.kind in (PLAY, DOUBLE):
        return _names([action.arg])
    if action.kind == REDEAL:
        return _names(c for c in range(52) if state.owner[c] == seat)
    return set()


def spit_allowed(state: Any, seat: int | None) -> set[str]:
    """What the Spit rules show anyone now: face-up stock tops and the centre piles."""
    ids: set[int] = set()
    for p in range(2):
        for j, pile in enumerate(state.stock[p]):
            up = state.up[p][j]
            if up > 0:
                ids.update(pile[len(pile) - up:])
    for pile in state.spit:
        ids.update(pile)
    return _names(ids)


def spit_reveals(state: Any, seat: int, action: Any) -> set[str]:
    """What one action may turn face up on its way (the round may end in the same action
    and gather it again): a spit shows each seat's next spit card (SP-6, SP-16); any
    other action at most the face-down card under a stock top (SP-8)."""
    if "spit" in str(action):
        return _names(cards[-1] for cards in state.spitcards if cards)
    ids = set()
    for p in range(2):
        for j, pile in enumerate(state.stock[p]):
            under = len(pile) - state.up[p][j] - 1
            if under >= 0:
                ids.add(pile[under])
    return _names(ids)


def spit_hidden(state: Any) -> set[str]:
    """Cards that are face down right now: spit cards and stock cards under the tops."""
    ids: set[int] = set()
    for p in range(2):
        ids.update(state.spitcards[p])
        for j, pile in enumerate(state.stock[p]):
            ids.update(pile[: len(pile) - state.up[p][j]])
    return _names(ids)


def play_one(hub: Hub, rng: random.Random, game: str, preset: str | None, options: dict[str, Any],
             allowed_fn: Allowed, stop: Callable[[Any, int], bool],
             reveals: Callable[[Any, int, Any], set[str]] = lambda state, seat, action: set(),
             ) -> tuple[int, int]:
    table, _ = hub.create(game, preset, options)
    players = table.num_players
    hidden = fair_seats(table, rng)
    conns: dict[int | None, list[Capture]] = {s: [Capture(rng.choice(("en", "es")))] for s in [*range(players), None]}
    for seat, (conn,) in conns.items():
        table.attach(conn, seat, None)
    table.start()
    assert table.match is not None and table.match.fair is not None
    match = table.match
    state = match.state
    marks: dict[int, int] = {}
    seq = dict.fromkeys(range(players), 0)
    actions = 0
    before = {s: allowed_fn(state, s) for s in conns}

    ever = {s: set(before[s]) for s in conns}  # what each seat has been shown at some time
    ok = {s: set(before[s]) for s in conns}  # what frames of the current version may show
    version = table.version  # what each seat has been shown at some time

    def check(seat: int | None, allowed: set[str]) -> None:
        ever[seat] |= allowed
        for conn in conns[seat]:
            for text in conn.frames[marks.get(id(conn), 0):]:
                no_secret(table, hidden, text)
                # missed events after a reconnect replay what the seat saw back then
                ok = ever[seat] if text.startswith('{"type":"events"') else allowed
                leaked = cards_in(CONTRACT_CODES.sub("", text)) - ok
                assert not leaked, f"seat {seat} was sent hidden cards {leaked}: {text[:400]}"
                assert not FORBIDDEN_KEYS.search(text.replace('"stock":', "")), f"a forbidden key: {text[:300]}"
                if text.startswith('{"type":"state"'):
                    assert json.loads(text)["view"]["seat"] == seat  # H12: no cross-talk
            marks[id(conn)] = len(conn.frames)

    while not match.is_over and not stop(state, actions):
        to_move = state.current_player()
        shown: set[str] = set()
        roll = rng.random()
        if roll < 0.02:  # a wrong action or one out of turn: an error frame
            other = rng.randrange(players)
            seq[other] += 1
            bogus = rng.choice(("play AS", "double QH", "redeal", "contract KH", "bogus", "slap 1", "play 1 2",
                                "spit", "p3"))
            reply = table.act(other, seq[other], bogus)
            conns[other][-1].push(reply)
            if reply["type"] == "ack":
                table.after_change()
                actions += 1
        elif roll < 0.035:  # a reconnect from an earlier version: missed events, then the snapshot (H5)
            reconnect(table, conns, players, rng)
        else:
            seats = [to_move] if to_move >= 0 else [s for s in range(players) if state.legal_actions(s)]
            if seats:
                seat = rng.choice(seats)
                seq[seat] += 1
                action = rng.choice(state.legal_actions(seat))
                shown = reveals(state, seat, action)
                reply = table.act(seat, seq[seat], str(action))
                assert reply["type"] == "ack", reply
                conns[seat][-1].push(reply)
            else:  # only the host's timer can move (Spit's re-spit or slap timeout)
                timers = list(state.legal_actions(None))
                assert timers, "nobody can move"
                action = rng.choice(timers)
                shown = reveals(state, -1, action)
                if table.rt is None or not any(a.accepted for a in table.rt.advance()):
                    match._accept(-1, action)  # not due yet on the server's clock (the slap timeout)
            table.after_change()
            actions += 1
        now = {s: allowed_fn(state, s) for s in conns}
        if table.version != version:  # the frames show this version: its action's reveals
            version = table.version
            ok = {s: before[s] | now[s] | shown for s in conns}
        for s in conns:
            check(s, ok[s])
        before = now
    return actions, sum(len(c.frames) for cs in conns.values() for c in cs)


TREX_PRESETS = ("standard", "seed", "complex", "partnership", "inverted", "open")


def trex_game(hub: Hub, rng: random.Random, full: bool) -> tuple[int, int]:
    preset = rng.choice(TREX_PRESETS)
    options: dict[str, Any] = {}
    if rng.random() < 0.3:
        options["redeal_timing"] = rng.choice(("before_choice", "after_announcement"))
    if rng.random() < 0.2:
        options["doubling"] = "queens_only"
    if rng.random() < 0.15:
        options["accept_unchecked_plays"] = True
    deals = 10_000 if full else rng.choice((1, 1, 2))
    return play_one(hub, rng, "trex", preset, options, trex_allowed,
                    lambda state, n: state.deal_index >= deals or n > 20_000, trex_reveals)


def spit_game(hub: Hub, rng: random.Random) -> tuple[int, int]:
    options: dict[str, Any] = {"max_rounds": rng.choice((1, 2, 3)), "spit_delay": 0.0,
                               "auto_flip": rng.random() < 0.7}
    if rng.random() < 0.25:
        options["scoring"] = "points"
        options["points_round_mode"] = rng.choice(("fresh_deal", "carry_over"))
    if rng.random() < 0.25:
        options["allow_same_rank_stacking"] = True
    if rng.random() < 0.25:
        options["allow_mutual_spit"] = False
    return play_one(hub, rng, "spit", None, options, spit_allowed, lambda state, n: n > 3000, spit_reveals)


def test_h1_h3_no_hidden_card_on_the_wire_in_200_random_trex_games():
    hub = Hub(Store(":memory:"))
    rng = random.Random(20261130)
    totals = [0, 0]
    presets = set()
    for number in range(200):
        actions, frames = trex_game(hub, rng, full=number < 2)
        totals[0] += actions
        totals[1] += frames
        presets.add(next(reversed(hub.tables.values())).row.preset)
    assert presets >= set(TREX_PRESETS)
    assert totals[0] > 15_000 and totals[1] > 75_000


def test_h1_h4_no_spit_or_face_down_card_on_the_wire_in_200_random_spit_games():
    hub = Hub(Store(":memory:"))
    rng = random.Random(20261201)
    totals = [0, 0]
    finished = 0
    for _ in range(200):
        actions, frames = spit_game(hub, rng)
        totals[0] += actions
        totals[1] += frames
        table = next(reversed(hub.tables.values()))
        assert table.match is not None
        finished += table.match.to_move() == TERMINAL
    assert finished >= 150
    assert totals[0] > 10_000 and totals[1] > 50_000


def _leaky(extra: Callable[[Any], list[int]]) -> Callable[[TableState, int | None, str], dict[str, Any]]:
    original = fanout.view_json  # every frame with game data is built there

    def leaky(s: TableState, seat: int | None, lang: str) -> dict[str, Any]:
        data = original(s, seat, lang)
        assert s.match is not None
        data["extra"] = [str(Card.from_id(c)) for c in extra(s.match.state)]
        return data

    return leaky


def _expect_catch(leak: Callable[[Any], list[int]], run: Callable[[Hub], object]) -> None:
    original = fanout.view_json
    fanout.view_json = _leaky(leak)  # type: ignore[assignment]
    try:
        try:
            run(Hub(Store(":memory:")))
        except AssertionError as exc:
            assert "hidden cards" in str(exc)
        else:
            raise AssertionError("the oracle missed a leak")
    finally:
        fanout.view_json = original  # type: ignore[assignment]


def test_h3_the_trex_oracle_catches_a_leak_of_another_hand():
    # seat 1's lowest card, sent to everyone: seat 0 and the spectator must not see it
    def leak(state: Any) -> list[int]:
        return [c for c in range(52) if state.owner[c] == 1][:1]

    _expect_catch(leak, lambda hub: play_one(hub, random.Random(3), "trex", "standard", {}, trex_allowed,
                                             lambda state, n: state.deal_index >= 1))


def test_h4_the_spit_oracle_catches_a_leak_of_the_owners_own_spit_card():
    def leak(state: Any) -> list[int]:
        return state.spitcards[0][-1:] or [c for p in range(2) for pile in state.stock[p] for c in pile[:-1]][:1]

    _expect_catch(leak, lambda hub: spit_game(hub, random.Random(4)))


def test_h4_spit_hidden_and_shown_are_disjoint_and_cover_the_deck():
    """The Spit ground truth is sound: every card is either shown or face down, never both."""
    hub = Hub(Store(":memory:"))
    table, _ = hub.create("spit", None, {"spit_delay": 0.0})
    for seat in range(2):
        table.add_bot(seat, "random")
    table.start(seed=7)
    assert table.match is not None
    state = table.match.state
    for _ in range(200):
        if table.match.is_over:
            break
        assert not spit_allowed(state, 0) & spit_hidden(state)
        assert len(spit_allowed(state, 0) | spit_hidden(state)) == 52
        moves = [a for s in range(2) for a in state.legal_actions(s)] or list(state.legal_actions(None))
        table.match._accept(0, random.Random(len(state.history)).choice(moves))
