"""Arabic (and any right-to-left text) for terminals: reordering, joining, digits.

A terminal draws the characters of a line from left to right in the order it
gets them. Arabic is stored in reading order (logical order) and its letters
change shape with their neighbours, so a terminal that does no bidi of its own
shows it backwards and unjoined. :func:`visual` turns a line into the order and
the joined letter forms such a terminal must draw (python-bidi's Unicode
Bidirectional Algorithm, arabic-reshaper's contextual forms; both come with the
``ar`` extra: ``pip install 'cardtable[ar]'``).

``CARDTABLE_BIDI`` chooses who does the work:

* ``terminal``: the terminal reorders and joins by itself (mlterm, Konsole with
  its bidi rendering on, GNOME Terminal and other VTE >= 0.76 terminals); text
  is left as it is.
* ``app``: :func:`visual` reorders and joins; for every other terminal (xterm,
  the Linux console, tmux, Windows Terminal, iTerm2, Alacritty, kitty, …).
* ``off``: text is left as it is, whatever the terminal (logs, pipes, tests).
* unset or ``auto`` (the default): ``terminal`` when the environment names a
  terminal that does bidi (``MLTERM``, ``KONSOLE_VERSION``, ``VTE_VERSION`` of
  7600 or more), else ``app``.

Without python-bidi and arabic-reshaper, ``app`` falls back to a small built-in
reordering (the algorithm's implicit rules with bracket pairs and mirrored
brackets; no explicit embeddings or isolates): the words read in the right order, with their letters in
their unjoined forms.

>>> visual("abc", "app")
'abc'
>>> arabic_digits("المقعد 10")
'المقعد ١٠'
"""

from __future__ import annotations

import os
import re
import textwrap
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

MODES = ("terminal", "app", "off")
ENV = "CARDTABLE_BIDI"

_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
_MIRROR = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹", strict=True))
_MIRRORED = re.compile("[" + re.escape("".join(_MIRROR)) + "]")
_DIGITS = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")
T = TypeVar("T")


def arabic_digits(text: str) -> str:
    """``text`` with its ASCII digits as Arabic-Indic digits (٠١٢٣٤٥٦٧٨٩) and a
    decimal point between digits as the Arabic decimal separator (٫).

    >>> arabic_digits("0.25 of 1500")
    '٠٫٢٥ of ١٥٠٠'
    """
    return _DECIMAL.sub("\u066b", text).translate(_DIGITS)


def localized_digits(text: str, lang: str) -> str:
    """``text`` with the digits ``lang`` writes numbers in (Arabic-Indic for ``ar``)."""
    return arabic_digits(text) if lang == "ar" else text


def mode(environ: dict[str, str] | None = None) -> str:
    """The bidi mode in force: ``CARDTABLE_BIDI``, else the one the terminal calls for.

    >>> mode({"CARDTABLE_BIDI": "off"}), mode({"VTE_VERSION": "7600"}), mode({"TERM": "xterm"})
    ('off', 'terminal', 'app')
    """
    env = os.environ if environ is None else environ
    chosen = env.get(ENV, "auto").strip().lower() or "auto"
    if chosen in MODES:
        return chosen
    if chosen != "auto":
        raise ValueError(f"{ENV}={chosen!r}: expected one of {', '.join((*MODES, 'auto'))}")
    vte = env.get("VTE_VERSION", "")
    if "MLTERM" in env or "KONSOLE_VERSION" in env or (vte.isdigit() and int(vte) >= 7600):
        return "terminal"
    return "app"


def visual(text: str, how: str | None = None, rtl: bool | None = None) -> str:
    """``text`` as a terminal without bidi must draw it, line by line (see the module).

    ``how`` overrides ``CARDTABLE_BIDI``. ``rtl=True`` makes every line a right-to-left
    paragraph (the Arabic screens: a line that starts with a Latin name or a number
    still reads from the right); ``None`` takes each line's direction from its first
    letter. Text without right-to-left letters comes back unchanged, so every string
    of every language may go through here.
    """
    if not _RTL.search(text) or (how or mode()) != "app":
        return text
    return "\n".join(_visual_line(line, rtl) for line in text.split("\n"))


