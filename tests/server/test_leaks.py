"""The wire oracle (H1, H2, H5, H9): every frame each seat and spectator receives over
200 random Trash games, including errors, reconnects with missed events and the end.

Ground truth comes from the true state, not from views: a card may appear in a
seat's frames only once the rules have shown it (face-up in a layout, on the
discard pile, or drawn into hand). The stock and every face-down card, the
owner's included (TR-14), stay off the wire, and so does the seed. Every game is a fair
deal (docs/fairness.md): until it is over no frame carries its server seed in any of the forms
:meth:`FairDeal.secret_texts` lists.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

from cardtable.core.cards import Card
from cardtable.records.fairness import FairDeal
from cardtable.server import fairplay, fanout
from cardtable.server.connection import Connection, Outgoing
from cardtable.server.hub import Hub
from cardtable.server.protocol import dumps
from cardtable.server.state import TableState
from cardtable.server.store import Store

CARD_ASCII = re.compile(r'"((?:[2-9TJQKA][CDHS])|JK)"')
CARD_UNICODE = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])|🃏")
_SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
FORBIDDEN_KEYS = re.compile(r'"(seed|deck|stock|down|stacked_deck|rng|token|history|bot_seed)":')


class Capture(Connection):
    """A connection that keeps every frame it is sent, as the wire text."""

    def __init__(self, lang: str = "en") -> None:
        self.frames: list[str] = []
        self.lang = lang
        self.seat: int | None = None
        self.closed = False

    def push(self, frame: dict[str, Any] | Outgoing, latest: str | None = None) -> None:
        # every frame as the wire text, none replaced by a newer one
        self.frames.append(frame.text if isinstance(frame, Outgoing) else dumps(frame))

    def drop(self, latest: str) -> None:
        pass  # every frame was sent at once: none is waiting to be dropped

    def close_soon(self, code: int, reason: str = "") -> None:
        self.closed = True


def cards_in(text: str) -> set[str]:
    found = set(CARD_ASCII.findall(text))
    for m in CARD_UNICODE.finditer(text):
        if m.group(0) == "🃏":
            found.add("JK")
        else:
            rank = "T" if m.group(1) == "10" else m.group(1)
            found.add(rank + _SUIT[m.group(2)])
    return found


def shown(state: Any) -> set[str]:
    """Cards the rules show right now: face-up layout cards, the discard pile, the card in hand."""
    ids = [c for layout in state.up for c in layout[1:] if c >= 0]
    ids += list(state.discard)
    if state.hand >= 0:
        ids.append(state.hand)
    return {str(Card.from_id(c)) for c in ids}


def fair_seats(table: Any, rng: random.Random) -> tuple[str, ...]:
    """A person at every seat of a fair table, each committing to a seed and revealing it (the
    server seed drawn from ``rng`` too: the game is the same on every run); the server seed's
    texts, which no frame may carry before the end."""
    fairplay.restart_with(table.s, FairDeal(table.num_players, rng.randbytes(32)))  # a server seed from rng
    table.actor.settle()
    seeds = [rng.randbytes(32) for _ in range(table.num_players)]
    tokens = [table.sit(seat, f"P{seat}", hashlib.sha256(seed).hexdigest()) for seat, seed in enumerate(seeds)]
    for token, seed in zip(tokens, seeds, strict=True):
        table.reveal(token, seed.hex())
    return tuple(table.s.fair.deal.secret_texts())


def no_secret(table: Any, hidden: tuple[str, ...], text: str) -> None:
    """The fair deal's server seed is not in ``text`` while the game runs."""
    if table.match is None or not table.match.is_over:
        assert not any(s in text for s in hidden), f"the server seed left the server: {text[:300]}"


