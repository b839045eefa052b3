"""How far a Trex policy's cards are from a deep search's, decision by decision; and tuning its weights.

    python bench/trex_teacher.py record FILE [--games G] [--seed S] [--rate R] [--iterations N] [--workers K]
                                         [--kinds lead,follow,discard,layout]
    python bench/trex_teacher.py regret FILE... [--policy strong|card-sense] [--rollout]
    python bench/trex_teacher.py tune FILE... --weights NAME[,NAME] [--kinds lead,follow,discard,layout]

``record``: four ``hard`` play ``G`` whole games from deal seed ``S``. At a share ``R`` of the
decisions of ``--kinds`` with more than one class of equal cards (trick play and the Trex layout), the
*teacher* values every class from the seat's view and memory: PIMC over ``N`` iterations whose
rollouts play the strong policy at every seat, valuing the deal by the seat's own score. One
JSON line per game is appended to ``FILE``: the seed, every action as its index among the legal
ones, and the positions with the teacher's values.

``regret``: every position is rebuilt by replaying the actions (in either build). The policy
chooses from what the seat knows (the voids its memory saw shown; ``--rollout``: the world's
true voids, as in a search's rollouts), and loses the teacher's best value minus the value of
its card's class. Printed per contract and kind (lead, follow, discard, layout): positions,
points lost a decision, and the share where the policy's card is the teacher's best.

``tune``: coordinate descent on the named weight tuples of :mod:`cardtable.bots.trex_strong`
(``LEAD_WEIGHTS``, ``DANGER_WEIGHTS``, ``TREX_WEIGHTS``) over the positions of ``--kinds``, each
weight in turn scaled or shifted while the regret on two thirds of the positions falls; the
other third's regret is printed before and after. The pure build only (the compiled one binds
the weights when it is built). The teacher's values assume the strong policy plays the rest of
the deal, so a lower regret is a hint: ``bench/trex_duel.py`` tells whether the tuned policy
plays better.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cardtable
from cardtable.bots import make_bot, trex_strong
from cardtable.bots.trex_expert import policy as card_sense
from cardtable.bots.trex_pimc import PimcTrexBot, interchangeable
from cardtable.bots.worlds import TrexMemory
from cardtable.core import COMPILED
from cardtable.games.trex.actions import DI, KH, QN, TK, TR, contract_code
from cardtable.games.trex.state import SUIT, Phase
from cardtable.host.match import Match

ORDER = [contract_code(m) for m in (KH, QN, DI, TK, TR)]
"""The contracts in the order the tables list them."""
Position = tuple[Any, list[set[int]], dict[str, Any]]
"""A rebuilt position: the state, the voids the seat to move has seen shown, the record."""


def record_game(args: tuple[int, float, int, frozenset[str]]) -> dict[str, Any]:
    """One game of four ``hard``: its actions, and the teacher's values at the sampled decisions."""
    seed, rate, iterations, kinds = args
    game = cardtable.load("trex")
    match = Match(game, seed=seed, bots={q: make_bot("trex", "hard") for q in range(4)}, bot_seed=seed)
    teachers = []
    for _ in range(4):
        teacher = PimcTrexBot(trex_strong.strong_policy, iterations=iterations, game=game)
        teacher.for_the_win = False
        teachers.append(teacher)
    pick = random.Random(seed)
    actions: list[int] = []
    positions: list[dict[str, Any]] = []
    while not match.is_over:
        st: Any = match.state
        seat = match.to_move()
        view = st.view(seat)
        teachers[seat].observe(view)  # the teacher's memory follows every view of its seat
        legal = st.legal_actions()
        if (st.phase in (Phase.TRICK, Phase.TREX) and len(legal) > 1 and kind_of(st) in kinds
                and pick.random() < rate):
            teacher = teachers[seat]
            teacher.act(view, random.Random(seed * 1_000_003 + len(actions)))
            race = teacher.last_race
            if race is not None and len(race.actions) > 1 and teacher.last_worlds:
                positions.append({"ply": len(actions), "cards": [a.arg for a in race.actions],  # type: ignore[attr-defined]
                                  "values": [round(race.mean(i), 3) for i in range(len(race.actions))]})
        action = match.run_bot()
        actions.append(legal.index(action))
    return {"seed": seed, "iterations": iterations, "actions": actions, "positions": positions}


def kind_of(st: Any) -> str:
    if st.phase is Phase.TREX:
        return "layout"
    if not st.trick:
        return "lead"
    led = SUIT[st.trick[0]]
    return "follow" if any(SUIT[a.arg] == led for a in st.legal_actions()) else "discard"


def rebuild(files: list[str]) -> Iterator[Position]:
    """Every recorded position, by replaying its game's actions; the seat's memory sees each of
    its views, as a bot's does."""
    game = cardtable.load("trex")
    for name in files:
        with open(name) as f:
            for line in f:
                rec = json.loads(line)
                wanted = {p["ply"]: p for p in rec["positions"]}
                st: Any = game.new_state(seed=rec["seed"])
                memories = [TrexMemory() for _ in range(4)]
                for ply, index in enumerate(rec["actions"]):
                    if not wanted:
                        break
                    seat = st.to_move
                    memories[seat].observe(st.view(seat))
                    if ply in wanted:
                        yield st.clone(), [set(v) for v in memories[seat].cannot], wanted.pop(ply)
                    st.apply(st.legal_actions()[index])


