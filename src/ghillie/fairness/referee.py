"""One fair ruling: request the roll, gather every party's element, rule, seal.

Both the library (:class:`ghillie.game.Game`) and the server's hub rule through here, so a
game played either way leaves the same kind of record.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from ghillie import clock, engine, registry
from ghillie.dice.source import DiceSource
from ghillie.events import Event
from ghillie.fairness.ledger import Ledger, Request
from ghillie.ids import IdSource
from ghillie.scenario import Scenario
from ghillie.state import GameState


class RecordingIds:
    """Hands out ids from ``source`` and remembers them, so that the audit can replay."""

    def __init__(self, source: IdSource) -> None:
        self._source = source
        self.drawn: list[str] = []

    def new_id(self) -> str:
        new = self._source.new_id()
        self.drawn.append(new)
        return new


class ReplayIds:
    """The ids an event drew, in order (for the audit's replay)."""

    def __init__(self, drawn: list[str]) -> None:
        self._drawn = list(drawn)

    def new_id(self) -> str:
        if not self._drawn:
            raise LookupError("the replay asked for more ids than the event drew")
        return self._drawn.pop(0)


def scenario_payload(scenario: Scenario) -> dict[str, Any]:
    return {
        "ruleset": scenario.ruleset,
        "scenario": scenario.model_dump(mode="json", by_alias=True),
    }


def command_payload(
    state: GameState[Any], raw: Mapping[str, Any], side: str | None = ""
) -> dict[str, Any]:
    """The command as the event will record it (refuses a malformed one first); with
    ``side`` None, the host's own (``engine.TimeOut``)."""
    return engine.given(state, side, raw) if side is None else _side_payload(state, raw)


def _side_payload(state: GameState[Any], raw: Mapping[str, Any]) -> dict[str, Any]:
    command = engine.parse_command(registry.get(state.ruleset), raw)
    return command.model_dump(mode="json")


def create(
    ledger: Ledger,
    scenario: Scenario,
    ids: IdSource,
    elements: Mapping[str, bytes] | None = None,
    dice: DiceSource | None = None,
    request: Request | None = None,
) -> tuple[Event, GameState[Any]]:
    request = request or ledger.request(None, scenario_payload(scenario), sign=False)
    empty = engine.replay(scenario, [])
    return _sealed(
        ledger, empty, request, elements, dice, ids, lambda d, i: engine.create(scenario, d, i)
    )


def apply(
    ledger: Ledger,
    state: GameState[Any],
    side: str | None,
    raw: Mapping[str, Any],
    ids: IdSource,
    elements: Mapping[str, bytes] | None = None,
    dice: DiceSource | None = None,
    request: Request | None = None,
    now: str | None = None,
) -> tuple[Event, GameState[Any]]:
    """Rule on ``raw`` fairly (``side`` None: the host's time-out). ``request`` is the one
    the parties answered, if they were asked already (the server); otherwise it is made
    here and host-held chains answer. ``now`` is the time to rule at (ghillie.clock);
    by default the host's clock, read as the command is ruled on."""
    request = request or ledger.request(side, command_payload(state, raw, side), sign=False)
    at = now or clock.now()
    return _sealed(
        ledger,
        state,
        request,
        elements,
        dice,
        ids,
        lambda d, i: engine.apply(state, side, raw, d, i, at),
    )


def _sealed(
    ledger: Ledger,
    before: GameState[Any],
    request: Request,
    elements: Mapping[str, bytes] | None,
    dice: DiceSource | None,
    ids: IdSource,
    rule: Callable[[DiceSource, IdSource], tuple[Event, GameState[Any]]],
) -> tuple[Event, GameState[Any]]:
    """Rule with the roll's dice and recorded ids, then seal the event."""
    given = ledger.elements_for(request.k, elements)
    recording = RecordingIds(ids)
    event, after = rule(dice or ledger.dice(request, given), recording)
    return ledger.seal(before, event, request, given, recording.drawn), after


def trial(
    ledger: Ledger,
    state: GameState[Any],
    side: str | None,
    raw: Mapping[str, Any],
    ids: IdSource,
    dice: DiceSource | None = None,
    now: str | None = None,
) -> tuple[Event, GameState[Any]]:
    """Rule on ``raw`` without sealing or keeping anything (tests, and the server's check
    that a command is accepted before it asks the parties for their elements)."""
    if dice is None:
        request = ledger.request(side, command_payload(state, raw, side), sign=False)
        dice = ledger.dice(request, ledger.elements_for(request.k, _placeholders(ledger)))
    else:
        dice = copy.deepcopy(dice)
    at = now or clock.now()
    event, after = engine.apply(state, side, raw, dice, copy.deepcopy(ids), at)
    ledger.check_room(state, event)  # refused now, before any page is asked for anything
    return event, after


def _placeholders(ledger: Ledger) -> dict[str, bytes]:
    # Parties whose elements are not in yet: the trial's dice differ from the real ones
    # then, which only matters to tests, where every chain is host-held.
    return {p: bytes(32) for p in ledger.parties if ledger.held(p, ledger.next_k) is None}
