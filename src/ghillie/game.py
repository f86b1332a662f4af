"""A game: its scenario, its log in a store, and the state folded from that log.

>>> from ghillie import Game, examples
>>> game = Game.create(examples.load("grid-ambush"), seed=1)
>>> game.view("jungle")["phase"]
'setup'
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ghillie import engine, registry
from ghillie.dice.source import DiceSource, RandomDice, SeededDice
from ghillie.events import Event
from ghillie.ids import IdSource, RandomIds, SeededIds
from ghillie.scenario import Scenario, parse_scenario, read_scenario_file
from ghillie.state import GameState
from ghillie.store.base import EventStore
from ghillie.store.memory import MemoryStore


def load_scenario(source: Scenario | Mapping[str, Any] | str | Path) -> Scenario:
    """A scenario from a file, from plain data, or as given."""
    if isinstance(source, Scenario):
        return source
    data = read_scenario_file(source) if isinstance(source, str | Path) else source
    ruleset = registry.get(str(data.get("ruleset", "")))
    return parse_scenario(ruleset.scenario_model, data)


class Game:
    def __init__(
        self,
        game_id: str,
        store: EventStore,
        scenario: Scenario,
        state: GameState[Any],
        dice: DiceSource,
        ids: IdSource,
    ) -> None:
        self.id = game_id
        self.store = store
        self.scenario = scenario
        self.state = state
        self.dice = dice
        self.ids = ids

    @classmethod
    def create(
        cls,
        scenario: Scenario | Mapping[str, Any] | str | Path,
        *,
        store: EventStore | None = None,
        dice: DiceSource | None = None,
        ids: IdSource | None = None,
        seed: int | None = None,
        game_id: str | None = None,
    ) -> Game:
        """Start a game. ``seed`` makes dice and ids reproducible (tests, demos)."""
        parsed = load_scenario(scenario)
        dice = dice or (SeededDice(seed) if seed is not None else RandomDice())
        ids = ids or (SeededIds(seed) if seed is not None else RandomIds())
        store = store or MemoryStore()
        game_id = game_id or ids.new_id()
        first, state = engine.create(parsed, dice, ids)
        header = {
            "ruleset": parsed.ruleset,
            "scenario": parsed.model_dump(mode="json", by_alias=True),
        }
        store.create(game_id, header, first)
        return cls(game_id, store, parsed, state, dice, ids)

    @classmethod
    def load(
        cls,
        store: EventStore,
        game_id: str,
        *,
        dice: DiceSource | None = None,
        ids: IdSource | None = None,
    ) -> Game:
        """Rebuild a stored game by replaying its log."""
        header = store.header(game_id)
        scenario = load_scenario(header["scenario"])
        state = engine.replay(scenario, store.events(game_id))
        return cls(game_id, store, scenario, state, dice or RandomDice(), ids or RandomIds())

    def command(self, side: str, command: Mapping[str, Any]) -> Event:
        """Give a command as ``side``. Raises Refusal (and changes nothing) if refused."""
        event, state = engine.apply(self.state, side, command, self.dice, self.ids)
        self.store.append(self.id, self.state.seq, [event])
        self.state = state
        return event

    def events(self) -> list[Event]:
        return self.store.events(self.id)

    def view(self, observer: str) -> dict[str, Any]:
        from ghillie.view import view

        return view(self, observer)
