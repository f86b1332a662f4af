"""The registered rulesets: an explicit list, no discovery magic.

A ruleset owns its folder (``ghillie/rules/<pkg>/``): besides its rules, its demo script
(``demo.py``) and its example scenarios (``scenarios/*.toml``). Whatever looks for those
asks :func:`folder`, so registering a ruleset here is all it takes for them to be found.
"""

from __future__ import annotations

import functools
import sys
from importlib import resources
from importlib.abc import Traversable
from typing import Any

from ghillie.errors import ScenarioError
from ghillie.ruleset import Ruleset
from ghillie.scenario import Scenario


@functools.cache
def rulesets() -> dict[str, Ruleset[Any, Any]]:
    # Imported here so that importing the core never pulls in every ruleset.
    from ghillie.rules.ambush_fields.ruleset import AmbushFields
    from ghillie.rules.ambush_fire.ruleset import AmbushFire
    from ghillie.rules.camouflage.ruleset import Camouflage
    from ghillie.rules.grid_ambush import GridAmbush
    from ghillie.rules.scout_search.ruleset import ScoutSearch
    from ghillie.rules.suspicious_places import SuspiciousPlaces

    registered: list[Ruleset[Any, Any]] = [
        GridAmbush(),
        SuspiciousPlaces(),
        AmbushFields(),
        Camouflage(),
        AmbushFire(),
        ScoutSearch(),
    ]
    return {r.id: r for r in registered}


def of(scenario: Scenario) -> Ruleset[Any, Any]:
    """The ruleset a scenario is played under: for the edges that load a game."""
    return get(scenario.ruleset)


def get(ruleset_id: str) -> Ruleset[Any, Any]:
    try:
        return rulesets()[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(rulesets()))
        raise ScenarioError(f"unknown ruleset {ruleset_id!r} (known: {known})") from None


def package(ruleset: Ruleset[Any, Any]) -> str:
    """The package of the ruleset's folder: the one whose module defines its class
    (``ghillie.rules.camouflage`` for a class in ``ghillie/rules/camouflage/ruleset.py``)."""
    module = sys.modules[type(ruleset).__module__]
    return module.__package__ or module.__name__


def folder(ruleset: Ruleset[Any, Any]) -> Traversable:
    """The ruleset's own folder, as installed (a wheel's files or the source tree)."""
    return resources.files(package(ruleset))
