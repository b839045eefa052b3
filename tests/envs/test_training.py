"""The training example trains (a few thousand MaskablePPO steps on the CPU) without one illegal action."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


def load_example():
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_trains_on_trash_and_never_takes_an_illegal_action(tmp_path):
    ex = load_example()
    model, curve, illegal = ex.train("trash", 1024, seed=1, eval_every=512, eval_games=5, out=tmp_path,
                                     log=io.StringIO(), n_steps=512)
    assert illegal == 0
    assert [c[0] for c in curve] == [0, 512, 1024]
    assert (tmp_path / "trash-curve.png").stat().st_size > 1000
    env = ex.make_env("trash", seed=2)
    obs, _ = env.reset(seed=2)
    for _ in range(200):
        mask = env.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=False)
        assert mask[int(action)], "a masked policy picks legal actions only"
        obs, _, term, trunc, _ = env.step(int(action))
        if term or trunc:
            obs, _ = env.reset()
    assert env.illegal == 0


def test_wilson_interval_matches_the_textbook_values():
    ex = load_example()
    share, low, high = ex.wilson(60, 100)
    assert share == 0.6
    assert np.isclose(low, 0.502, atol=1e-3) and np.isclose(high, 0.691, atol=1e-3)
