"""Every RULES-SPEC statement, DEFAULT and test case of the implemented rulesets has a test
that names it (``@pytest.mark.spec("SW-R14")``), so ``pytest -k SW-R14`` finds it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.registered import entry, ruleset_ids

TESTS = Path(__file__).parent


def _ids(prefix: str, kind: str, numbers: range) -> set[str]:
    return {f"{prefix}-{kind}{n:02d}" for n in numbers}


# RULES-SPEC §1 (BSG), §3 (SW), §4 (DWV) and §5 (INF): the ids the rulesets must cover.
REQUIRED = {
    "suspicious-places": _ids("SW", "R", range(1, 23))
    | _ids("SW", "R", range(30, 38))
    | _ids("SW", "A", range(1, 18))
    | _ids("SW", "T", range(1, 15)),
    "ambush-fields": _ids("BSG", "R", range(1, 31))
    | _ids("BSG", "A", range(1, 21))
    | _ids("BSG", "T", range(1, 15)),
    "grid-ambush": _ids("DWV", "R", range(1, 10))
    | _ids("DWV", "A", range(1, 15))
    | _ids("DWV", "T", range(1, 8)),
    "camouflage": _ids("INF", "R", range(1, 16))
    | _ids("INF", "A", range(1, 13))
    | _ids("INF", "T", range(1, 9)),
    "ambush-fire": _ids("BMF", "R", range(1, 20))
    | _ids("BMF", "A", range(1, 24))
    | _ids("BMF", "T", range(1, 9)),
    # A toy with no RULES-SPEC section (docs/rulesets.md): no ids to cover.
    "scout-search": set(),
}
_MARK = re.compile(r"mark\.spec\(([^)]*)\)")
_ID = re.compile(r"\"((?:SW|DWV|BSG|BMF|INF)-[RAT]\d\d)\"")


def _named_in_tests() -> set[str]:
    named: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        for args in _MARK.findall(path.read_text(encoding="utf-8")):
            named |= set(_ID.findall(args))
    return named


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_rules_spec_id_has_a_test(ruleset: str) -> None:
    required = entry(REQUIRED, ruleset, "REQUIRED (its RULES-SPEC ids, or an empty set)")
    missing = sorted(required - _named_in_tests())
    assert not missing, f"no test names {', '.join(missing)}"