def visual_wrapped(text: str, width: int, how: str | None = None, rtl: bool | None = None) -> list[str]:
    """``text`` wrapped to ``width`` columns in reading order, then each line made
    visual; right-to-left lines are padded on the left so that they end at the
    right edge. Wrap first, reorder second: reordering a whole paragraph first
    would break its lines from the wrong end."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        for line in textwrap.wrap(paragraph, width) or [""]:
            shown = visual(line, how, rtl)
            right = shown != line and (base_level(line) if rtl is None else rtl)
            out.append(shown.rjust(width) if right else shown)
    return out


def visual_runs(runs: Sequence[tuple[str, T]], how: str | None = None,
                rtl: bool | None = None) -> list[tuple[str, T]]:
    """One line given as styled runs ``(text, style)``, as a terminal without bidi must draw it:
    the runs of :func:`visual`'s line, left to right, each piece with the style of the characters
    it came from (a run may come back in several pieces, and a piece is never shared by two runs).

    Each run is joined on its own, with its neighbours' letters as context, so a word split
    between two styles still joins across the split; the order is the whole line's. Card
    faces (``10♠``) and signed numbers (``-75``) stay left to right, as in :func:`visual`.

    >>> visual_runs([("abc", "bold"), (" d", None)], "app")
    [('abc', 'bold'), (' d', None)]
    """
    kept = [(text, style) for text, style in runs if text]
    line = "".join(text for text, _ in kept)
    if "\n" in line:
        raise ValueError("visual_runs draws one line: split the text at its line breaks first")
    if not _RTL.search(line) or (how or mode()) != "app":
        return kept
    out: list[tuple[str, T]] = []
    last = -1
    for ch, k in _order(_shape_runs(tuple(text for text, _ in kept)), rtl):
        if k == last:
            out[-1] = (out[-1][0] + ch, out[-1][1])
        else:
            out.append((ch, kept[k][1]))
            last = k
    return out


@lru_cache(maxsize=4096)
def _visual_line(line: str, rtl: bool | None = None) -> str:
    return "".join(ch for ch, _ in _order(_shape_runs((line,)), rtl))


_LETTER = re.compile("[\u0620-\u064a\u066e-\u06d3\u06fa-\u06ff]")
_LTR_UNIT = re.compile(r"(?:10|[2-9TJQKA])[♣♦♥♠]|(?<![0-9A-Za-z.])[+\-\u2212]\d+(?:\.\d+)?")
"""What is always drawn left to right, even among Arabic words: a card face (``10♠``; the
algorithm alone draws ``♠10`` there) and a number with its sign (``-75``, not ``75-``). In a
right-to-left line each is a unit of its own (LRM inside, RLM outside): ``10♠ (S1)`` is drawn
``(S1) 10♠``, the card first from the right, not as one left-to-right phrase."""
_LRM, _RLM = "\u200e", "\u200f"


@lru_cache(maxsize=4096)
def _shape_runs(texts: tuple[str, ...]) -> tuple[str, ...]:
    """Each run's letters in their joined forms (arabic-reshaper; unchanged without it). A run
    is shaped with the letters on either side of it when a word goes on across the border."""
    if _reshape is None:
        return texts
    out = []
    for k, text in enumerate(texts):
        alone = _reshape(text)
        before = texts[k - 1][-1] if k and _LETTER.match(texts[k - 1][-1]) and _LETTER.match(text[0]) else ""
        after = texts[k + 1][0] if k + 1 < len(texts) and _LETTER.match(texts[k + 1][0]) \
            and _LETTER.match(text[-1]) else ""
        if before or after:
            context = _reshape(before + text + after)
            if len(context) == len(alone) + len(before) + len(after):  # no ligature across the border
                alone = context[len(before):len(context) - len(after)]
        out.append(alone)
    return tuple(out)


@lru_cache(maxsize=4096)
def _order(runs: tuple[str, ...], rtl: bool | None) -> tuple[tuple[str, int], ...]:
    """The characters of the shaped runs in visual order, each with the index of its run (rules
    P2-P3, X1-I2 and L1 by :func:`_levels`, L2 and L4 here; the bidi controls dropped)."""
    chars: list[str] = []
    owner: list[int] = []
    for k, text in enumerate(runs):
        for ch in text:
            chars.append(ch)
            owner.append(k)
    line = "".join(chars)
    base = base_level(line) if rtl is None else int(rtl)
    marked: list[str] = []
    marked_owner: list[int] = []
    pos = 0
    outer, inner = (_RLM + _LRM, _LRM + _RLM) if base else (_LRM, _LRM)
    for match in _LTR_UNIT.finditer(line):  # a left-to-right unit, on its own in a right-to-left line
        start, end = match.span()
        marked += [*chars[pos:start], *outer, *chars[start:end], *inner]
        marked_owner += [*owner[pos:start], *[owner[start]] * len(outer), *owner[start:end],
                         *[owner[end - 1]] * len(inner)]
        pos = end
    marked += chars[pos:]
    marked_owner += owner[pos:]
    text = "".join(marked)
    levels = _levels(text, base)
    return tuple((_MIRROR.get(text[i], text[i]) if levels[i] % 2 else text[i], marked_owner[i])
                 for i in _visual_indices(levels) if ord(text[i]) not in _CONTROLS)


# --- the ar extra, when installed ------------------------------------------------------

_reshape: Callable[[str], str] | None
_get_display: Callable[..., str] | None
try:
    import arabic_reshaper  # type: ignore[import-untyped]

    _reshape = arabic_reshaper.reshape
except ImportError:  # pragma: no cover - exercised by monkeypatching in the tests
    _reshape = None
try:
    import bidi as _python_bidi  # type: ignore[import-untyped]

    _get_display = _python_bidi.get_display
except ImportError:  # pragma: no cover
    _get_display = None

_LEVELS = re.compile(r"levels:\s*\[(.*?)\]\s*,\s*paragraphs", re.S)
_LEVEL = re.compile(r"Level\(\s*(\d+)")


def _levels(line: str, base: int) -> list[int]:
    """The resolved embedding level of each character of ``line`` in a paragraph of level
    ``base`` (rules X1-I2 and L1)."""
    levels = _library_levels(line, base) if _get_display else None
    if levels is None:
        levels = _simple_levels(line, base)
    for i in range(len(line) - 1, -1, -1):  # L1: trailing white space takes the paragraph's level
        if unicodedata.bidirectional(line[i]) not in ("WS", "S", "BN"):
            break
        levels[i] = base
    return levels


def _library_levels(line: str, base: int) -> list[int] | None:
    """Levels from python-bidi's algorithm (its debug report gives one level per UTF-8 byte)."""
    assert _get_display is not None
    found = _LEVELS.search(str(_get_display(line, base_dir="R" if base else "L", debug=True)))
    if not found:
        return None
    per_byte = [int(level) for level in _LEVEL.findall(found.group(1))]
    out, offset = [], 0
    for ch in line:
        if offset >= len(per_byte):
            return None
        out.append(per_byte[offset])
        offset += len(ch.encode("utf-8"))
    return out if offset == len(per_byte) else None


