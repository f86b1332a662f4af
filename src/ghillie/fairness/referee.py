"""One fair ruling: request the roll, gather every party's element, rule, seal.

Both the library (:class:`ghillie.game.Game`) and the server's hub rule through here, so a
game played either way leaves the same kind of record.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from ghillie import clock, engine, registry
from ghillie.dice.source import DiceSource
from ghillie.events import Event
from ghillie.fairness.ledger import Ledger, Order, Request
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
    state: GameState[Any, Any], raw: engine.Given, side: str | None = ""
) -> dict[str, Any]:
    """The command as the event will record it (refuses a malformed one first); with
    ``side`` None, the host's own (``host.TimeOut``)."""
    return engine.given(state, side, raw)


def create(
    ledger: Ledger,
    scenario: Scenario,
    ids: IdSource,
    elements: Mapping[str, bytes] | None = None,
    dice: DiceSource | None = None,
    request: Request | None = None,
    *,
    sign: bool = True,
    without: Collection[str] = (),
) -> tuple[Event, GameState[Any, Any]]:
    request = request or ledger.request(None, scenario_payload(scenario), sign=False)
    # Creating a game is where its ruleset is looked up; from here on the state holds it.
    ruleset = registry.get(scenario.ruleset)
    empty = engine.empty(ruleset, scenario)
    ruled = _rule(
        ledger,
        request,
        elements,
        dice,
        ids,
        lambda d, i: engine.create(ruleset, scenario, d, i),
        without,
    )
    return seal(ledger, empty, request, ruled, sign=sign)


def apply(
    ledger: Ledger,
    state: GameState[Any, Any],
    side: str | None,
    raw: engine.Given,
    ids: IdSource,
    elements: Mapping[str, bytes] | None = None,
    dice: DiceSource | None = None,
    request: Request | None = None,
    now: str | None = None,
    *,
    order: Order | None = None,
    sign: bool = True,
) -> tuple[Event, GameState[Any, Any]]:
    """Rule on ``raw`` fairly (``side`` None: the host's time-out). ``request`` is the one
    the parties answered, if they were asked already (the server); otherwise it is made
    here and host-held chains answer. ``now`` is the time to rule at (ghillie.clock);
    by default the host's clock, read as the command is ruled on. ``order`` is the command
    as its side's seat key signed it, if it did."""
    request = request or ledger.request(side, command_payload(state, raw, side), sign=False)
    ruled = rule(ledger, state, side, raw, ids, request, elements, dice, now)
    return seal(ledger, state, request, ruled, order=order, sign=sign)


@dataclass(frozen=True)
class Ruled:
    """An event ruled on and not yet sealed, the state after it and the ids it drew."""

    event: Event
    after: GameState[Any, Any]
    ids: list[str]
    elements: Mapping[str, bytes]


def rule(
    ledger: Ledger,
    state: GameState[Any, Any],
    side: str | None,
    raw: engine.Given,
    ids: IdSource,
    request: Request,
    elements: Mapping[str, bytes] | None = None,
    dice: DiceSource | None = None,
    now: str | None = None,
    without: Collection[str] = (),
) -> Ruled:
    """The ruling alone, with the roll's dice and recorded ids: it only reads the ledger, so
    the server runs it off its event loop (a long ruling must not hold every other game).
    ``without``: the sides whose elements the roll is drawn without (their pages did not
    give them in time)."""
    at = now or clock.now()
    return _rule(
        ledger,
        request,
        elements,
        dice,
        ids,
        lambda d, i: engine.apply(state, side, raw, d, i, at),
        without,
    )


def _rule(
    ledger: Ledger,
    request: Request,
    elements: Mapping[str, bytes] | None,
    dice: DiceSource | None,
    ids: IdSource,
    rule_: Callable[[DiceSource, IdSource], tuple[Event, GameState[Any, Any]]],
    without: Collection[str] = (),
) -> Ruled:
    given = ledger.elements_for(request.k, elements, without)
    recording = RecordingIds(ids)
    event, after = rule_(dice or ledger.dice(request, given), recording)
    return Ruled(event, after, recording.drawn, given)


def seal(
    ledger: Ledger,
    before: GameState[Any, Any],
    request: Request,
    ruled: Ruled,
    *,
    order: Order | None = None,
    sign: bool = True,
) -> tuple[Event, GameState[Any, Any]]:
    """Seal a ruled event (``sign`` False: its head is signed later, ``Ledger.sign``)."""
    sealed = ledger.seal(before, ruled.event, request, ruled.elements, ruled.ids, order, sign=sign)
    return sealed, ruled.after


def trial(
    ledger: Ledger,
    state: GameState[Any, Any],
    side: str | None,
    raw: engine.Given,
    ids: IdSource,
    dice: DiceSource | None = None,
    now: str | None = None,
) -> tuple[Event, GameState[Any, Any]]:
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
