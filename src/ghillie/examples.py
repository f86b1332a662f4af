"""The bundled example scenarios, one or more per ruleset, each in its ruleset's folder
(``rules/<pkg>/scenarios/<name>.toml``; a ruleset id names its main example).

>>> [n for n in sorted(names()) if n.startswith("grid-ambush")]
['grid-ambush', 'grid-ambush-table']
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from importlib import resources
from importlib.abc import Traversable
from typing import Any

from ghillie import registry
from ghillie.errors import Refusal, ScenarioError
from ghillie.events import Event
from ghillie.game import Game, load_scenario
from ghillie.scenario import Scenario, read_scenario_file


@functools.cache
def _files() -> dict[str, tuple[str, Traversable]]:
    """Every example's file, by name, with the ruleset whose folder holds it."""
    found: dict[str, tuple[str, Traversable]] = {}
    for ruleset in registry.rulesets().values():
        shelf = registry.folder(ruleset) / "scenarios"
        if not shelf.is_dir():
            continue
        for file in shelf.iterdir():
            name = file.name.removesuffix(".toml")
            if name == file.name:
                continue
            if name in found:
                # One name, one example: `ghillie new <name>` and the start page say it alone.
                raise ScenarioError(
                    f"example scenario {name!r} is in both {found[name][0]} and {ruleset.id}"
                )
            found[name] = (ruleset.id, file)
    return found


def names() -> list[str]:
    return sorted(_files())


def of(ruleset_id: str) -> list[str]:
    """The examples the ruleset ships in its folder."""
    return sorted(name for name, (owner, _) in _files().items() if owner == ruleset_id)


def file(name: str) -> Traversable:
    """The example's file as installed (a ruleset id names its main example)."""
    try:
        return _files()[name][1]
    except KeyError:
        raise ScenarioError(
            f"no example scenario {name!r} (there are: {', '.join(names())})"
        ) from None


def data(name: str) -> dict[str, Any]:
    """The example's raw data (a ruleset id names its main example)."""
    with resources.as_file(file(name)) as path:
        return read_scenario_file(path)


def load(name: str) -> Scenario:
    return load_scenario(data(name))


def random_events(game: Game, rng: random.Random, tries: int) -> Iterator[Event]:
    """Play ``game`` on with random commands the rules offer (``Ruleset.candidates``) for a
    side drawn at random, ``tries`` times: each event as it happens (a refused command is
    passed over). How the tests and benchmarks play a scenario through."""
    ruleset = game.state.ruleset
    for _ in range(tries):
        side = rng.choice(game.state.sides)
        options = ruleset.candidates(game.state, side)
        if not options:
            continue
        try:
            yield game.command(side, rng.choice(options))
        except Refusal:
            continue
