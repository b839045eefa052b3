"""The one ``slow`` marker: a ``@pytest.mark.slow`` test (a soak test, minutes of work) runs only with
``CARDTABLE_SLOW=1``; ``make check`` and ``make test`` skip it."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("CARDTABLE_SLOW"):
        return
    skip = pytest.mark.skip(reason="slow: run with CARDTABLE_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
