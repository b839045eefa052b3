"""Run a simulation: seeded matches in parallel, stored in chunks, resumable.

>>> import tempfile, pathlib
>>> spec = SimSpec.build("trash", None, {}, ["random"], seed=1)
>>> with tempfile.TemporaryDirectory() as d:
...     result = simulate(spec, 4, pathlib.Path(d), progress=False)
...     [r["match"] for r in result.rows]
[0, 1, 2, 3]
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..host.workers import MAX_WORKERS, end_with
from .metrics import metrics_for
from .progress import Progress
from .runner import run_chunk
from .spec import SimSpec
from .store import ResultStore, append_jsonl, read_json, write_json
from .summary import summarize

BACKENDS = ("local", "ray")
OnChunk = Callable[[list[dict[str, Any]], float], None]


@dataclass
class RunResult:
    """What :func:`simulate` did: the run's directory, its rows (the first
    ``games`` matches) and the speed of this invocation."""

    spec: SimSpec
    dir: Path
    rows: list[dict[str, Any]]
    played: int
    seconds: float
    workers: int
    backend: str
    cpu_seconds: float = 0.0
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Matches per second of wall time in this invocation (0 when nothing was played)."""
        return self.played / self.seconds if self.played and self.seconds > 0 else 0.0

    @property
    def cpu_rate(self) -> float:
        """Matches per CPU-second of the workers (what the machine's other load does not change)."""
        return self.played / self.cpu_seconds if self.played and self.cpu_seconds > 0 else 0.0


MAX_GAMES = 1_000_000
"""The most matches one run holds (its rows are read back and summarised in memory); a bigger
study is several runs under different seeds."""


