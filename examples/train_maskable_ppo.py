"""Train one seat with sb3-contrib's MaskablePPO on the CPU, then measure it in the arena.

    python examples/train_maskable_ppo.py trash --steps 300000 --out docs/rl
    python examples/train_maskable_ppo.py trex --steps 200000 --out docs/rl

``trash``: a 2-player Trash seat against ``random``, one hand per episode
(``max_hands=1``); the win rate is the share of hands won. ``trex``: a Trex seat
against three ``medium`` bots in a single-contract deal (Collections, "Slaps":
every bot, and the learning seat, announces TK when it holds the kingdom; the
episode is the first deal, paid trick by trick: ``per_trick_rewards``). Every ``--eval-every`` steps the
policy plays ``--eval-games`` games against the same bots; the curve is written
to ``<out>/<game>-curve.json`` and ``<out>/<game>-curve.png``. At the end the
policy is registered as the bot ``ppo`` and plays ``--final-deals`` duplicate
deals in the arena (every deal from every seat); the hands or deals it won are
reported with a 95% Wilson interval in ``<out>/<game>-final.json``.

The policy sees only what the seat's view shows (``cardtable.envs`` encodings);
illegal actions are impossible by construction (masks) and counted anyway.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import cardtable.envs  # noqa: F401  (registers cardtable/Trash-v0 and cardtable/Trex-v0)
from cardtable import stats
from cardtable.bots import make_bot, register_bot
from cardtable.bots.base import adapt
from cardtable.envs.gym import encoder_for

TREX_CONTRACT = "contract TK"


def wilson(wins: float, n: int) -> tuple[float, float, float]:
    """The share ``wins / n`` with its Wilson 95% interval (:func:`cardtable.stats.wilson`)."""
    return (wins / n if n else 0.0, *stats.wilson(wins, n))


class ForcedContract:
    """A bot that announces ``contract`` whenever it may, and otherwise plays as ``inner``."""

    def __init__(self, inner: Any, contract: str = TREX_CONTRACT) -> None:
        self.inner = adapt(inner)
        self.contract = contract
        self.name = f"{getattr(inner, 'name', 'bot')}+{contract.split()[-1]}"

    def act(self, view: Any, rng: random.Random, budget: Any = None) -> Any:
        for a in view.legal_actions:
            if str(a) == self.contract:
                return a
        return self.inner.act(view, rng, budget)


class Trainable(gymnasium.Wrapper):  # type: ignore[type-arg]
    """The flat observation for the policy network; the mask through ``action_masks()``.

    For Trex: the seat's own contract choice is made as the bots make it (TK), and the
    episode ends once the first deal is scored (a truncation: the game goes on without us).
    """

    def __init__(self, env: gymnasium.Env) -> None:  # type: ignore[type-arg]
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]
        self.trex = env.unwrapped.game.name == "trex"
        self.illegal = 0

    def _auto(self, obs: dict[str, np.ndarray], reward: float, term: bool, trunc: bool, info: dict[str, Any]):
        base = self.env.unwrapped
        while self.trex and not (term or trunc):
            view = base.session.view(base.seat)
            if view.deal_number > 1:
                return obs, reward, False, True, info
            forced = [a for a in view.legal_actions if str(a) == TREX_CONTRACT]
            if not forced:
                break
            obs, r, term, trunc, info = self.env.step(forced[0].index)
            reward += r
        return obs, reward, term, trunc, info

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        obs, _, _, _, info = self._auto(obs, 0.0, False, False, info)
        return obs["observation"], info

    def step(self, action: Any):
        if not self.env.unwrapped.action_masks()[int(action)]:
            self.illegal += 1
        obs, reward, term, trunc, info = self._auto(*self.env.step(action))
        return obs["observation"], reward, term, trunc, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def make_env(game: str, seed: int = 0) -> Trainable:
    if game == "trash":
        env = gymnasium.make("cardtable/Trash-v0", opponents="random", players=2, max_hands=1)
    else:
        bots = [ForcedContract(make_bot("trex", "medium")) for _ in range(3)]
        env = gymnasium.make("cardtable/Trex-v0", opponents=bots, per_trick_rewards=True, reward_scale=0.01)
    wrapped = Trainable(env.unwrapped)
    wrapped.reset(seed=seed)
    return wrapped


def won(game: str, info: dict[str, Any], reward: float) -> float:
    """Trash: the hand was won. Trex: the seat took the fewest tricks' penalty (a share of ties)."""
    if game == "trash":
        return float(info.get("winner", False))
    return reward


class PolicyBot:
    """A trained policy as a cardtable bot: it sees the seat's view, encodes it, masks, acts."""

    name = "ppo"

    def __init__(self, model: Any, game: Any) -> None:
        self.model = model
        self.encoder = encoder_for(game)
        self.game = game
        self.contract = ForcedContract(self) if game.name == "trex" else None

    def act(self, view: Any, rng: random.Random, budget: Any = None) -> Any:
        if self.game.name == "trex":
            for a in view.legal_actions:
                if str(a) == TREX_CONTRACT:
                    return a
        mask = np.zeros(self.game.num_distinct_actions, dtype=bool)
        mask[[a.index for a in view.legal_actions]] = True
        action, _ = self.model.predict(self.encoder.encode(view), action_masks=mask, deterministic=True)
        return self.game.action_from_index(int(action))


def evaluate(model: Any, game: str, games: int, seed: int) -> float:
    """The share of ``games`` episodes the policy wins against the training bots (Trex: deal
    score as reward, reported as the share of deals it took no more tricks than its average rival)."""
    env = make_env(game, seed)
    obs, _ = env.reset(seed=seed)
    done = 0
    score = 0.0
    while done < games:
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        obs, _, term, trunc, info = env.step(int(action))
        if term or trunc:
            if game == "trash":
                score += float(info.get("winner", False))
            else:
                score += _trex_share(env)
            done += 1
            obs, _ = env.reset()
    return score / games


