"""Result files of a run, written in chunks so an interrupted run resumes.

A run directory holds ``run.json`` (the :class:`SimSpec`), the rows, and after
each invocation ``summary.json`` and a line in ``timings.jsonl``.

* **Parquet** (default, needs pyarrow): every finished chunk of matches is one
  file ``part-<first match>-<rows>-<n>.parquet``, written under a temporary name
  and renamed, so a part is either complete or absent. Together the parts are
  one Parquet dataset: ``pyarrow.dataset.dataset(run_dir, format="parquet",
  exclude_invalid_files=True)`` reads it (the option skips the JSON files beside it).
* **CSV**: one ``results.csv``; each chunk is appended and flushed. A line cut
  off by an interruption is dropped when the run is opened again.

List and dict values (per-seat numbers, hand logs) are stored as JSON text in
both formats; :meth:`ResultStore.rows` decodes them. Rows come back sorted by
match number, whatever order the chunks finished in.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError

FORMATS = ("parquet", "csv")
CSV_NAME = "results.csv"
SCHEMA_NAME = "schema.json"


def have_pyarrow() -> bool:
    try:
        _pyarrow()
    except ImportError:
        return False
    return True


def _pyarrow() -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet`` (imported here only: they have no type stubs)."""
    return importlib.import_module("pyarrow"), importlib.import_module("pyarrow.parquet")


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return "json"


class ResultStore:
    """The rows of one run directory in one format."""

    def __init__(self, run_dir: Path, fmt: str | None = None) -> None:
        self.dir = run_dir
        existing = self.existing_format(run_dir)
        if fmt is None:
            fmt = existing or ("parquet" if have_pyarrow() else "csv")
        if fmt not in FORMATS:
            raise ConfigError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
        if existing is not None and existing != fmt:
            raise ConfigError(f"{run_dir} already holds {existing} results; rerun with --format {existing}")
        if fmt == "parquet" and not have_pyarrow():
            raise ConfigError("Parquet output needs pyarrow: pip install 'cardtable[sim]' (or use --format csv)")
        self.format = fmt
        self.schema: dict[str, str] | None = None
        schema_file = run_dir / SCHEMA_NAME
        if schema_file.exists():
            self.schema = json.loads(schema_file.read_text())
        for stale in run_dir.glob(".part-*.tmp"):  # a chunk cut off by an interruption
            stale.unlink()
        self._parts = len(list(run_dir.glob("part-*.parquet")))
        if fmt == "csv":
            self._repair_csv()

    @staticmethod
    def existing_format(run_dir: Path) -> str | None:
        if any(run_dir.glob("part-*.parquet")):
            return "parquet"
        if (run_dir / CSV_NAME).exists():
            return "csv"
        return None

    # ------------------------------------------------------------ writing
    def append(self, rows: list[dict[str, Any]]) -> None:
        """Add one chunk of rows durably."""
        if not rows:
            return
        if self.schema is None:
            self.schema = {k: _kind(v) for k, v in rows[0].items()}
            tmp = self.dir / (SCHEMA_NAME + ".tmp")
            tmp.write_text(json.dumps(self.schema, indent=1))
            os.replace(tmp, self.dir / SCHEMA_NAME)
        encoded = [self._encode(r) for r in rows]
        if self.format == "parquet":
            self._append_parquet(encoded)
        else:
            self._append_csv(encoded)

    def _encode(self, row: dict[str, Any]) -> dict[str, Any]:
        assert self.schema is not None
        return {
            k: json.dumps(row[k], separators=(",", ":")) if kind == "json" else row[k]
            for k, kind in self.schema.items()
        }

    def _append_parquet(self, rows: list[dict[str, Any]]) -> None:
        pa, pq = _pyarrow()

        assert self.schema is not None
        types = {"bool": pa.bool_(), "int": pa.int64(), "float": pa.float64(), "str": pa.string(), "json": pa.string()}
        schema = pa.schema([(k, types[kind]) for k, kind in self.schema.items()])
        table = pa.Table.from_pylist(rows, schema=schema)
        first = min(r["match"] for r in rows)
        self._parts += 1
        name = f"part-{first:09d}-{len(rows):06d}-{self._parts:05d}.parquet"
        tmp = self.dir / f".{name}.tmp"
        pq.write_table(table, tmp)
        os.replace(tmp, self.dir / name)

    def _append_csv(self, rows: list[dict[str, Any]]) -> None:
        assert self.schema is not None
        path = self.dir / CSV_NAME
        new = not path.exists()
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=list(self.schema), lineterminator="\n")
        if new:
            writer.writeheader()
        writer.writerows(rows)
        with path.open("a", encoding="utf-8", newline="") as fh:
            fh.write(buf.getvalue())
            fh.flush()
            os.fsync(fh.fileno())

    def _repair_csv(self) -> None:
        """Drop a last line cut off by an interruption (no newline at its end)."""
        path = self.dir / CSV_NAME
        if not path.exists():
            return
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            with path.open("r+b") as fh:
                fh.truncate(keep)

    # ------------------------------------------------------------ reading
    def rows(self) -> list[dict[str, Any]]:
        """Every stored row, decoded, sorted by match number (duplicates dropped)."""
        if self.schema is None:
            return []
        raw = self._read_parquet() if self.format == "parquet" else self._read_csv()
        json_cols = [k for k, kind in self.schema.items() if kind == "json"]
        out: dict[int, dict[str, Any]] = {}
        for r in raw:
            for k in json_cols:
                r[k] = json.loads(r[k])
            out.setdefault(int(r["match"]), r)
        return [out[k] for k in sorted(out)]

    def done(self) -> set[int]:
        """The match numbers already stored."""
        if self.schema is None:
            return set()
        if self.format == "parquet":
            _, pq = _pyarrow()

            ids: set[int] = set()
            for part in sorted(self.dir.glob("part-*.parquet")):
                ids.update(pq.read_table(part, columns=["match"]).column("match").to_pylist())
            return ids
        return {int(r["match"]) for r in self._read_csv()}

    def _read_parquet(self) -> list[dict[str, Any]]:
        _, pq = _pyarrow()

        rows: list[dict[str, Any]] = []
        for part in sorted(self.dir.glob("part-*.parquet")):
            rows.extend(pq.read_table(part).to_pylist())
        return rows

    def _read_csv(self) -> list[dict[str, Any]]:
        assert self.schema is not None
        path = self.dir / CSV_NAME
        if not path.exists():
            return []
        casts: dict[str, Callable[[str], Any]] = {
            "bool": lambda s: s == "True", "int": int, "float": float, "str": str, "json": str,
        }
        out = []
        with path.open(encoding="utf-8", newline="") as fh:
            for rec in csv.DictReader(fh):
                out.append({k: casts[kind](rec[k]) for k, kind in self.schema.items()})
        return out


def write_json(path: Path, data: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)


def append_jsonl(path: Path, records: Iterable[Any]) -> None:
    with path.open("a", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, sort_keys=True) + "\n")