def chosen(policy: str, rollout: bool, st: Any, voids: list[set[int]]) -> int:
    known = None if rollout else voids
    if policy == "card-sense":
        return int(card_sense(st, smart=True, voids=known).arg)
    return int(trex_strong.strong_policy(st, known).arg)


def loss(policy: str, rollout: bool, pos: Position) -> tuple[str, str, float, bool]:
    """The position's contract and kind, the points the policy's card loses, and whether it is best."""
    st, voids, rec = pos
    seat = st.to_move
    card = chosen(policy, rollout, st, voids)
    kind = kind_of(st)
    cards, values = rec["cards"], rec["values"]
    for i, c in enumerate(cards):
        if c == card or (kind != "layout" and interchangeable(st, seat, card, c)):
            best = max(values)
            return contract_code(st.contract), kind, best - values[i], values[i] == best
    raise AssertionError(f"card {card} is in no class of {cards}")


def mean_regret(positions: list[Position], policy: str = "strong", rollout: bool = False) -> float:
    return sum(loss(policy, rollout, p)[2] for p in positions) / max(len(positions), 1)


def regret(a: argparse.Namespace) -> int:
    rows: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0, 0])
    for pos in rebuild(a.files):
        contract, kind, lost, best = loss(a.policy, a.rollout, pos)
        for key in ((contract, kind), ("all", "all")):
            row = rows[key]
            row[0] += 1
            row[1] += lost
            row[2] += 1 if best else 0
    voids = "the world's voids" if a.rollout else "the voids it saw shown"
    print(f"{a.policy} policy ({voids}) against the teacher: points lost a decision")
    print("| contract | kind | positions | lost a decision | teacher's best |")
    print("|---|---|---|---|---|")
    kinds = ["lead", "follow", "discard", "layout", "all"]

    def place(key: tuple[str, str]) -> tuple[int, str, int]:
        contract, kind = key  # the five contracts, then one of another preset (CX), then "all"
        rank = ORDER.index(contract) if contract in ORDER else len(ORDER) + (contract == "all")
        return rank, contract, kinds.index(kind)

    for (contract, kind), (n, total, hits) in sorted(rows.items(), key=lambda kv: place(kv[0])):
        print(f"| {contract} | {kind} | {n:.0f} | {total / n:.2f} | {100 * hits / n:.0f}% |")
    return 0


def tune(a: argparse.Namespace) -> int:
    if COMPILED:
        print("tune needs the pure build: the compiled one binds the weights when it is built", file=sys.stderr)
        return 2
    kinds = set(a.kinds.split(","))
    positions = [p for p in rebuild(a.files) if kind_of(p[0]) in kinds]
    random.Random(a.seed).shuffle(positions)
    cut = len(positions) * 2 // 3
    train, held = positions[:cut], positions[cut:]
    names = a.weights.split(",")
    print(f"{len(train)} positions to tune on, {len(held)} held out; held-out regret before {mean_regret(held):.3f}")
    best = mean_regret(train)
    for _ in range(a.passes):
        improved = False
        for name in names:
            w = list(getattr(trex_strong, name))
            for i in range(len(w)):
                base = w[i]
                for value in sorted({base * f for f in (0.0, 0.25, 0.5, 0.75, 1.33, 2.0, 4.0)}
                                    | {base + d for d in (-4.0, -2.0, -1.0, 1.0, 2.0, 4.0)}):
                    w[i] = value
                    setattr(trex_strong, name, tuple(w))
                    v = mean_regret(train)
                    if v < best - 1e-3:
                        best, base, improved = v, value, True
                w[i] = base
                setattr(trex_strong, name, tuple(w))
        if not improved:
            break
    for name in names:
        print(f"{name} = {tuple(round(x, 3) for x in getattr(trex_strong, name))}")
    print(f"tuned regret {best:.3f}; held-out regret after {mean_regret(held):.3f}")
    return 0


def record(a: argparse.Namespace) -> int:
    kinds = frozenset(a.kinds.split(","))
    tasks = [(a.seed + g, a.rate, a.iterations, kinds) for g in range(a.games)]
    with ProcessPoolExecutor(a.workers) as pool, open(a.files[0], "a") as f:
        for rec in pool.map(record_game, tasks):
            f.write(json.dumps(rec) + "\n")
            f.flush()
            print(f"game {rec['seed']}: {len(rec['positions'])} positions", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("record", "regret", "tune"))
    ap.add_argument("files", nargs="+")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=0.2)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--policy", choices=("strong", "card-sense"), default="strong")
    ap.add_argument("--rollout", action="store_true")
    ap.add_argument("--weights", default="TREX_WEIGHTS")
    ap.add_argument("--kinds", default="lead,follow,discard,layout")
    ap.add_argument("--passes", type=int, default=3)
    a = ap.parse_args(argv)
    return {"record": record, "regret": regret, "tune": tune}[a.command](a)


if __name__ == "__main__":
    sys.exit(main())
