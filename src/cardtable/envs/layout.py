"""Tensor layouts: a named, documented list of fields with fixed sizes.

Every observation tensor of :mod:`cardtable.envs` is a flat ``float32`` vector
made of the fields of a :class:`Layout`, in order. ``docs/rl.md`` prints each
layout field by field (:meth:`Layout.markdown`), so the documentation is the
code's own table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    """``size`` cells named ``name`` starting at ``offset``; ``doc`` says what they hold."""

    name: str
    size: int
    doc: str
    offset: int = 0


class Layout:
    """An ordered set of fields; ``layout["hand"]`` is the field, ``layout.size`` the total length."""

    def __init__(self, fields: list[tuple[str, int, str]]) -> None:
        out: list[Field] = []
        offset = 0
        for name, size, doc in fields:
            out.append(Field(name, size, doc, offset))
            offset += size
        self.fields: tuple[Field, ...] = tuple(out)
        self._by_name = {f.name: f for f in out}
        self.size = offset

    def __getitem__(self, name: str) -> Field:
        return self._by_name[name]

    def offset(self, name: str) -> int:
        return self._by_name[name].offset

    def markdown(self) -> str:
        """The layout as a Markdown table (offset, size, field, meaning)."""
        rows = ["| offset | size | field | meaning |", "|---:|---:|---|---|"]
        rows += [f"| {f.offset} | {f.size} | `{f.name}` | {f.doc} |" for f in self.fields]
        rows.append(f"| | **{self.size}** | | total |")
        return "\n".join(rows)
