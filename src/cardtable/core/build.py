"""Which build of the engines runs: compiled by mypyc or pure Python (CONTRIBUTING.md, "Two builds").

``core`` and ``games`` are compiled from this same source when the package is
installed with a C compiler (setup.py); a compiled module's ``__file__`` is its
extension module (``.so``/``.pyd``) rather than its ``.py``.
"""

from __future__ import annotations

from typing import Final

COMPILED: Final = not __file__.endswith(".py")
"""True when this module, and so ``core`` and ``games``, were compiled by mypyc."""


def build_name() -> str:
    """``"compiled with mypyc"`` or ``"pure Python"``, as ``cardtable --version`` prints it.

    >>> build_name() in ("compiled with mypyc", "pure Python")
    True
    """
    return "compiled with mypyc" if COMPILED else "pure Python"
