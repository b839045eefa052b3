"""The Trex observation tensor, built from a :class:`~cardtable.games.trex.view.TrexView` only.

Seats are relative: index 0 is the observing seat, index ``i`` the seat ``i``
places after it in the direction of play. A card is its id (``suit * 13 +
rank - 1``: clubs, diamonds, hearts, spades; Ace = rank 1), so a 52-cell block
is a card set.
"""

from __future__ import annotations

import numpy as np

from ..games.trex.actions import DOUBLABLE, parse_contract
from ..games.trex.view import TrexView, layout_card_ids
from .layout import Layout

N = 4
CARDS = 52
PHASES = ("redeal", "choose", "double", "trick", "trex")
CONTRACTS = 16
"""Contract masks 1..16 (KH 1, QN 2, DI 4, TK 8, their unions, TR 16); cell ``mask - 1``."""
SCORE_SCALE = 1000.0


def _layout() -> Layout:
    f: list[tuple[str, int, str]] = [
        ("hand", CARDS, "my cards"),
        ("known_hands", (N - 1) * CARDS, "seats +1..+3: cards known to be in their hands (open_hands, exposed 2s)"),
        ("hand_sizes", N, "cards held / 13, relative seats"),
        ("trick", N * CARDS, "the current trick: relative seat i's card in block i"),
        ("trick_leader", N, "one-hot relative seat that led the current trick (zeros when empty)"),
        ("last_trick", N * CARDS, "the previous trick, as trick"),
        ("last_trick_winner", N, "one-hot relative winner of the previous trick"),
        ("captured", N * CARDS, "scoring cards captured this deal, per relative seat"),
        ("tricks_taken", N, "tricks taken this deal / 13"),
        ("doubled", len(DOUBLABLE) * N, "K♥, Q♣, Q♦, Q♥, Q♠: one-hot relative doubler of each doubled card"),
        ("hearts_broken", 1, "1 once a heart has been played this deal (TX-23)"),
        ("layout", CARDS, "cards laid out on the Trex layout (TX-32)"),
        ("finishing", N * N, "relative seat i went out in place j: cell 4i + j (TX-34)"),
        ("redeal_shown", N * CARDS, "hands shown to force a redeal of this deal (TX-13), per relative seat"),
        ("contract", CONTRACTS, "one-hot announced contract (mask - 1); zeros before the announcement"),
        ("contracts_left", CONTRACTS, "the holder's unused contracts in this kingdom (mask - 1)"),
        ("phase", len(PHASES), "one-hot phase: redeal, choose, double, trick, trex (zeros when over)"),
        ("to_act", N, "one-hot relative seat to act"),
        ("holder", N, "one-hot relative kingdom holder"),
        ("dealer", N, "one-hot relative dealer"),
        ("leader", N, "one-hot relative leader of this deal"),
        ("kingdom", 4, "one-hot kingdom 1..4"),
        ("deal_progress", 1, "deal number / number of deals"),
        ("deal_scores_now", N, f"scores so far in this deal / {SCORE_SCALE:g}"),
        ("totals", N, f"official totals (team totals in partnership) / {SCORE_SCALE:g}"),
        ("partnership", 1, "1 in partnership Trex (TX-V2)"),
        ("tiebreak", 1, "1 during the tie-break Trex deal (TX-40)"),
    ]
    return Layout(f)


LAYOUT = _layout()
_OFF = {fl.name: fl.offset for fl in LAYOUT.fields}
_CONTRACT_CELL: dict[str, int] = {}


def _contract_cell(code: str) -> int:
    cell = _CONTRACT_CELL.get(code)
    if cell is None:
        cell = _CONTRACT_CELL[code] = parse_contract(code) - 1
    return cell


class TrexEncoder:
    """Observation tensors for Trex (one layout for every preset and option)."""

    layout = LAYOUT
    size = LAYOUT.size

    def encode(self, view: TrexView) -> np.ndarray:
        off = _OFF
        me = view.seat or 0
        out = np.zeros(LAYOUT.size, dtype=np.float32)
        for c in view.hand:
            out[c.id] = 1.0
        base = off["known_hands"]
        for i in range(1, N):
            p = (me + i) % N
            b = base + (i - 1) * CARDS
            hand = view.hands[p]
            if hand is not None:
                for c in hand:
                    out[b + c.id] = 1.0
            for c in view.exposed_twos[p]:
                out[b + c.id] = 1.0
        for i in range(N):
            p = (me + i) % N
            out[off["hand_sizes"] + i] = view.hand_sizes[p] / 13.0
            out[off["tricks_taken"] + i] = view.tricks_taken[p] / 13.0
            out[off["deal_scores_now"] + i] = view.deal_scores_now[p] / SCORE_SCALE
            totals = view.team_totals if view.team_totals is not None else view.totals
            out[off["totals"] + i] = totals[p] / SCORE_SCALE
            b = off["captured"] + i * CARDS
            for c in view.captured[p]:
                out[b + c.id] = 1.0
        for block, trick in (("trick", view.trick), ("last_trick", view.last_trick)):
            b = off[block]
            for p, c in trick:
                out[b + ((p - me) % N) * CARDS + c.id] = 1.0
        if view.trick:
            out[off["trick_leader"] + (view.trick[0][0] - me) % N] = 1.0
        if view.last_trick_winner is not None:
            out[off["last_trick_winner"] + (view.last_trick_winner - me) % N] = 1.0
        b = off["doubled"]
        for c, q in view.doubled:
            out[b + DOUBLABLE.index(c.id) * N + (q - me) % N] = 1.0
        out[off["hearts_broken"]] = 1.0 if view.hearts_broken else 0.0
        b = off["layout"]
        for cid in layout_card_ids(view.layout):
            out[b + cid] = 1.0
        b = off["finishing"]
        for place, q in enumerate(view.finishing):
            out[b + ((q - me) % N) * N + place] = 1.0
        b = off["redeal_shown"]
        for q, cards in view.redeal_shown:
            for c in cards:
                out[b + ((q - me) % N) * CARDS + c.id] = 1.0
        if view.contract is not None:
            out[off["contract"] + _contract_cell(view.contract)] = 1.0
        b = off["contracts_left"]
        for code in view.contracts_left:
            out[b + _contract_cell(code)] = 1.0
        if view.phase in PHASES:
            out[off["phase"] + PHASES.index(view.phase)] = 1.0
        if view.current_player >= 0:
            out[off["to_act"] + (view.current_player - me) % N] = 1.0
        for name, seat in (("holder", view.kingdom_holder), ("dealer", view.dealer), ("leader", view.leader)):
            if seat >= 0:
                out[off[name] + (seat - me) % N] = 1.0
        out[off["kingdom"] + min(view.kingdom, 3)] = 1.0
        out[off["deal_progress"]] = view.deal_number / max(1, view.num_deals)
        out[off["partnership"]] = 1.0 if view.partnership else 0.0
        out[off["tiebreak"]] = 1.0 if view.tiebreak else 0.0
        return out
