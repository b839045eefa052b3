"""Result files of a run, written in chunks so an interrupted run resumes.

A run directory holds ``run.json`` (the :class:`SimSpec`), the rows, and after
each invocation ``summary.json`` and a line in ``timings.jsonl``.

* **Parquet** (default, needs pyarrow): every finished chunk of matches is one
  file ``part-<first match>-<rows>-<n>.parquet``, written under a temporary name
  and renamed, so a part is either complete or absent. Together the parts are
  one Parquet dataset: ``pyarrow.dataset.dataset(run_dir, format="parquet",
  exclude_invalid_files=True)`` reads it (the option skips the JSON files beside it).
* **CSV**: one ``results.csv``; each chunk is appended and flushed. A line cut
  off by an interruption is dropped when the run is opened again (ignored when
  it is only read, as ``cardtable report`` does).

A file that cannot be read (a damaged ``run.json``, a cut-off part, a line that
is not a row) is a :class:`ConfigError` naming the file and what is wrong with
it; nothing is deleted or rewritten to get past it.

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


def read_json(path: Path) -> Any:
    """The JSON in ``path``; a damaged file is a one-line :class:`ConfigError` naming it."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not valid JSON (not UTF-8 text)") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from None


class ResultStore:
    """The rows of one run directory in one format. ``writable=False`` only reads:
    nothing in the directory is changed (a cut-off last CSV line is skipped, not cut)."""

    def __init__(self, run_dir: Path, fmt: str | None = None, *, writable: bool = True) -> None:
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
            schema = read_json(schema_file)
            if not (isinstance(schema, dict) and "match" in schema
                    and all(isinstance(v, str) and v in _CASTS for v in schema.values())):
                raise ConfigError(f"{schema_file}: not the column list of a cardtable simulate run")
            self.schema = schema
        self._parts = len(list(run_dir.glob("part-*.parquet")))
        if writable:
            for stale in run_dir.glob(".part-*.tmp"):  # a chunk cut off by an interruption
                stale.unlink()
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
        new = not path.exists() or path.stat().st_size == 0
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
        for where, r in raw:
            for k in json_cols:
                try:
                    r[k] = json.loads(r[k])
                except (TypeError, json.JSONDecodeError):
                    raise ConfigError(f"{where}: column {k} is not valid JSON ({_short(r[k])})") from None
            out.setdefault(int(r["match"]), r)
        return [out[k] for k in sorted(out)]

    def done(self) -> set[int]:
        """The match numbers already stored."""
        if self.schema is None:
            return set()
        if self.format == "parquet":
            ids: set[int] = set()
            for part in sorted(self.dir.glob("part-*.parquet")):
                ids.update(r["match"] for r in self._read_part(part, ["match"]))
            return ids
        return {int(r["match"]) for _, r in self._read_csv()}

    def _read_part(self, part: Path, columns: list[str] | None = None) -> list[dict[str, Any]]:
        """One Parquet part's rows; a damaged part (cut off, not Parquet, other columns) is a
        :class:`ConfigError` naming it."""
        pa, pq = _pyarrow()
        assert self.schema is not None
        try:
            rows: list[dict[str, Any]] = pq.read_table(part, columns=columns or list(self.schema)).to_pylist()
        except (OSError, ValueError, pa.ArrowException) as exc:
            reason = str(exc).split(". ")[0].split(": ")[-1] if str(exc) else type(exc).__name__
            raise ConfigError(f"{part}: not a readable Parquet part of this run ({reason}); move it away "
                              "and rerun the simulation to play its matches again") from None
        if any(not isinstance(r["match"], int) for r in rows):
            raise ConfigError(f"{part}: a row without its match number")
        return rows

    def _read_parquet(self) -> list[tuple[str, dict[str, Any]]]:
        rows: list[tuple[str, dict[str, Any]]] = []
        for part in sorted(self.dir.glob("part-*.parquet")):
            rows.extend((str(part), r) for r in self._read_part(part))
        return rows

    def _read_csv(self) -> list[tuple[str, dict[str, Any]]]:
        """``(where, row)`` for every complete line; a line that is not a row of this run is a
        :class:`ConfigError` naming the file and the line."""
        assert self.schema is not None
        path = self.dir / CSV_NAME
        if not path.exists():
            return []
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start})") from None
        text = text[:text.rfind("\n") + 1]  # a line cut off by an interruption is not read
        out = []
        reader = csv.reader(io.StringIO(text, newline=""))
        try:
            header = next(reader, None)
            if header is None:  # the header itself was cut off: no rows yet
                return []
            if header != list(self.schema):
                raise ConfigError(f"{path}, line 1: not the header of this run's columns "
                                  f"({', '.join(self.schema)})")
            for fields in reader:
                where = f"{path}, line {reader.line_num}"
                if len(fields) != len(header):
                    raise ConfigError(f"{where}: {len(fields)} fields, not {len(header)} "
                                      f"({_short(','.join(fields))}); repair or remove the line")
                row = {}
                for (k, kind), value in zip(self.schema.items(), fields, strict=True):
                    try:
                        row[k] = _CASTS[kind](value)
                    except ValueError:
                        raise ConfigError(f"{where}: {k} {_short(value)!r} is not {_KIND_NAMES[kind]}; "
                                          "repair or remove the line") from None
                out.append((where, row))
        except csv.Error as exc:
            raise ConfigError(f"{path}, line {reader.line_num}: not CSV ({exc})") from None
        return out


def _bool(text: str) -> bool:
    if text not in ("True", "False"):
        raise ValueError(text)
    return text == "True"


_CASTS: dict[str, Callable[[str], Any]] = {"bool": _bool, "int": int, "float": float, "str": str, "json": str}
_KIND_NAMES = {"bool": "True or False", "int": "a whole number", "float": "a number", "str": "text", "json": "JSON"}


def _short(value: Any, width: int = 40) -> str:
    text = str(value)
    return text if len(text) <= width else text[:width - 1] + "…"


def write_json(path: Path, data: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)


def append_jsonl(path: Path, records: Iterable[Any]) -> None:
    with path.open("a", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, sort_keys=True) + "\n")
