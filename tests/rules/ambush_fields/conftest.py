"""ambush-fields is not registered yet (issue 5): its game tests register it for themselves."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import registry
from ghillie.rules.ambush_fields.ruleset import AmbushFields


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    rulesets: dict[str, Any] = {**registry.rulesets(), "ambush-fields": AmbushFields()}
    monkeypatch.setattr(registry, "rulesets", lambda: rulesets)