def play_one(hub: Hub, rng: random.Random) -> tuple[int, int]:
    players = rng.choice((2, 2, 2, 3, 4))
    options: dict[str, Any] = {"players": players, "wild_mode": rng.choice(("jacks", "kings", "all_faces")),
                               "jokers": rng.random() < 0.3, "target_size": rng.choice((0, 6, 8))}
    if rng.random() < 0.3:
        options["discard_take_requires_playable"] = False
    table, _ = hub.create("trash", None, options)
    hidden = fair_seats(table, rng)
    conns: dict[int | None, list[Capture]] = {s: [Capture(rng.choice(("en", "es")))] for s in range(players)}
    conns[None] = [Capture(rng.choice(("en", "es")))]
    for seat, (conn,) in conns.items():
        table.attach(conn, seat, None)
    table.start()
    assert table.match is not None and table.match.fair is not None
    state = table.match.state
    seen = shown(state)
    marks: dict[int, int] = {}  # frames already checked, per connection
    seq = dict.fromkeys(range(players), 0)
    actions = 0

    def check(seat: int | None, allowed: set[str]) -> None:
        for conn in conns[seat]:
            for text in conn.frames[marks.get(id(conn), 0):]:
                no_secret(table, hidden, text)
                leaked = cards_in(text) - allowed
                assert not leaked, f"seat {seat} was sent hidden cards {leaked}: {text[:300]}"
                assert not FORBIDDEN_KEYS.search(text), f"a forbidden key: {text[:300]}"
                if text.startswith('{"type":"state"'):
                    frame = json.loads(text)
                    view = frame["view"]
                    assert view["seat"] == seat  # H12: no cross-talk
                    assert isinstance(view["stock_count"], int)
            marks[id(conn)] = len(conn.frames)

    while not table.match.is_over and actions < 3000:
        before_hand = state.hands_played
        before_down = {str(Card.from_id(c)) for c in state.down[state.turn][1:] if c >= 0}
        if state.stock:  # the card a draw turns up, if the hand ends in the same action
            before_down.add(str(Card.from_id(state.stock[-1])))
        seat = state.current_player()
        roll = rng.random()
        if roll < 0.03:  # a wrong action, or an action out of turn: an error frame
            other = rng.randrange(players)
            seq[other] += 1
            reply = table.act(other, seq[other], rng.choice(("discard", "wild 9", "displace", "bogus", "stock")))
            conns[other][-1].push(reply)
            if reply["type"] == "ack":
                table.after_change()
        elif roll < 0.045:  # a reconnect from an earlier version: missed events, then the snapshot (H5)
            reconnect(table, conns, players, rng)
        else:
            seq[seat] += 1
            legal = state.legal_actions(seat)
            reply = table.act(seat, seq[seat], str(rng.choice(legal)))
            assert reply["type"] == "ack", reply
            conns[seat][-1].push(reply)
            table.after_change()
            actions += 1
        allowed = seen | shown(state)
        if state.hands_played != before_hand or table.match.is_over:
            # a hand ended inside this action: the chain may have turned up any of the
            # mover's face-down cards before the new deal hid them again
            allowed |= before_down
        for s in conns:
            check(s, allowed)
        seen = allowed
    assert table.match.is_over
    return actions, sum(len(c.frames) for cs in conns.values() for c in cs)



def reconnect(table: Any, conns: Any, players: int, rng: random.Random) -> None:
    """A random seat (or a spectator) reconnects from an earlier version: it gets the missed
    events, then a snapshot equal to the table's state frame (H5)."""
    who = rng.choice([*range(players), None])
    since = rng.randrange(-1, table.version + 1)
    conn = Capture(rng.choice(("en", "es")))
    table.detach(conns[who][-1])
    conns[who].append(conn)
    table.attach(conn, who, since)
    snapshot = next(json.loads(f) for f in reversed(conn.frames) if f.startswith('{"type":"state"'))
    assert snapshot == json.loads(dumps(table.state_frame(who, conn.lang)))

def test_h1_h2_h9_no_hidden_card_or_seed_on_the_wire_in_200_random_trash_games(tmp_path):
    store = Store(":memory:")
    hub = Hub(store)
    rng = random.Random(20261130)
    total_actions = total_frames = 0
    for _ in range(200):
        actions, frames = play_one(hub, rng)
        total_actions += actions
        total_frames += frames
    assert total_actions > 5000 and total_frames > 20000


def test_h2_the_oracle_catches_a_leak(tmp_path):
    """The oracle is not vacuous: a server that sent the stock would fail it."""
    store = Store(":memory:")
    hub = Hub(store)
    original = fanout.view_json  # every frame with game data is built there

    def leaky(s: TableState, seat: int | None, lang: str) -> dict[str, Any]:
        data = original(s, seat, lang)
        assert s.match is not None
        data["extra"] = [str(Card.from_id(c)) for c in s.match.state.stock[-3:]]
        return data

    fanout.view_json = leaky  # type: ignore[assignment]
    try:
        try:
            play_one(hub, random.Random(1))
        except AssertionError as exc:
            assert "hidden cards" in str(exc)
        else:
            raise AssertionError("the oracle missed a leak")
    finally:
        fanout.view_json = original  # type: ignore[assignment]


def test_h_fair_the_oracle_catches_the_server_seed_in_any_of_its_forms():
    """The fair-deal check is not vacuous: a frame with the server seed's hex or base64 fails it."""
    original = fanout.view_json
    for form in range(4):  # hex, HEX, base64, url-safe base64 (FairDeal.secret_texts)

        def leaky(s: TableState, seat: int | None, lang: str, form: int = form) -> dict[str, Any]:
            data = original(s, seat, lang)
            assert s.fair.deal is not None
            data["note"] = "x" + s.fair.deal.secret_texts()[form] + "x"
            return data

        fanout.view_json = leaky  # type: ignore[assignment]
        try:
            try:
                play_one(Hub(Store(":memory:")), random.Random(2))
            except AssertionError as exc:
                assert "server seed left" in str(exc)
            else:
                raise AssertionError(f"the oracle missed the server seed (form {form})")
        finally:
            fanout.view_json = original  # type: ignore[assignment]
