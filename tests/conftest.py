"""The one ``slow`` marker: a ``@pytest.mark.slow`` test (a soak test, minutes of work) runs only with
``CARDTABLE_SLOW=1``; ``make check`` and ``make test`` skip it. A test marked flaky that failed and
was run again prints why it failed at the end of the run, so a rerun that passed still shows its cause.

The property tests (Hypothesis) draw the same examples on every run by default (the ``ci`` profile:
derandomized, no example database), so a run on a clean clone tests exactly what the last run on
this machine tested. ``make fuzz`` runs them with fresh random draws (``CARDTABLE_HYPOTHESIS=explore``)
to look for new failing cases; a case it finds becomes an ``@example`` of its test. Neither profile
has a deadline or the health check of slow data generation: how long an example takes depends on
how loaded the machine is, not on the code."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", derandomize=True, database=None, print_blob=True, **UNTIMED)
settings.register_profile("explore", print_blob=True, **UNTIMED)
settings.load_profile(os.environ.get("CARDTABLE_HYPOTHESIS", "ci"))

RERUNS: list[tuple[str, str]] = []
"""The tests run again after a failure, with the failure's report, in the order they failed."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("CARDTABLE_SLOW"):
        return
    skip = pytest.mark.skip(reason="slow: run with CARDTABLE_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.outcome == "rerun":  # type: ignore[comparison-overlap]  (pytest-rerunfailures' outcome)
        RERUNS.append((report.nodeid, report.longreprtext))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for nodeid, text in RERUNS:
        terminalreporter.write_sep("-", f"failed, then run again: {nodeid}")
        terminalreporter.write_line(text[-8000:])
