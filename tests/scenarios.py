"""Scenarios the tests share, made from the bundled examples."""

from __future__ import annotations

from typing import Any

from ghillie import examples


def no_ambushers() -> Any:
    """grid-ambush-table with no unit that may set up in ambush: both sides get ready at
    once (a side that may ambush writes its orders first, DWV-R04)."""
    scenario = examples.load("grid-ambush-table")
    units = tuple(u.model_copy(update={"ambush": False}) for u in scenario.units)
    return scenario.model_copy(update={"units": units})
