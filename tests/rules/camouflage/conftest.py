"""The camouflage ruleset is played here before it is in the registry (issue 13 lands it in
steps): these tests add it for their own run and take it out again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ghillie import registry
from ghillie.rules.camouflage.ruleset import Camouflage


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    rulesets = registry.rulesets()
    added = "camouflage" not in rulesets
    if added:
        rulesets["camouflage"] = Camouflage()
    yield
    if added:
        del rulesets["camouflage"]
