"""``@pytest.mark.slow`` tests of this folder run only with ``CARDTABLE_SLOW=1`` (``make test`` skips them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("CARDTABLE_SLOW"):
        return
    skip = pytest.mark.skip(reason="slow: run with CARDTABLE_SLOW=1")
    for item in items:
        if "slow" in item.keywords and HERE in Path(str(item.path)).parents:
            item.add_marker(skip)