def chunks(pending: Sequence[int], workers: int, size: int | None = None) -> list[list[int]]:
    """Split pending match numbers into chunks: small enough that an interruption
    loses little and every worker stays busy, big enough to amortise a task."""
    if size is None:
        size = max(10, min(500, len(pending) // max(1, workers * 8)))
    return [list(pending[i:i + size]) for i in range(0, len(pending), size)]


def check_game(spec: SimSpec) -> None:
    problem = metrics_for(spec.game).check(spec.load())
    if problem:
        raise ConfigError(problem)


def open_run(spec: SimSpec, out: Path) -> Path:
    """The run directory of ``spec`` under ``out``, created with its ``run.json``."""
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out}: not a directory")
    run_dir = out / spec.dirname
    run_dir.mkdir(parents=True, exist_ok=True)
    meta = run_dir / "run.json"
    if meta.exists():  # a damaged run.json is refused as it is, never written over
        try:
            SimSpec.from_json_file(meta)
        except ConfigError as exc:
            raise ConfigError(f"{exc}; repair it, or use another --out") from None
        if read_json(meta)["spec"] != spec.to_json():
            raise ConfigError(f"{run_dir} holds a different run; remove it or use another --out")
    else:
        write_json(meta, {"spec": spec.to_json(), "label": spec.label})
    return run_dir


def simulate(
    spec: SimSpec,
    games: int,
    out: Path,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    fmt: str | None = None,
    chunk_size: int | None = None,
    progress: bool | Progress = True,
    limit: int | None = None,
) -> RunResult:
    """Play matches ``0 … games-1`` of ``spec`` that are not yet stored under ``out``.

    ``limit`` stops after that many new matches have been stored (a test's
    "interruption"). Returns the run's first ``games`` rows and this
    invocation's speed; writes ``summary.json`` and a line in ``timings.jsonl``.
    """
    if not 1 <= games <= MAX_GAMES:
        raise ConfigError(f"--games must be from 1 to {MAX_GAMES:,}, not {games}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ConfigError(f"--workers must be from 1 to {MAX_WORKERS:,}, not {workers}")
    if backend not in BACKENDS:
        raise ConfigError(f"--backend must be local or ray, not {backend!r}")
    if address and backend != "ray":
        raise ConfigError("--address is for --backend ray")
    check_game(spec)
    run_dir = open_run(spec, out)
    store = ResultStore(run_dir, fmt)
    done = store.done()
    remaining = [m for m in range(games) if m not in done]
    pending = remaining if limit is None else remaining[:limit]
    bar: Progress | None = None
    if isinstance(progress, Progress):
        bar = progress
    elif progress:
        bar = Progress(games, games - len(remaining))
    played = 0

    cpu = 0.0

    def on_chunk(rows: list[dict[str, Any]], seconds: float) -> None:
        nonlocal played, cpu
        store.append(rows)
        played += len(rows)
        cpu += seconds
        if bar is not None:
            bar.update(len(rows))

    start = time.perf_counter()
    work = chunks(pending, workers, chunk_size)
    startup = 0.0
    try:
        if backend == "ray":
            startup = run_ray(spec, work, workers, address, on_chunk)
        else:
            run_local(spec, work, workers, on_chunk)
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
            bar = None
            print(f"interrupted: {played} new matches are stored in {run_dir}; "
                  "the same command resumes the run", file=sys.stderr)
        raise
    finally:
        seconds = time.perf_counter() - start - startup
        if bar is not None:
            bar.close()
        if played:
            append_jsonl(run_dir / "timings.jsonl", [{
                "matches": played, "seconds": seconds, "cpu_seconds": cpu, "startup": startup,
                "workers": workers, "backend": backend,
                "cpus": os.cpu_count(), "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }])
    rows = [r for r in store.rows() if r["match"] < games]
    result = RunResult(spec, run_dir, rows, played, seconds, workers, backend, cpu)
    result.summary = summarize(spec, rows)
    if result.rate:
        result.summary["matches_per_second"] = result.rate
    write_json(run_dir / "summary.json", result.summary)
    return result


def run_local(spec: SimSpec, work: list[list[int]], workers: int, on_chunk: OnChunk) -> None:
    """Chunks in this process (one worker) or in a pool of processes."""
    spec_json = spec.to_json()
    if workers == 1:
        for matches in work:
            on_chunk(*run_chunk(spec_json, matches))
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_worker_init,
                             initargs=(os.getpid(),)) as pool:
        todo = iter(work)
        running: set[Future[tuple[list[dict[str, Any]], float]]] = set()
        try:
            for matches in _take(todo, workers * 2):
                running.add(pool.submit(run_chunk, spec_json, matches))
            while running:
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for fut in finished:
                    on_chunk(*fut.result())
                    for matches in _take(todo, 1):
                        running.add(pool.submit(run_chunk, spec_json, matches))
        except KeyboardInterrupt:
            # keep the chunks the workers are finishing: less to redo on resume
            pool.shutdown(wait=True, cancel_futures=True)
            for fut in running:
                if fut.done() and not fut.cancelled() and fut.exception() is None:
                    on_chunk(*fut.result())
            raise
        except BaseException:
            for fut in running:
                fut.cancel()
            raise


def _context() -> multiprocessing.context.BaseContext:
    """Fresh workers from a fork server where there is one (safe when the parent
    has threads, e.g. after Ray ran in it), else spawned ones."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["cardtable.sim.runner"])  # import the engines once, in the server
        return ctx
    return multiprocessing.get_context("spawn")


def _worker_init(parent: int) -> None:
    """Workers leave Ctrl-C to the parent, which stops them cleanly, and end with the parent
    however it ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with(parent)


def _take(it: Iterator[list[int]], k: int) -> list[list[int]]:
    out = []
    for _ in range(k):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def run_ray(spec: SimSpec, work: list[list[int]], workers: int, address: str | None, on_chunk: OnChunk) -> float:
    """Chunks as Ray tasks: on a local Ray with ``workers`` CPUs, or on the
    cluster at ``address`` (every node needs cardtable installed). Returns the
    seconds spent starting or joining Ray (not counted in the speed)."""
    try:
        import ray
    except ImportError:
        raise ConfigError("--backend ray needs Ray: pip install 'cardtable[ray]'") from None
    started = False
    t0 = time.perf_counter()
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
        if address:
            kwargs["address"] = address
        else:
            kwargs["num_cpus"] = workers
        try:
            ray.init(**kwargs)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ConfigError(f"cannot start or reach Ray{' at ' + address if address else ''}: {exc}") from None
        started = True
    startup = time.perf_counter() - t0
    try:
        task = ray.remote(num_cpus=1)(run_chunk)
        spec_json = spec.to_json()
        todo = iter(work)
        cpus = workers if not address else int(ray.cluster_resources().get("CPU", 2))  # type: ignore[no-untyped-call]
        limit = max(2, cpus * 2)
        running = [task.remote(spec_json, m) for m in _take(todo, limit)]
        while running:
            finished, running = ray.wait(running, num_returns=1)
            on_chunk(*ray.get(finished[0]))
            running.extend(task.remote(spec_json, m) for m in _take(todo, 1))
    finally:
        if started:
            ray.shutdown()
    return startup
