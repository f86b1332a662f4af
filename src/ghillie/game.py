"""A game: its scenario, its log in a store, and the state folded from that log.

>>> from ghillie import Game, examples
>>> game = Game.create(examples.load("grid-ambush"), seed=1)
>>> game.view("jungle")["phase"]
'setup'
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ghillie import engine, host, registry
from ghillie.dice.source import DiceSource
from ghillie.events import Event
from ghillie.fairness import referee
from ghillie.fairness.capacity import check_capacity, fixed_secrets, roster_size
from ghillie.fairness.ledger import VERSION, Ledger, Secrets, protocol_of, seeded_bytes
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
    scenario = parse_scenario(ruleset.scenario_model, data)
    check_capacity(scenario)
    return scenario


class Game:
    """A game played through the library: every party's roll chain is held here ("host-held",
    see :mod:`ghillie.fairness.ledger`); the server lets each side's client hold its own."""

    def __init__(
        self,
        game_id: str,
        store: EventStore,
        scenario: Scenario,
        state: GameState[Any, Any],
        ledger: Ledger,
        ids: IdSource,
        dice: DiceSource | None = None,
    ) -> None:
        self.id = game_id
        self.store = store
        self.scenario = scenario
        self.state = state
        self.ledger = ledger
        self.ids = ids
        self.dice = dice  # only tests inject dice; the audit then refuses the record

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
        """Start a game. ``seed`` makes the secrets, dice and ids reproducible (tests,
        demos); ``dice`` replaces fair rolls with scripted ones (tests only)."""
        parsed = load_scenario(scenario)
        ids = ids or (SeededIds(seed) if seed is not None else RandomIds())
        random_bytes = seeded_bytes(seed) if seed is not None else secrets.token_bytes
        store = store or MemoryStore()
        game_id = game_id or ids.new_id()
        sides = parsed.side_ids()
        kept = Secrets.new(list(sides), random_bytes)
        ledger = Ledger(
            game_id,
            sides,
            kept,
            {},
            random_bytes,
            size=roster_size(parsed),
            fixed=fixed_secrets(parsed),
        )
        ledger.injected_dice = dice is not None
        first, state = referee.create(ledger, parsed, ids, dice=dice)
        header = {
            "ruleset": parsed.ruleset,
            "scenario": parsed.model_dump(mode="json", by_alias=True),
            "fair": ledger.header(),
        }
        store.create(game_id, header, first)
        return cls(game_id, store, parsed, state, ledger, ids, dice)

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
        events = store.events(game_id)
        state, ledger = restore(game_id, scenario, header, events)
        return cls(game_id, store, scenario, state, ledger, ids or RandomIds(), dice)

    def command(self, side: str, command: Mapping[str, Any], *, now: str | None = None) -> Event:
        """Give a command as ``side``. Raises Refusal (and changes nothing) if refused.
        ``now`` is the time it is ruled at (ghillie.clock; tests), by default the clock's."""
        return self._rule(side, command, now)

    def time_out(self, *, now: str | None = None) -> Event:
        """The host answers for every side the open reaction window still awaits, its time
        limit run out (``engine.time_out``). Raises Refusal ``window_closed`` if no window is
        open, ``time_not_up`` if its time is not up at ``now`` (by default, the clock's)."""
        window = self.state.window
        timeout = host.TimeOut(window=window.opened if window else 1)
        return self._rule(None, timeout.model_dump(mode="json"), now)

    def extend(self, since: str, *, now: str | None = None) -> Event:
        """The host was down from ``since`` until ``now`` while the open window ran: its end
        moves on by that time (``ghillie.host``). Refused like :meth:`time_out`'s."""
        window = self.state.window
        extend = host.Extend(window=window.opened if window else 1, since=since)
        return self._rule(None, extend.model_dump(mode="json"), now)

    def _rule(self, side: str | None, command: Mapping[str, Any], now: str | None) -> Event:
        event, state = referee.apply(
            self.ledger, self.state, side, command, self.ids, dice=self.dice, now=now
        )
        self.store.append(self.id, self.state.seq, [event])
        self.state = state
        return event

    def trial(self, side: str, command: Mapping[str, Any]) -> tuple[Event, GameState[Any, Any]]:
        """What ``command`` would do, with the very dice it would get, changing nothing."""
        return referee.trial(self.ledger, self.state, side, command, self.ids, self.dice)

    def record(self) -> dict[str, Any]:
        """The complete record, every secret in it (for the audit once the game is over)."""
        from ghillie.fairness.record import make_record

        return make_record(self.id, self.store.header(self.id), self.events())

    def events(self) -> list[Event]:
        return self.store.events(self.id)

    def view(self, observer: str, lang: str = "en") -> dict[str, Any]:
        from ghillie.view import view

        return view(self, observer, lang)


def restore(
    game_id: str, scenario: Scenario, header: Mapping[str, Any], events: list[Event]
) -> tuple[GameState[Any, Any], Ledger]:
    """The state and the host's ledger after a stored log. A log of another fairness
    protocol than this one's cannot go on (its record is still checked by the audit)."""
    if events and protocol_of(events[0]) != VERSION:
        raise ValueError(
            f"game {game_id} was started under fairness protocol {protocol_of(events[0])}, "
            f"which this ghillie (protocol {VERSION}) cannot go on with: audit its record"
        )
    ruleset = registry.get(scenario.ruleset)
    ledger = Ledger.from_header(
        game_id,
        scenario.side_ids(),
        header,
        events[0] if events else None,
        size=roster_size(scenario),
        fixed=fixed_secrets(scenario),
    )
    state = engine.empty(ruleset, scenario)
    for event in events:
        ledger.restore(state, event)
        state = engine.replay_one(state, event)
    return state, ledger