# --- the built-in fallback ---------------------------------------------------------------

_STRONG = {"L": 0, "R": 1, "AL": 1}


def base_level(line: str) -> int:
    """The paragraph level of ``line`` (rules P2 and P3): 1 if its first strong letter is
    right-to-left, else 0."""
    for ch in line:
        level = _STRONG.get(unicodedata.bidirectional(ch))
        if level is not None:
            return level
    return 0


def _simple_levels(line: str, base: int) -> list[int]:
    """Levels by the implicit rules of the Unicode Bidirectional Algorithm (W1-W7, N0-N2,
    I1-I2), without explicit embeddings and isolates: enough for catalog sentences."""
    sos = "R" if base else "L"
    types = [unicodedata.bidirectional(ch) or "L" for ch in line]
    types = ["BN" if t in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI") else t for t in types]
    last_strong = sos
    for i, t in enumerate(types):  # W1-W3
        if t == "NSM":
            t = types[i - 1] if i else sos
        if t == "EN" and last_strong == "AL":
            t = "AN"
        if t in _STRONG:
            last_strong = t
        types[i] = "R" if t == "AL" else t
    for i in range(1, len(types) - 1):  # W4
        if types[i] in ("ES", "CS") and types[i - 1] == types[i + 1] == "EN":
            types[i] = "EN"
        elif types[i] == "CS" and types[i - 1] == types[i + 1] == "AN":
            types[i] = "AN"
    for i, t in enumerate(types):  # W5
        if t == "ET":
            j = i
            while j < len(types) and types[j] == "ET":
                j += 1
            if (i and types[i - 1] == "EN") or (j < len(types) and types[j] == "EN"):
                types[i:j] = ["EN"] * (j - i)
    last_strong = sos
    for i, t in enumerate(types):  # W6, W7
        if t in ("ES", "ET", "CS"):
            types[i] = "ON"
        elif t == "EN" and last_strong == "L":
            types[i] = "L"
        if types[i] in ("L", "R"):
            last_strong = types[i]
    direction = ["L" if t == "L" else "R" if t in ("R", "EN", "AN") else None for t in types]
    _bracket_pairs(line, types, direction, sos)
    i = 0
    while i < len(types):  # N1, N2
        if direction[i] is not None:
            i += 1
            continue
        j = i
        while j < len(types) and direction[j] is None:
            j += 1
        before = direction[i - 1] if i else sos
        after = direction[j] if j < len(types) else sos
        fill = before if before == after else sos
        direction[i:j] = [fill] * (j - i)
        i = j
    levels = []
    for t, d in zip(types, direction, strict=True):  # I1, I2
        if t in ("EN", "AN"):
            levels.append(2)
        elif base == 0:
            levels.append(0 if d == "L" else 1)
        else:
            levels.append(2 if d == "L" else 1)
    return levels


_OPENING = {"(": ")", "[": "]", "{": "}"}


def _bracket_pairs(line: str, types: list[str], direction: list[str | None], sos: str) -> None:
    """Rule N0: a bracket pair takes the embedding direction if a letter of that direction
    is inside it, else the other direction if one is inside and also before it."""
    stack: list[int] = []
    pairs: list[tuple[int, int]] = []
    for i, ch in enumerate(line):  # BD16
        if types[i] != "ON":
            continue
        if ch in _OPENING:
            stack.append(i)
        elif ch in _OPENING.values():
            for depth in range(len(stack) - 1, -1, -1):
                if _OPENING[line[stack[depth]]] == ch:
                    pairs.append((stack[depth], i))
                    del stack[depth:]
                    break
    for start, end in sorted(pairs):
        inside = set(direction[start + 1 : end])
        if sos in inside:
            chosen = sos
        elif inside - {None}:
            before = next((d for d in reversed(direction[:start]) if d is not None), sos)
            chosen = before
        else:
            continue
        direction[start] = direction[end] = chosen


def _visual_indices(levels: list[int]) -> list[int]:
    """Rule L2: the positions of a line's characters in visual order, from their levels (every
    run at each level, down to the lowest odd one, reversed)."""
    order = list(range(len(levels)))
    if not levels:
        return order
    levels = list(levels)
    for level in range(max(levels), (min(levels) | 1) - 1, -1):
        i = 0
        while i < len(order):
            if levels[i] < level:
                i += 1
                continue
            j = i
            while j < len(order) and levels[j] >= level:
                j += 1
            order[i:j] = order[i:j][::-1]
            levels[i:j] = levels[i:j][::-1]
            i = j
    return order


def _reorder(line: str, levels: list[int]) -> str:
    """Rules L2 and L4: reverse every run at each level down to the lowest odd one, and
    mirror the brackets that end up right-to-left."""
    return "".join(_MIRROR.get(line[i], line[i]) if levels[i] % 2 else line[i] for i in _visual_indices(levels))
