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
_PILES = (_OFF["piles_0"], _OFF["piles_1"])
_SPIT_PILE = (_OFF["spit_pile_0"], _OFF["spit_pile_1"])
_PHASE, _LONE, _FINISHER, _ROUND = _OFF["phase"], _OFF["lone_pile"], _OFF["finisher"], _OFF["round"]
_SEAT_CELLS = tuple(
    tuple(_OFF[f"{name}_{i}"] for name in ("spit_cards", "cards_held", "spit_request", "score")) for i in range(2)
)


class SpitEncoder:
    """Observation tensors for Spit (one layout for every preset and option)."""

    layout = LAYOUT
    size = LAYOUT.size

    def encode(self, view: SpitView) -> np.ndarray:
        me = view.seat or 0
        ri = _RANK_INDEX
        out = np.zeros(LAYOUT.size, dtype=np.float32)
        ones: list[int] = []  # the cells set to 1, in one call at the end
        stock, face_down, tops = view.stock, view.face_down, view.spit_tops
        spit_cards, held, requests, scores, sizes = (
            view.spit_cards, view.cards_held, view.spit_requests, view.scores, view.spit_sizes)
        for i in range(2):
            p = (me + i) % 2
            at = _PILES[i]
            for up, down in zip(stock[p], face_down[p], strict=True):
                if up:
                    ones.append(at + ri[up[-1].id])
                    out[at + RANKS] = len(up) / 13.0
                elif not down:
                    ones.append(at + RANKS + 2)
                if down:
                    out[at + RANKS + 1] = down / 26.0
                at += PILE_CELLS
            c_spit, c_held, c_request, c_score = _SEAT_CELLS[i]
            out[c_spit] = spit_cards[p] / 26.0
            out[c_held] = held[p] / 52.0
            if requests[p]:
                ones.append(c_request)
            out[c_score] = scores[p] / 100.0
            b = _SPIT_PILE[i]
            top = tops[p]
            if top is not None:
                ones += (b + ri[top.id], b + RANKS + 1)
            out[b + RANKS] = sizes[p] / 52.0
        phase = view.phase
        if phase in PHASES:
            ones.append(_PHASE + PHASES.index(phase))
        if view.lone_pile is not None:
            ones.append(_LONE + (view.lone_pile - me) % 2)
        if view.finisher is not None:
            ones.append(_FINISHER + (view.finisher - me) % 2)
        out[_ROUND] = min(view.round, 100) / 100.0
        out.put(ones, 1.0)
        return out
