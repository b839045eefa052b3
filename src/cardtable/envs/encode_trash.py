"""The Trash observation tensor, built from a :class:`~cardtable.games.trash.view.TrashView` only.

Seats are relative: block 0 is the observing seat, block ``i`` the seat ``i``
places after it in the direction of play. A card is encoded by its rank alone
(Trash ignores suits, TR-3): 13 ranks Ace..King, then the Joker.
"""

from __future__ import annotations

import numpy as np

from ..core.cards import RANK_OF
from ..games.trash import TrashGame
from ..games.trash.actions import MAX_SLOTS
from ..games.trash.view import TrashView
from .layout import Layout

RANKS = 14
"""Ace..King, then the Joker."""
PHASES = ("draw", "place_wild", "displace")
_RANK_INDEX = tuple((r - 1) if r else 13 for r in RANK_OF)


class TrashEncoder:
    """Observation tensors for one loaded Trash game (the size depends on ``players``)."""

    def __init__(self, game: TrashGame) -> None:
        n = self.n = game.num_players
        self.total_cards = len(game.cards)
        rank_doc = "one-hot rank (A..K, Joker)"
        fields: list[tuple[str, int, str]] = [
            ("card_in_hand", RANKS, f"the card in the acting seat's hand, {rank_doc}; zeros when none"),
            ("top_discard", RANKS, f"the top of the discard pile, {rank_doc}; zeros when empty"),
            ("discard_ranks", RANKS, "cards of each rank in the discard pile / (4 × decks) (Jokers / (2 × decks))"),
            ("phase", len(PHASES), "one-hot phase: draw, place_wild, displace (zeros when over)"),
            ("to_act", n, "one-hot relative seat to act (0 = me)"),
            ("starter", n, "one-hot relative seat that started this hand"),
            ("stock_count", 1, "cards in the stock / cards in the game"),
            ("hand_number", 1, "hand number / 100, capped at 1"),
            ("free_draws_left", 1, "TR-V8 free turns left / 3"),
            ("time_up", 1, "1 once the match time is up (TR-V2)"),
        ]
        for i in range(n):
            who = "me" if i == 0 else f"seat +{i}"
            fields += [
                (f"size_{i}", 1, f"{who}: layout size / 10"),
                (f"hands_won_{i}", 1, f"{who}: hands won / 10 (capped at 10)"),
                (f"slot_state_{i}", MAX_SLOTS * 3,
                 f"{who}: per slot 1..10, one-hot (not in layout, face-down, face-up)"),
                (f"slot_card_{i}", MAX_SLOTS * RANKS, f"{who}: per slot 1..10, the face-up card, {rank_doc}"),
            ]
        self.layout = Layout(fields)
        lay = self.layout
        self._off = {f.name: f.offset for f in lay.fields}
        cells = ("size", "hands_won", "slot_state", "slot_card")
        self._seat_cells = tuple(tuple(self._off[f"{name}_{i}"] for name in cells) for i in range(n))
        per_deck = self.total_cards // (54 if game.options.jokers else 52)  # the decks (TR-2)
        self._rank_norm = np.array([1.0 / (4 * per_deck)] * 13 + [1.0 / (2 * per_deck)], dtype=np.float32)

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: TrashView) -> np.ndarray:
        """The tensor of ``view`` (a seat's view; ``view.seat`` is block 0)."""
        off = self._off
        n = self.n
        me = view.seat or 0
        out = np.zeros(self.layout.size, dtype=np.float32)
        ones: list[int] = []  # the cells set to 1, in one call at the end
        ri = _RANK_INDEX
        if view.card_in_hand is not None:
            ones.append(off["card_in_hand"] + ri[view.card_in_hand.id])
        discard = view.discard
        if discard:
            ones.append(off["top_discard"] + ri[discard[-1].id])
            counts = np.bincount([ri[c.id] for c in discard], minlength=RANKS).astype(np.float32)
            base = off["discard_ranks"]
            out[base:base + RANKS] = counts * self._rank_norm
        if view.phase in PHASES:
            ones.append(off["phase"] + PHASES.index(view.phase))
        if view.current_player >= 0:
            ones.append(off["to_act"] + (view.current_player - me) % n)
        ones.append(off["starter"] + (view.starter - me) % n)
        out[off["stock_count"]] = view.stock_count / self.total_cards
        out[off["hand_number"]] = min(view.hand_number, 100) / 100.0
        out[off["free_draws_left"]] = view.free_draws_left / 3.0
        if view.time_up:
            ones.append(off["time_up"])
        sizes, won, layouts = view.sizes, view.hands_won, view.layouts
        for i, (c_size, c_won, st, sc) in enumerate(self._seat_cells):
            p = (me + i) % n
            size = sizes[p]
            out[c_size] = size / 10.0
            out[c_won] = min(won[p], 100) / 10.0
            layout = layouts[p]
            for k in range(MAX_SLOTS):
                if k >= size:
                    ones.append(st + 3 * k)
                    continue
                card = layout[k]
                if card is None:
                    ones.append(st + 3 * k + 1)
                else:
                    ones += (st + 3 * k + 2, sc + RANKS * k + ri[card.id])
        out.put(ones, 1.0)
        return out
