"""ambush-fire is played here before it is in the registry (issue 14 lands it in steps):
these tests add it for their own run and take it out again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ghillie import registry
from ghillie.rules.ambush_fire.ruleset import AmbushFire


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    rulesets = registry.rulesets()
    added = "ambush-fire" not in rulesets
    if added:
        rulesets["ambush-fire"] = AmbushFire()
    yield
    if added:
        del rulesets["ambush-fire"]
