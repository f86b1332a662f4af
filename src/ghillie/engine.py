"""The engine: one entry point for every command of every ruleset.

``apply`` checks, once and in this order, that the game is running, that the command is one
the ruleset declares and is well-formed, that it may be given in this phase, and that the
side may act now; then it calls the ruleset's ``validate`` and ``resolve`` hooks. The engine
is pure: the same state, command, dice and ids give the same event. Nothing is written
anywhere here; the caller stores the event.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from ghillie import clock, host, ranges
from ghillie.bounds import first_out_of_bounds
from ghillie.dice.source import DiceSource
from ghillie.dice.steps import NOT_A_DIE
from ghillie.errors import (
    AWAITING_REACTION,
    BAD_DIE,
    GAME_OVER,
    MALFORMED_COMMAND,
    NO_TYPED_DICE,
    NOT_NOW,
    NOT_YOUR_TURN,
    TIME_UP,
    UNKNOWN_COMMAND,
    UNKNOWN_SIDE,
    Refusal,
)
from ghillie.events import Event
from ghillie.fold import fold
from ghillie.ids import IdSource
from ghillie.ruleset import Command, Ruleset
from ghillie.ruling import Ruling
from ghillie.scenario import Scenario
from ghillie.state import GameState, Phase

# A command as it reaches the engine: raw data, or already parsed (``parse``).
Given = Mapping[str, Any] | Command | host.HostCommand


def create(
    ruleset: Ruleset[Any, Any], scenario: Scenario, dice: DiceSource, ids: IdSource
) -> tuple[Event, GameState[Any, Any]]:
    """The game's first event (seq 0) and the state after it."""
    start = empty(ruleset, scenario)
    ruling = Ruling(start, None, dice, ids)
    ruleset.setup(ruling, scenario)
    event = ruling.finish(0, None)
    return event, fold(start, event)


def parse_command(ruleset: Ruleset[Any, Any], raw: Mapping[str, Any]) -> Command:
    """Turn raw data into the ruleset's typed command, or refuse without echoing it."""
    kind = raw.get("type") if isinstance(raw, Mapping) else None
    model = ruleset.commands.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise Refusal(UNKNOWN_COMMAND, "This ruleset has no such command.")
    try:
        command = model.model_validate(raw)
    except ValidationError as exc:
        # Name the first field at fault (its path comes from the command's shape; the input
        # itself never reaches the refusal: hide_input_in_errors).
        found = exc.errors(include_input=False, include_url=False)
        # A die the game does not have gets the dice it has (the step dice, dice/steps.py).
        first = next((e for e in found if e["type"] == NOT_A_DIE), found[0])
        field = ".".join(str(part) for part in first["loc"]) or None
        if first["type"] == NOT_A_DIE:
            detail = "That is not a die in this game: use d4, d6, d8, d10 or d12."
            raise Refusal(BAD_DIE, detail, field=field) from None
        if first["type"] == "missing":
            raise Refusal(MALFORMED_COMMAND, "Fill in this field.", field=field) from None
        if first["type"] == "extra_forbidden":
            raise Refusal(
                MALFORMED_COMMAND, "This command has no such field.", field=field
            ) from None
        # A number past its field's range, or no number where one is asked: the range in words.
        ranged = ranges.refusal(ruleset, model, first["loc"])
        if ranged is not None:
            raise ranged from None
        raise Refusal(MALFORMED_COMMAND, "This value cannot be used here.", field=field) from None
    # Every accepted command is recorded, hashed and signed in canonical JSON (RFC 8785),
    # which holds no NaN or infinity and no lone surrogate, and every value in it is bounded
    # (ghillie.bounds): a model that forgot a bound is caught here, like any malformed value,
    # rather than failing later (a number scaled to infinity) or filling every view.
    bad = first_out_of_bounds(command.model_dump())
    if bad is not None:
        ranged = ranges.refusal(ruleset, model, bad.split(".")) if bad else None
        if ranged is not None:
            raise ranged
        raise Refusal(MALFORMED_COMMAND, "This value cannot be used here.", field=bad or None)
    return command


def given(state: GameState[Any, Any], side: str | None, raw: Given) -> dict[str, Any]:
    """The command as its event will record it (refuses a malformed one first): a side's,
    or with ``side`` None the host's."""
    if side is None:
        return host.parse(raw).model_dump(mode="json")
    return typed(state.ruleset, raw).model_dump(mode="json")


def parse(state: GameState[Any, Any], side: str | None, raw: Given) -> Command | host.HostCommand:
    """The command as a typed model, parsed once where it comes in and passed down as it is:
    a side's, or with ``side`` None the host's (refused if malformed, changing nothing)."""
    return host.parse(raw) if side is None else typed(state.ruleset, raw)


def typed(ruleset: Ruleset[Any, Any], raw: Given) -> Command:
    """``raw`` as the ruleset's typed command: parsed (and refused if malformed) unless it
    already is one of this ruleset's commands, parsed once where it came in."""
    if isinstance(raw, Command) and ruleset.commands.get(raw.type) is type(raw):
        return raw
    if isinstance(raw, Command | host.TimeOut | host.Extend):
        raise Refusal(UNKNOWN_COMMAND, "This ruleset has no such command.")
    return parse_command(ruleset, raw)


