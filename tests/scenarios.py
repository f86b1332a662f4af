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


def timeless(view: Any) -> Any:
    """A view without the host's time as it sent it (``fairness.now``, in every status since
    issue 24): two fetches of one state compare equal."""
    if isinstance(view, dict):
        return {
            k: ({**v, "now": None} if k == "fairness" and isinstance(v, dict) else timeless(v))
            for k, v in view.items()
        }
    if isinstance(view, list):
        return [timeless(v) for v in view]
    return view
