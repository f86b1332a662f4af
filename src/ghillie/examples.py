"""The bundled example scenarios, one or more per ruleset.

>>> sorted(names())  # doctest: +NORMALIZE_WHITESPACE
['ambush-fields', 'ambush-fields-table', 'ambush-fire', 'ambush-fire-table', 'camouflage',
 'camouflage-table', 'grid-ambush', 'grid-ambush-table', 'suspicious-places',
 'suspicious-places-table']
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from ghillie.errors import ScenarioError
from ghillie.game import load_scenario
from ghillie.scenario import Scenario, read_scenario_file


def names() -> list[str]:
    folder = resources.files("ghillie") / "scenarios"
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )


def data(name: str) -> dict[str, Any]:
    """The example's raw data (a ruleset id names its main example)."""
    if name not in names():
        raise ScenarioError(f"no example scenario {name!r} (there are: {', '.join(names())})")
    with resources.as_file(resources.files("ghillie") / "scenarios" / f"{name}.toml") as path:
        return read_scenario_file(path)


def load(name: str) -> Scenario:
    return load_scenario(data(name))
