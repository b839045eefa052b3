"""The Spit observation tensor, built from a :class:`~cardtable.games.spit.view.SpitView` only.

Seats are relative: block 0 is the observing seat, block 1 the opponent; spit
pile block 0 is the pile the observing seat started (``S{seat}``, SP-6). Cards
are encoded by rank (Spit's adjacency ignores suits, SP-2); the action mask is
in absolute action indices (:mod:`cardtable.games.spit.actions`).
"""

from __future__ import annotations

import numpy as np

from ..core.cards import RANK_OF
from ..games.spit.actions import PILES
from ..games.spit.view import SpitView
from .layout import Layout

RANKS = 13
PHASES = ("play", "spit_pending", "slap")
PILE_CELLS = RANKS + 4
_RANK_INDEX = tuple(r - 1 for r in RANK_OF[:52])


def _layout() -> Layout:
    f: list[tuple[str, int, str]] = []
    for i, who in enumerate(("me", "opponent")):
        f += [
            (f"piles_{i}", PILES * PILE_CELLS,
             f"{who}: per stock pile 1..5, one-hot top rank (A..K), then face-up cards / 13, "
             "face-down cards / 26, 1 if the space is empty"),
            (f"spit_cards_{i}", 1, f"{who}: spit cards / 26"),
            (f"cards_held_{i}", 1, f"{who}: stock and spit cards / 52"),
            (f"spit_request_{i}", 1, f"{who}: 1 while asking for a spit (SP-17)"),
            (f"score_{i}", 1, f"{who}: points / 100 (SP-V1)"),
        ]
    for i, which in enumerate(("the pile I started", "the pile the opponent started")):
        f.append((f"spit_pile_{i}", RANKS + 2,
                  f"{which}: one-hot top rank, then size / 52, then 1 if in use this round"))
    f += [
        ("phase", len(PHASES), "one-hot phase: play, spit_pending, slap (zeros when over)"),
        ("lone_pile", 2, "one-hot relative pile a lone spitter is bound to (SP-16)"),
        ("finisher", 2, "one-hot relative seat that emptied its stock, in the slap phase"),
        ("round", 1, "round number / 100, capped at 1"),
    ]
    return Layout(f)


LAYOUT = _layout()
_OFF = {fl.name: fl.offset for fl in LAYOUT.fields}


class SpitEncoder:
    """Observation tensors for Spit (one layout for every preset and option)."""

    layout = LAYOUT
    size = LAYOUT.size

    def encode(self, view: SpitView) -> np.ndarray:
        off = _OFF
        me = view.seat or 0
        out = np.zeros(LAYOUT.size, dtype=np.float32)
        ri = _RANK_INDEX
        for i in range(2):
            p = (me + i) % 2
            b = off[f"piles_{i}"]
            for j in range(PILES):
                cells = b + j * PILE_CELLS
                up = view.stock[p][j]
                down = view.face_down[p][j]
                if up:
                    out[cells + ri[up[-1].id]] = 1.0
                out[cells + RANKS] = len(up) / 13.0
                out[cells + RANKS + 1] = down / 26.0
                if not up and not down:
                    out[cells + RANKS + 2] = 1.0
            out[off[f"spit_cards_{i}"]] = view.spit_cards[p] / 26.0
            out[off[f"cards_held_{i}"]] = view.cards_held[p] / 52.0
            out[off[f"spit_request_{i}"]] = 1.0 if view.spit_requests[p] else 0.0
            out[off[f"score_{i}"]] = view.scores[p] / 100.0
            b = off[f"spit_pile_{i}"]
            top = view.spit_tops[p]
            if top is not None:
                out[b + ri[top.id]] = 1.0
                out[b + RANKS + 1] = 1.0
            out[b + RANKS] = view.spit_sizes[p] / 52.0
        if view.phase in PHASES:
            out[off["phase"] + PHASES.index(view.phase)] = 1.0
        if view.lone_pile is not None:
            out[off["lone_pile"] + (view.lone_pile - me) % 2] = 1.0
        if view.finisher is not None:
            out[off["finisher"] + (view.finisher - me) % 2] = 1.0
        out[off["round"]] = min(view.round, 100) / 100.0
        return out