def apply(
    state: GameState[Any, Any],
    side: str | None,
    raw: Given,
    dice: DiceSource,
    ids: IdSource,
    now: str | None = None,
) -> tuple[Event, GameState[Any, Any]]:
    """Rule on one command. Returns the event and the new state, or raises Refusal.

    ``side`` None is the host's own command (:mod:`ghillie.host`). ``now`` is the host's time
    (:mod:`ghillie.clock`), for a ruling that reads it; a replay gives the event's ``at``."""
    if side is None:
        return host.apply(state, raw, dice, ids, now)
    ruleset = state.ruleset
    if side not in state.sides:
        raise Refusal(UNKNOWN_SIDE, "There is no such side in this game.")
    if state.phase is Phase.OVER:
        raise Refusal(GAME_OVER, "The game is over.")
    command = typed(ruleset, raw)
    if state.phase not in type(command).phases:
        raise Refusal(NOT_NOW, "That command cannot be given in this phase of the game.")
    check_may_act(state, side, type(command))
    timed = _timed_answer(state, ruleset, type(command), now)
    entered = command.entered_rolls()
    if entered and not state.scenario.takes_typed_dice:
        raise Refusal(NO_TYPED_DICE, "In this game ghillie rolls every die: type none in.")
    ruleset.validate(state, side, command)
    ruling = Ruling(state, side, dice, ids, entered, now=now)
    if timed:
        ruling.clock()  # a command given while a timed window is open records its time
    ruleset.resolve(ruling, command)
    given = command.model_dump(mode="json")
    if state.window is not None and _answers(ruleset, state, type(command)):
        closed = ruling.answer_window(side, given)
        if closed is not None:
            ruleset.close(ruling, closed)
    if ruling.state.phase is Phase.OVER and ruling.state.window is not None:
        ruling.close_window()  # a game that ends waits for nobody
    event = ruling.finish(state.seq + 1, given)
    return event, replace(ruling.state, seq=event.seq)


def _timed_answer(
    state: GameState[Any, Any], ruleset: Ruleset[Any, Any], command: type[Command], now: str | None
) -> bool:
    """Is a window with a time limit open? Then every command records the host's time (which
    the audit holds the host to), and its answer is refused ``time_up`` if it came after
    the window's end at the host's time ``now``: no answer taken late, none refused in time.
    (A record of before protocol 4 ruled its answers at no time: ``now`` None.)"""
    window = state.window
    if window is None or window.ends is None or now is None:
        return False
    if _answers(ruleset, state, command) and clock.parse(now) > clock.parse(window.ends):
        raise Refusal(
            TIME_UP,
            "The time to answer had run out when this answer reached the host: the host "
            "answers with the default.",
        )
    return True


def check_may_act(state: GameState[Any, Any], side: str, command: type[Command]) -> None:
    """Refuse a command ``side`` may not give now: while a reaction window waits, anything
    but its answer (``awaiting_reaction``); otherwise whatever the turn structure forbids."""
    if may_act(state, side, command):
        return
    if state.window is not None and not _answers(state.ruleset, state, command):
        raise Refusal(
            AWAITING_REACTION,
            "The game is waiting for a reaction to the order being given: that comes first.",
        )
    raise Refusal(NOT_YOUR_TURN, "Your side may not give that command now.")


def may_act(state: GameState[Any, Any], side: str, command: type[Command]) -> bool:
    """May ``side`` give a command of this type now? While a reaction window is open, the
    engine decides: only the side it awaits, and only with its answer (any-time orders
    stay open to everyone the ruleset lets give them). A window's answer is never given
    outside its window. Otherwise the ruleset's turn structure decides."""
    ruleset = state.ruleset
    window = state.window
    if window is not None:
        if _answers(ruleset, state, command):
            return side == window.awaiting
        if not command.anytime:
            return False
    elif command in _answer_types(ruleset):
        return False
    return ruleset.may_act(state, side, command)


@functools.cache
def _answer_types(ruleset: Ruleset[Any, Any]) -> frozenset[type[Command]]:
    """The commands that answer a reaction window (asked for by every view, for every
    command: a ruleset's reactions never change)."""
    return frozenset(ruleset.commands[r.answer] for r in ruleset.reactions.values())


def _answers(
    ruleset: Ruleset[Any, Any], state: GameState[Any, Any], command: type[Command]
) -> bool:
    """Is ``command`` the answer the open window takes?"""
    window = state.window
    return window is not None and ruleset.commands[ruleset.reactions[window.name].answer] is command


def allowed_commands(state: GameState[Any, Any], side: str) -> list[str]:
    """The command types ``side`` may give now (before looking at their arguments)."""
    if state.phase is Phase.OVER or side not in state.sides:
        return []
    key = ("allowed_commands", side)
    found: tuple[str, ...] | None = state.memo.get(key)
    if found is None:
        ruleset = state.ruleset
        found = state.memo[key] = tuple(
            name
            for name, model in ruleset.commands.items()
            if state.phase in model.phases and may_act(state, side, model)
        )
    return list(found)


def replay(
    ruleset: Ruleset[Any, Any], scenario: Scenario, events: Iterable[Event]
) -> GameState[Any, Any]:
    """Rebuild the state from the log: the fold of every event, from nothing."""
    state = empty(ruleset, scenario)
    for event in events:
        state = replay_one(state, event)
    return state


def replay_one(state: GameState[Any, Any], event: Event) -> GameState[Any, Any]:
    """The state after one more event of the log."""
    if event.seq != state.seq + 1:
        raise ValueError(f"event {event.seq} follows {state.seq}: the log has a gap")
    return fold(state, event)


def empty(ruleset: Ruleset[Any, Any], scenario: Scenario) -> GameState[Any, Any]:
    """The state of a game of ``scenario`` before its first event."""
    return GameState(
        ruleset=ruleset,
        scenario=scenario,
        sides=scenario.side_ids(),
        board=ruleset.new_board(scenario),
    )
