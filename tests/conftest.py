"""Shared test set-up: the ``spec`` marker makes ``pytest -k SW-R14`` find a rule's tests."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="run the long statistical tests")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_slow = pytest.mark.skip(reason="long run: pass --run-slow")
    for item in items:
        for mark in item.iter_markers("spec"):
            for spec_id in mark.args:
                item.extra_keyword_matches.add(spec_id)
        if "slow" in item.keywords and not config.getoption("--run-slow"):
            item.add_marker(skip_slow)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    import sys

    for name in (
        "tests.contract.harness",
        "tests.server.test_wire_leaks",
        "tests.server.test_durability",
        "tests.server.test_schemathesis",
        "tests.fairness.test_audit",
    ):
        module = sys.modules.get(name)
        stats = getattr(module, "STATS", None)
        if stats:
            figures = ", ".join(f"{key}: {value}" for key, value in sorted(stats.items()))
            terminalreporter.write_line(f"{name.rsplit('.', 1)[-1]}: {figures}")
