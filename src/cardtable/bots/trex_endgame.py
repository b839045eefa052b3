"""Exact solving of the last tricks of a Trex trick contract, in one sampled world.

Once every hand holds at most a few cards, ``expert`` stops rolling the deal out with a
policy and solves each sampled world exactly: an alpha-beta search with a transposition
table over the remaining plays, where the seat deciding (with its partner in TX-V2) maximises
its score for the rest of the deal and the other seats minimise it (the "paranoid" model:
the scores of a trick contract add up to a constant, so what the others lose together is
what the seat wins; with ``weights``, one for each seat's points, the seat maximises their
weighted sum and the others minimise it). Scores are charged by the contract object itself
(:meth:`cardtable.games.trex.contracts.TrickContract.capture`, doubling included), so the
solver has no scoring rule of its own.

Legality is TX-22 (follow suit) and TX-23 (the hearts lead rule). :func:`solvable` refuses
worlds whose options change legality in other ways (unchecked plays, TX-V9's forced
discard); the search then keeps its rollouts.
"""

from __future__ import annotations

from typing import Any, Final

from ..core.cards import HEARTS
from ..games.trex.state import NEXT, STRENGTH, SUIT, Phase, TrexState
from .trex_search import own_weights

EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2


def solvable(st: TrexState, tricks: int) -> bool:
    """May the last tricks of ``st`` be solved exactly (at most ``tricks`` cards a hand)?"""
    return (
        st.phase is Phase.TRICK
        and st.trick_contract is not None
        and not st.unchecked
        and not st.forced_discard
        and max(st.count) <= tricks
    )


class Endgame:
    """The solver for one world: :meth:`values` gives each legal play's exact value."""

    def __init__(self, st: TrexState, seat: int, weights: tuple[float, ...] | None = None) -> None:
        tc = st.trick_contract
        assert tc is not None
        self.tc = tc
        self.seat = seat
        partnership = bool(st.opts["partnership"])
        self.side = (seat, (seat + 2) % 4) if partnership else (seat,)
        self.maxer = [q in self.side for q in range(4)]
        self.weights = weights or own_weights(seat, partnership)
        """What a point of each seat is worth to the side (its own score by default)."""
        self.doubler = st.doubler
        self.hearts_rule = st.hearts_rule
        self.table: dict[tuple[Any, ...], tuple[int, float]] = {}
        self.nodes = 0

    def values(self, st: TrexState) -> dict[int, float]:
        """The exact value (the side's score for the rest of the deal, or the scores weighted by
        ``weights``) of each legal play."""
        hands = [sum(1 << a.arg for suit in h for a in suit) for h in st.hands_by_suit]
        trick = tuple(st.trick)
        out = {}
        for a in st.legal_actions():
            c = a.arg
            h2 = hands.copy()
            h2[st.to_move] &= ~(1 << c)
            out[c] = self._after(h2, trick, st.trick_leader, st.to_move, c, st.hearts_broken, -1e9, 1e9)
        return out

    # ------------------------------------------------------------- the search
    def _after(self, hands: list[int], trick: tuple[int, ...], leader: int, p: int, c: int,
               broken: bool, alpha: float, beta: float) -> float:
        """The value once seat ``p`` has played ``c`` to ``trick``."""
        broken = broken or SUIT[c] == HEARTS
        trick = (*trick, c)
        if len(trick) < 4:
            return self._search(hands, trick, leader, NEXT[p], broken, alpha, beta)
        led = SUIT[trick[0]]
        best = 0
        top = STRENGTH[trick[0]]
        for i in (1, 2, 3):
            d = trick[i]
            if SUIT[d] == led and STRENGTH[d] > top:
                top = STRENGTH[d]
                best = i
        w = leader
        for _ in range(best):
            w = NEXT[w]
        tc = self.tc
        scores = [0, 0, 0, 0]
        for d in trick:
            if tc.unit[d]:
                tc.capture(scores, d, w, leader, self.doubler[d])
        scores[w] -= tc.trick_penalty
        k = self.weights
        gain = k[0] * scores[0] + k[1] * scores[1] + k[2] * scores[2] + k[3] * scores[3]
        if not any(hands):
            return gain
        return gain + self._search(hands, (), w, w, broken, alpha - gain, beta - gain)

    def _moves(self, hand: int, trick: tuple[int, ...], broken: bool) -> list[int]:
        cards = [c for c in range(52) if hand >> c & 1]
        if trick:
            led = SUIT[trick[0]]
            follow = [c for c in cards if SUIT[c] == led]
            return follow or cards
        if self.hearts_rule and not (broken and self.hearts_rule == 1):
            others = [c for c in cards if SUIT[c] != HEARTS]
            if others:
                return others
        return cards

    def _search(self, hands: list[int], trick: tuple[int, ...], leader: int, p: int, broken: bool,
                alpha: float, beta: float) -> float:
        self.nodes += 1
        key = (*hands, trick, p, broken) if trick else (*hands, p, broken)
        hit = self.table.get(key)
        if hit is not None:
            flag, v = hit
            if flag == EXACT:
                return v
            if flag == LOWER and v >= beta:
                return v
            if flag == UPPER and v <= alpha:
                return v
        a0 = alpha
        maximise = self.maxer[p]
        best = -1e18 if maximise else 1e18
        for c in self._moves(hands[p], trick, broken):
            h2 = hands.copy()
            h2[p] &= ~(1 << c)
            v = self._after(h2, trick, leader, p, c, broken, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        if best <= a0:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        else:
            flag = EXACT
        self.table[key] = (flag, best)
        return best


__all__ = ["Endgame", "solvable"]
