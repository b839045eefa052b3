"""Fit the learned model of how a Trex searcher chooses its card (cardtable.bots.trex_learned).

    python bench/trex_learned.py collect GAMES.jsonl [--games N] [--seed S] [--workers K]
                                 [--seconds T | --iterations N] [--focal BOT] [--other BOT]
    python bench/trex_learned.py fit GAMES.jsonl [GAMES.jsonl ...] [--bot BOT] [--ridge L]
                                 [--held-out F]

``collect`` plays ``N`` games of ``FOCAL`` (``expert``) against three ``OTHER`` (``spar-search``),
every bot at ``T`` seconds a decision (0.25; or ``N`` iterations), the focal seat rotating from game to game, and
appends each game's record and seating to ``GAMES.jsonl`` as it finishes (run it on the compiled
build: the budget is in seconds, as at a real table). Game ``i`` is dealt from seed ``S + i``.

``fit`` replays the games and, at every trick decision of a ``BOT`` seat (``spar-search``) with
more than one legal card in one of the four trick contracts, takes the features of each legal
card (:func:`cardtable.bots.trex_learned.features`, the voids as the seat saw them shown) and
the card played. For each contract and situation it fits a conditional logit (Newton's method,
a ridge penalty ``L`` on the weights, 0.5) and prints:

- on the last ``F`` (a quarter) of the games, fitted on the others: the mean log-likelihood of a
  decision and how often the likeliest card is the one played, for the learned model (its chance
  mixed with even odds as the reading mixes it), for the strong and card-sense policies read as
  the reading reads them (right with the rate they were right on the other games, else even
  odds among the other cards), and for even odds;
- the weights fitted on every game, as the ``WEIGHTS`` of ``cardtable/bots/trex_learned.py``.

The games the module's weights were fitted to are kept in ``bench/data/trex-searcher-games.jsonl.gz``
(20 games, seeds 5000 to 5019, played as ``collect`` plays them but with other bot seeds; their
budget was in seconds, so no run plays them again move for move): ``fit`` on that file prints the
module's ``WEIGHTS`` (``tests/test_bench_smoke.py`` checks it). Needs numpy (the ``rl`` extra, in
``dev``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

import cardtable
from cardtable.bots import Budget
from cardtable.bots.trex_expert import policy as card_sense_policy
from cardtable.bots.trex_infer import FLOOR
from cardtable.bots.trex_learned import FEATURES, KINDS, SITUATIONS, features, situation
from cardtable.bots.trex_strong import strong_policy
from cardtable.games.trex.state import SUIT, Phase
from cardtable.host.match import Match
from cardtable.records.record import Record, record_of
from trex_table import seated

CONTRACT_NAMES = ("King of Hearts", "Queens", "Diamonds", "Slaps")

Decision = tuple[int, int, int, Any, int, tuple[bool, bool]]
"""(game, contract row, situation, features of the legal cards, the index of the card played,
whether the strong and the card-sense policies named it)"""


def play(task: tuple[int, int, Budget, str, str]) -> dict[str, Any]:
    seed, rotation, budget, focal, other = task
    game = cardtable.load("trex")
    names = (focal, other, other, other)
    seats = [names[(s + rotation) % 4] for s in range(4)]
    match = Match(game, seed=seed, bots=seated(game, seats), bot_seed=seed, budgets={s: budget for s in range(4)})
    match.run_bots()
    return {"seats": seats, "record": record_of(match.state).to_json()}


def collect(a: argparse.Namespace) -> int:
    budget = Budget(iterations=a.iterations) if a.iterations else Budget(seconds=a.seconds)
    tasks = [(a.seed + i, i % 4, budget, a.focal, a.other) for i in range(a.games)]
    with ProcessPoolExecutor(a.workers) as pool, open(a.path, "a", encoding="utf-8") as out:
        for i, result in enumerate(pool.map(play, tasks), 1):
            out.write(json.dumps(result) + "\n")
            out.flush()
            print(f"{i}/{a.games} games", flush=True)
    return 0


def decisions(paths: list[str], bot: str) -> list[Decision]:
    """Every trick decision with a choice of a ``bot`` seat in the saved games."""
    out: list[Decision] = []
    number = 0
    for path in paths:
        with (gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8")) as f:
            for line in f:
                saved = json.loads(line)
                record = Record.from_json(saved["record"])
                seats = saved["seats"]
                st: Any = record.new_state()
                deal = -1
                voids: list[set[int]] = [set(), set(), set(), set()]
                for text in record.actions:
                    action = st.game.parse_action(text)
                    if st.deal_index != deal:
                        deal = st.deal_index
                        voids = [set(), set(), set(), set()]
                    if st.phase is Phase.TRICK:
                        p = st.to_move
                        legal = st.legal_actions()
                        if seats[p] == bot and len(legal) > 1 and st.contract in KINDS:
                            x = np.array(features(st, voids, legal))
                            chosen = [b.arg for b in legal].index(action.arg)
                            named = (strong_policy(st, voids).arg == action.arg,
                                     card_sense_policy(st, smart=True, voids=voids).arg == action.arg)
                            out.append((number, KINDS[st.contract], situation(st), x, chosen, named))
                        if st.trick and SUIT[action.arg] != SUIT[st.trick[0]]:
                            voids = [set(v) for v in voids]
                            voids[p].add(13 * SUIT[st.trick[0]])
                    st.play(action)
                number += 1
    return out


def fit(data: list[Decision], ridge: float) -> Any:
    """The conditional logit's weights for ``data`` (Newton's method on the penalized likelihood)."""
    w = np.zeros(len(FEATURES))
    if not data:
        return w
    for _ in range(50):
        grad = -2.0 * ridge * w
        hess = -2.0 * ridge * np.eye(len(w))
        for _g, _k, _s, x, i, _n in data:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            grad += x[i] - mean
            hess -= (x * p[:, None]).T @ x - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def fit_all(data: list[Decision], ridge: float) -> dict[tuple[int, int], Any]:
    return {(k, s): fit([d for d in data if d[1] == k and d[2] == s], ridge)
            for k in range(len(KINDS)) for s in range(len(SITUATIONS))}


def report(data: list[Decision], held_out: float, ridge: float) -> None:
    games = sorted({d[0] for d in data})
    cut = games[min(len(games) - 1, int(len(games) * (1.0 - held_out)))]
    train = [d for d in data if d[0] < cut]
    test = [d for d in data if d[0] >= cut]
    weights = fit_all(train, ridge)
    rows: list[tuple[str, float, float]] = []
    ll: list[float] = []
    top: list[float] = []
    for _g, k, s, x, i, _n in test:
        z = x @ weights[k, s]
        p = np.exp(z - z.max())
        p /= p.sum()
        ll.append(math.log((1.0 - FLOOR) * p[i] + FLOOR / len(p)))
        top.append(float(int(np.argmax(p)) == i))
    rows.append(("learned model", float(np.mean(ll)), float(np.mean(top))))
    for f, name in ((0, "strong policy"), (1, "card-sense policy")):
        eps = 1.0 - float(np.mean([d[5][f] for d in train]))
        ll, top = [], []
        for d in test:
            hit = d[5][f]
            ll.append(math.log(1.0 - eps) if hit else math.log(eps / (len(d[3]) - 1)))
            top.append(float(hit))
        rows.append((name, float(np.mean(ll)), float(np.mean(top))))
    rows.append(("even odds", float(np.mean([-math.log(len(d[3])) for d in test])),
                 float(np.mean([1.0 / len(d[3]) for d in test]))))
    print(f"fitted on {len(train)} decisions of {len(games) - len(set(d[0] for d in test))} games,"
          f" judged on {len(test)} of {len({d[0] for d in test})} others:")
    for name, mean_ll, hits in rows:
        print(f"  {name}: {mean_ll:.3f} log-likelihood a decision, likeliest card played {100 * hits:.1f}%")


def weights_text(weights: dict[tuple[int, int], Any]) -> str:
    lines = ["WEIGHTS: tuple[tuple[tuple[float, ...], ...], ...] = ("]
    for k, name in enumerate(CONTRACT_NAMES):
        lines.append(f"    (  # {name}: {', '.join(SITUATIONS)}")
        for s in range(len(SITUATIONS)):
            numbers = [f"{x:.3f}" for x in weights[k, s]]
            for i in range(0, len(numbers), 11):
                lines.append(("        (" if i == 0 else "         ") + ", ".join(numbers[i:i + 11])
                             + (")," if i + 11 >= len(numbers) else ","))
        lines.append("    ),")
    lines.append(")")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("collect", "fit"))
    ap.add_argument("paths", nargs="+", metavar="GAMES.jsonl")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=0.25)
    ap.add_argument("--iterations", type=int, help="collect: a fixed number of iterations a decision, not --seconds")
    ap.add_argument("--focal", default="expert")
    ap.add_argument("--other", default="spar-search")
    ap.add_argument("--bot", default="spar-search", help="fit: the player whose decisions are fitted")
    ap.add_argument("--ridge", type=float, default=0.5)
    ap.add_argument("--held-out", type=float, default=0.25)
    a = ap.parse_args(argv)
    if a.command == "collect":
        if len(a.paths) != 1:
            ap.error("collect writes one file")
        if a.games < 1 or a.workers < 1 or a.seconds <= 0 or (a.iterations is not None and a.iterations < 1):
            ap.error("--games, --workers and --iterations must be at least 1, --seconds above 0")
        a.path = a.paths[0]
        return collect(a)
    if a.ridge < 0 or not 0.0 < a.held_out < 1.0:
        ap.error("--ridge must be at least 0, --held-out between 0 and 1")
    data = decisions(a.paths, a.bot)
    if len({d[0] for d in data}) < 2:
        print(f"fewer than two games with decisions of {a.bot}", file=sys.stderr)
        return 1
    report(data, a.held_out, a.ridge)
    print(weights_text(fit_all(data, a.ridge)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