def _trex_share(env: Trainable) -> float:
    """1 if the seat took fewer tricks than every rival in the deal, shared on ties, else 0."""
    base = env.env.unwrapped
    deltas = base.session.view(base.seat).deal_scores[0][4]
    mine = deltas[base.seat]
    best = max(deltas)
    if mine < best:
        return 0.0
    return 1.0 / sum(1 for d in deltas if d == best)


def train(game: str, steps: int, *, seed: int = 0, eval_every: int = 0, eval_games: int = 200,
          out: Path | None = None, log: Any = sys.stdout, n_steps: int = 1024,
          ) -> tuple[Any, list[tuple[int, float, float]], int]:
    """Train for ``steps``; return the model, the curve ``(steps, win share, seconds)`` and the
    number of illegal actions the policy tried (always 0 with masks)."""
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback  # noqa: F401  (import check)
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    env = make_env(game, seed)
    model = MaskablePPO(
        "MlpPolicy", env, seed=seed, device="cpu", n_steps=n_steps, batch_size=min(256, n_steps), learning_rate=3e-4,
        gamma=1.0 if game == "trex" else 0.995, ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]}, verbose=0,
    )
    curve: list[tuple[int, float, float]] = []
    start = time.process_time()

    class Curve(BaseCallback):  # type: ignore[misc]
        def _on_step(self) -> bool:
            if eval_every and self.num_timesteps % eval_every == 0:
                share = evaluate(model, game, eval_games, seed=10_000 + self.num_timesteps)
                curve.append((self.num_timesteps, share, time.process_time() - start))
                print(f"{game}: {self.num_timesteps} steps, win share {share:.3f}, "
                      f"{time.process_time() - start:.0f} CPU s", file=log, flush=True)
                if out is not None:
                    write_curve(out, game, curve)
                    model.save(out / f"{game}-model.zip")  # a checkpoint: --model evaluates it
            return True

    if eval_every:
        curve.append((0, evaluate(model, game, eval_games, seed=10_000), 0.0))
    model.learn(total_timesteps=steps, callback=Curve())
    return model, curve, env.illegal


def write_curve(out: Path, game: str, curve: list[tuple[int, float, float]]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{game}-curve.json").write_text(json.dumps(curve))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([c[0] for c in curve], [c[1] for c in curve], marker="o")
    ax.axhline(0.5 if game == "trash" else 0.25, color="grey", linestyle="--",
               label="an even share" if game == "trash" else "one in four")
    ax.set_xlabel("training steps")
    ax.set_ylabel("hands won" if game == "trash" else "deals with the smallest penalty")
    ax.set_title("MaskablePPO, Trash seat vs random" if game == "trash" else "MaskablePPO, Trex TK seat vs 3 medium")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / f"{game}-curve.png", dpi=100)
    plt.close(fig)


def final_arena(model: Any, game: str, deals: int, seed: int) -> dict[str, Any]:
    """The trained bot in the arena (duplicate deals, every seat rotation) against the training bots."""
    from cardtable.arena.run import run_arena
    from cardtable.core.registry import load

    if game == "trash":
        g = load("trash", players=2, max_hands=1)
        register_bot("trash", "ppo", lambda: PolicyBot(model, g))
        result = run_arena("trash", ["ppo", "random"], deals, options={"max_hands": 1}, seed=seed)
        seats = [(r, r.seats.index("ppo")) for r in result.results]
        wins = sum(1.0 / len(r.winners) for r, s in seats if s in r.winners)
    else:
        g = load("trex")
        register_bot("trex", "ppo", lambda: PolicyBot(model, g))
        register_bot("trex", "medium-tk", lambda: ForcedContract(make_bot("trex", "medium")))
        return {"note": "Trex is measured by evaluate() over single deals"}
    n = len(seats)
    share, low, high = wilson(wins, n)
    stats = {s.name: s.win_rate for s in result.stats}
    return {"game": game, "games": n, "deals": deals, "wins": wins, "win_share": share, "wilson95": [low, high],
            "arena_win_rate_by_deal": stats.get("ppo"), "seconds": result.seconds}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=["trash", "trex"])
    p.add_argument("--steps", type=int, default=200_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-every", type=int, default=20_480)
    p.add_argument("--eval-games", type=int, default=300)
    p.add_argument("--final-deals", type=int, default=1000)
    p.add_argument("--out", type=Path, default=Path("docs/rl"))
    p.add_argument("--model", type=Path, help="skip training: measure this saved model (a checkpoint)")
    a = p.parse_args(argv)
    if a.model is not None:
        from sb3_contrib import MaskablePPO

        model, illegal = MaskablePPO.load(a.model, device="cpu"), 0
        a.steps = int(model.num_timesteps)
    else:
        model, curve, illegal = train(a.game, a.steps, seed=a.seed, eval_every=a.eval_every,
                                      eval_games=a.eval_games, out=a.out)
        write_curve(a.out, a.game, curve)
    if a.game == "trash":
        final = final_arena(model, a.game, a.final_deals, seed=a.seed + 1)
    else:
        env_games = a.final_deals
        share = evaluate(model, a.game, env_games, seed=a.seed + 777)
        final = {"game": "trex", "deals": env_games, "win_share": share,
                 "wilson95": list(wilson(share * env_games, env_games)[1:])}
    final["illegal_actions_in_training"] = illegal
    final["train_steps"] = a.steps
    (a.out / f"{a.game}-final.json").write_text(json.dumps(final, indent=1))
    print(json.dumps(final, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
