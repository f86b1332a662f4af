"""Shared test set-up: the ``spec`` marker makes ``pytest -k SW-R14`` find a rule's tests."""

from __future__ import annotations

import os
import sys
from collections import Counter, defaultdict
from typing import Any

import pytest
from hypothesis import settings

# No deadline on a generated example: how long one takes says how busy the machine is, not
# whether ghillie is right (timing assertions do not belong in tests).
settings.register_profile("ghillie", deadline=None)
settings.load_profile("ghillie")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="run the long statistical tests")


def pytest_configure(config: pytest.Config) -> None:
    _own_database(config)


def _own_database(config: pytest.Config) -> None:
    """Under pytest-xdist each worker gets a PostgreSQL database of its own (ghillie_test_gw0,
    …), made here if missing: the PostgreSQL tests drop and make tables, so two workers on
    one database would trip over each other. (xdist's ``loadgroup`` could keep them on one
    worker, but with pytest 9.2 it silently stops grouping: pytest-xdist issue 1386.) The
    servers the tests start inherit the variable."""
    worker = getattr(config, "workerinput", {}).get("workerid")
    url = os.environ.get("GHILLIE_TEST_POSTGRES")
    if not worker or not url:
        return
    import psycopg
    from sqlalchemy.engine import make_url

    given = make_url(url)
    own = f"{given.database}_{worker}"
    with psycopg.connect(url, autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (own,)).fetchone()
        if found is None:
            conn.execute(f'CREATE DATABASE "{own}"')
    os.environ["GHILLIE_TEST_POSTGRES"] = given.set(database=own).render_as_string(
        hide_password=False
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_slow = pytest.mark.skip(reason="long run: pass --run-slow")
    for item in items:
        for mark in item.iter_markers("spec"):
            for spec_id in mark.args:
                item.extra_keyword_matches.add(spec_id)
        if "slow" in item.keywords and not config.getoption("--run-slow"):
            item.add_marker(skip_slow)


# The modules that count what they checked (a ``STATS`` counter), reported at the end.
STATS_MODULES = (
    "tests.contract.harness",
    "tests.server.test_wire_leaks",
    "tests.server.test_durability",
    "tests.server.test_schemathesis",
    "tests.fairness.test_audit",
)
# What the workers counted, when the tests run on several (pytest-xdist).
GATHERED: dict[str, Counter[str]] = defaultdict(Counter)


def _counted() -> dict[str, Counter[str]]:
    found = {name: getattr(sys.modules.get(name), "STATS", None) for name in STATS_MODULES}
    return {name: stats for name, stats in found.items() if stats}


def pytest_sessionfinish(session: pytest.Session) -> None:
    output = getattr(session.config, "workeroutput", None)
    if output is not None:  # a worker: hand its counts to the controller
        output["stats"] = {name: dict(stats) for name, stats in _counted().items()}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    for name, stats in getattr(node, "workeroutput", {}).get("stats", {}).items():
        GATHERED[name].update(stats)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    for source in (_counted(), GATHERED):
        for name, stats in source.items():
            totals[name].update(stats)
    for name in STATS_MODULES:
        if totals.get(name):
            figures = ", ".join(f"{key}: {value}" for key, value in sorted(totals[name].items()))
            terminalreporter.write_line(f"{name.rsplit('.', 1)[-1]}: {figures}")
