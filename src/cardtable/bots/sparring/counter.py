"""A Trex sparring partner that decides from ``view.to_json()`` only (see the package docs)."""

from __future__ import annotations

import random
from typing import Any

from ...core.game import Action, PlayerView
from ..base import Budget, register_bot

RANKS = "23456789TJQKA"
SUITS = "CDHS"
PENALTY = {"KH": {"KH": 75}, "QN": {f"Q{s}": 25 for s in SUITS}, "DI": {f"{r}D": 10 for r in RANKS}}


def rank(card: str) -> int:
    """2 → 0 … A → 12."""
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


def penalties(contract: str) -> dict[str, int]:
    """The cards that cost points under a contract code (``CX`` = all four)."""
    out: dict[str, int] = {}
    codes = ("KH", "QN", "DI", "TK") if contract == "CX" else contract.split("+")
    for code in codes:
        for card, v in PENALTY.get(code, {}).items():
            out[card] = out.get(card, 0) + v
    return out


class SparringTrexBot:
    """A JSON-reading Trex player of one style, ``"counter"`` or ``"bold"``."""

    def __init__(self, style: str = "counter") -> None:
        if style not in ("counter", "bold"):
            raise ValueError(f"no sparring style {style!r}")
        self.style = style
        self.name = f"spar-{style}"
        self.deal: tuple[Any, ...] | None = None
        self.played: set[str] = set()
        self.void: list[set[str]] = [set(), set(), set(), set()]

    # ---------------------------------------------------------------- memory
    def _remember(self, v: dict[str, Any]) -> None:
        key = (v["deal_number"], v["tiebreak"], len(v["redeal_shown"]))
        if key != self.deal:
            self.deal = key
            self.played = set()
            self.void = [set(), set(), set(), set()]
        for trick in (v["last_trick"], v["trick"]):
            if trick:
                led = suit(trick[0][1])
                for seat, card in trick:
                    self.played.add(card)
                    if suit(card) != led:
                        self.void[seat].add(led)
        for cards in v["captured"]:
            self.played.update(cards)

    def _out(self, v: dict[str, Any]) -> set[str]:
        """Cards neither ours nor seen played: in the other hands."""
        mine = set(v["hand"])
        return {r + s for r in RANKS for s in SUITS} - mine - self.played

    # ----------------------------------------------------------------- acting
    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        v = view.to_json()
        self._remember(v)
        legal: list[str] = v["legal_actions"]
        if len(legal) == 1:
            choice = legal[0]
        elif v["phase"] == "redeal":
            choice = "redeal" if "redeal" in legal and self.style == "counter" else "keep"
        elif v["phase"] == "choose":
            choice = self._choose(v, legal)
        elif v["phase"] == "double":
            choice = self._double(v, legal)
        elif v["phase"] == "trex":
            choice = self._trex(v, legal)
        else:
            choice = self._trick(v, legal)
        for a in view.legal_actions:
            if str(a) == choice:
                return a
        raise ValueError(f"the sparring bot chose {choice!r}, not a legal action")

    def _choose(self, v: dict[str, Any], legal: list[str]) -> str:
        hand = v["hand"]
        by = {s: sorted(rank(c) for c in hand if suit(c) == s) for s in SUITS}
        high = sum(1 for c in hand if rank(c) >= 10)
        low = sum(1 for c in hand if rank(c) <= 4)
        short = sum(1 for s in SUITS if len(by[s]) <= 1)
        guard_k = "KH" not in hand or sum(1 for r in by["H"] if r < 8) >= 3
        queens = [s for s in SUITS if 10 in by[s]]
        guard_q = all(sum(1 for r in by[s] if r < 8) >= 3 for s in queens)
        jacks = sum(1 for s in SUITS if 9 in by[s])
        fit = {
            "contract TR": 2.0 * jacks + (1.5 if self.style == "bold" else 0.0) - 0.5 * short,
            "contract TK": low * 0.6 - high * 0.8 + short,
            "contract KH": (2.0 if guard_k else -3.0) + (1.0 if "AH" not in hand else -1.0),
            "contract QN": (2.0 if guard_q else -2.0 * len(queens)) - 0.3 * high,
            "contract DI": 3.0 - 0.6 * len(by["D"]) - 0.4 * sum(1 for r in by["D"] if r >= 8),
        }
        options = [a for a in legal if a.startswith("contract")]
        return max(options, key=lambda a: (fit.get(a, -1.0), a))

    def _double(self, v: dict[str, Any], legal: list[str]) -> str:
        hand = v["hand"]
        for a in legal:
            if not a.startswith("double"):
                continue
            card = a.split()[1]
            s = suit(card)
            small = sum(1 for c in hand if suit(c) == s and rank(c) < 7)
            tops = {c for c in hand if suit(c) == s and rank(c) > rank(card)}
            need = 2 if self.style == "bold" else 4 if card == "KH" else 3
            if small >= need and (self.style == "bold" or not tops):
                return a
        return "done"

    def _trick(self, v: dict[str, Any], legal: list[str]) -> str:
        cost = penalties(v["contract"] or "TK")
        doubled = {c for c, _ in v["doubled"]}
        out = self._out(v)

        def pen(c: str) -> int:
            return cost.get(c, 0) * (2 if c in doubled else 1)

        trick = v["trick"]
        if not trick:
            return self._lead(v, legal, pen, out)
        led = suit(trick[0][1])
        top = max(rank(c) for _, c in trick if suit(c) == led)
        follow = [c for c in legal if suit(c) == led]
        if not follow:  # discard: the costliest card, then the highest of the shortest suit
            length = {s: sum(1 for c in v["hand"] if suit(c) == s) for s in SUITS}
            return max(legal, key=lambda c: (pen(c), rank(c) - (0 if self.style == "bold" else length[suit(c)]), c))
        under = [c for c in follow if rank(c) < top]
        if under:
            return max(under, key=lambda c: (pen(c), rank(c)))
        last = len(trick) == 3
        higher_out = [c for c in out if suit(c) == led and rank(c) > min(rank(x) for x in follow)]
        if last or not higher_out or self.style == "bold":
            return max(follow, key=lambda c: (pen(c) == 0, rank(c)))
        return min(follow, key=lambda c: (pen(c) > 0, rank(c)))

    def _lead(self, v: dict[str, Any], legal: list[str], pen: Any, out: set[str]) -> str:
        seat = v["seat"]

        def key(c: str) -> tuple[float, str]:
            s = suit(c)
            above = sum(1 for d in out if suit(d) == s and rank(d) > rank(c))
            below = sum(1 for d in out if suit(d) == s and rank(d) < rank(c))
            voids = sum(1 for q in range(4) if q != seat and s in self.void[q])
            score = 2.0 * (above > 0) + 0.3 * above - 0.4 * below - 3.0 * (pen(c) > 0) - 0.5 * voids
            if self.style == "bold" and not any(pen(d) for d in out if suit(d) == s) and above == 0:
                score += 2.5  # cash a sure winner while the suit holds no penalty card
            return (score, c)

        return max(legal, key=key)

    def _trex(self, v: dict[str, Any], legal: list[str]) -> str:
        hand = set(v["hand"])

        def key(c: str) -> tuple[float, str]:
            s, r = suit(c), rank(c)
            mine = [rank(d) for d in hand if suit(d) == s]
            if r == 9:  # a jack
                return (len(mine) + (5 if self.style == "bold" else 0) - 2.0, c)
            step = 1 if r > 9 else -1
            nxt = r + step
            chain = 0
            while 0 <= nxt <= 12 and nxt in mine:
                chain += 1
                nxt += step
            beyond = sum(1 for x in mine if (x - r) * step > 0)
            return (2.0 * chain + beyond - (1.0 if chain == 0 and 0 <= r + step <= 12 else 0.0), c)

        return max(legal, key=key)


register_bot("trex", "spar-counter", lambda: SparringTrexBot("counter"),
             "sparring partner (not a level): a classic Trix card counter reading view.to_json()")
register_bot("trex", "spar-bold", lambda: SparringTrexBot("bold"),
             "sparring partner (not a level): an aggressive player reading view.to_json()")
