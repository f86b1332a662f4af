"""The registered rulesets and what each ships in its folder, for the tests that run over
every one of them: a ruleset added to the registry is covered with no test edit.

Where a test needs data about a ruleset that it cannot derive (which RULES-SPEC ids it must
cover, which secret a covert change rewrites), :func:`entry` reads it from a table that
fails, naming what to add, for a registered ruleset missing from it: a ruleset is never
passed over in silence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

import pytest

from ghillie import examples, registry

T = TypeVar("T")


def ruleset_ids() -> list[str]:
    return sorted(registry.rulesets())


def map_examples() -> list[str]:
    """Every bundled example played on the ruleset's map (the others are at a real table)."""
    return [name for name in examples.names() if examples.data(name).get("mode") == "map"]


def entry(table: Mapping[str, T], ruleset: str, what: str) -> T:
    """``table[ruleset]``, or a failure saying that the registered ruleset needs an entry in
    ``what``."""
    if ruleset not in table:
        pytest.fail(f"{ruleset} is registered but {what} has no entry for it: add one", False)
    return table[ruleset]
