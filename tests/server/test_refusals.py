"""H7: the message of every refused action says only what its sender may know.

Every seat of a table of each game is a person; at positions along a random game each seat sends
actions that are not legal for it (out of turn, cards it does not hold, another seat's actions,
timers) through the table, as the socket would. Every card a refusal names must be one the sender
named itself or one its own view shows.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from cardtable.server.hub import Hub
from cardtable.server.store import Store

SYMBOL = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([CDHS♣♦♥♠])(?![0-9A-Za-z])")


def cards_in(text: str) -> set[str]:
    return {("T" if rank == "10" else rank) + SYMBOL.get(suit, suit) for rank, suit in CARD.findall(text)}


def refusals(game: str, players: int, seed: int, positions: int, per_seat: int
             ) -> list[tuple[int, int, str, str, str]]:
    """(position, seat, action, message, the seat's view as JSON text) for every refusal sent along
    the game."""
    hub = Hub(Store(":memory:"))
    options: dict[str, Any] = {"spit_delay": 0.0} if game == "spit" else {"players": players} if game == "trash" else {}
    table, _ = hub.create(game, None, options)
    for seat in range(players):
        table.sit(seat, f"P{seat}")
    table.start(seed=seed)
    assert table.match is not None
    state = table.match.state
    everything = [str(state.game.action_from_index(i)) for i in range(state.game.num_distinct_actions)]
    rng = random.Random(seed)
    seq = dict.fromkeys(range(players), 0)
    out = []
    for position in range(positions):
        if state.is_terminal():
            break
        for seat in range(players):
            legal = {str(a) for a in (state.legal_actions(seat) if game == "spit" else
                                      state.legal_actions() if state.current_player() == seat else ())}
            view = json.dumps(state.view(seat).to_json())
            illegal = [a for a in everything if a not in legal]
            for text in rng.sample(illegal, min(per_seat, len(illegal))):
                seq[seat] += 1
                reply = table.act(seat, seq[seat], text)
                assert reply["type"] == "error", (seat, text, reply)
                out.append((position, seat, text, reply["message"], view))
        for _ in range(rng.randrange(1, 6)):  # the game moves on by a few legal actions
            if state.is_terminal():
                break
            seat = state.current_player()
            if game == "spit":
                seat = rng.choice([s for s in range(players) if state.legal_actions(s)])
                legal_now = list(state.legal_actions(seat))
            else:
                legal_now = list(state.legal_actions())
            seq[seat] += 1
            assert table.act(seat, seq[seat], str(rng.choice(legal_now)))["type"] == "ack"
    return out


@pytest.mark.parametrize(("game", "players"), [("trash", 2), ("trash", 3), ("trex", 4), ("spit", 2)])
def test_h7_every_refusal_names_only_cards_its_sender_named_or_sees(game: str, players: int):
    """Besides naming no card the sender cannot see, a refusal of an action naming a card hidden
    from the sender reads the same whichever hidden card it names: where that card is (another
    hand, the stock, a face-down slot) shows in no message."""
    seen = compared = 0
    for seed in range(3):
        alike: dict[tuple[int, int, str], set[str]] = {}
        for position, seat, text, message, view in refusals(game, players, seed, positions=12, per_seat=24):
            told = cards_in(message) - cards_in(text) - cards_in(view)
            assert not told, f"seat {seat} sent {text!r} and was told {message!r}: {sorted(told)} not in its view"
            seen += 1
            named = cards_in(text)
            if len(named) == 1 and not named & cards_in(view):  # one card, hidden from the sender
                card = CARD.search(text)
                assert card is not None
                shape = text.replace(card.group(0), "<card>")
                alike.setdefault((position, seat, shape), set()).add(message.replace(card.group(0), "<card>"))
        for key, messages in alike.items():
            assert len(messages) == 1, f"refusals of {key} tell hidden cards apart: {sorted(messages)}"
        compared += sum(1 for m in alike.values() if m)
    assert seen > 200
    if game == "trex":
        assert compared > 50


def test_h7_the_check_reads_cards_in_both_notations():
    assert cards_in("AS is not legal now; legal: keep") == {"AS"}
    assert cards_in("that card is in seat 2's hand: 10♥ and Q♠") == {"TH", "QS"}
    assert cards_in("seat 1 plays 7D S0; contract KH") == {"7D", "KH"}
