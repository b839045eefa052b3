"""The Ray backend gives exactly the local backend's results for the same seeds."""

import json

import pytest

from cardtable.sim import simulate

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'cardtable[ray]')")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_results_equal_local_results(tmp_path, spec, local_ray):
    local = simulate(spec, 40, tmp_path / "local", workers=1, progress=False)
    remote = simulate(spec, 40, tmp_path / "ray", workers=2, backend="ray", chunk_size=6, progress=False)
    assert remote.played == 40
    assert [json.dumps(r, sort_keys=True) for r in remote.rows] == [json.dumps(r, sort_keys=True) for r in local.rows]


def test_ray_run_resumes(tmp_path, spec, local_ray):
    simulate(spec, 20, tmp_path, backend="ray", workers=2, progress=False)
    again = simulate(spec, 30, tmp_path, backend="ray", workers=2, progress=False)
    assert again.played == 10 and len(again.rows) == 30
