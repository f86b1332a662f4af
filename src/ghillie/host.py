"""The host's own commands, the only ones given in no side's name: the time-out of a timed
reaction window, and its extension after the host was down.

Each is recorded like a side's command (``Event.side`` None, its time in ``Event.at``), so
the audit rules on it again; each is refused unless the window it names is the one open and
its time says it may be given, so that a timer that fires late, twice, or in two processes
at once changes nothing.

Why an extension: a window's time is the asked side's time to think and answer. While the
host is down (killed, restarted, its machine asleep) nobody can answer, so the clock must
not run: the host, back up, moves the window's end on by the time it was down, measured
from its last sign of life while the window ran (``since``, the server's heartbeat) to its
ruling, and every side is told. The audit holds it to that claim (fairness/audit/time.py):
no event may have been ruled after ``since``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ghillie import clock
from ghillie.dice.source import DiceSource
from ghillie.errors import GAME_OVER, TIME_NOT_UP, UNKNOWN_COMMAND, WINDOW_CLOSED, Refusal
from ghillie.events import Event
from ghillie.ids import IdSource
from ghillie.ruling import Ruling
from ghillie.state import GameState, Phase, Window
from ghillie.words import N_, say

# What every side is told when a window is extended ({side}: the side it waits for).
EXTENDED = N_(
    "The host was down for {seconds} s: the time for {side} to answer ends {seconds} s later."
)


class TimeOut(BaseModel):
    """The time limit of the reaction window that event ``window`` opened has run out, and
    the host answers for every side still awaited with the reaction's default."""

    model_config = ConfigDict(extra="forbid", frozen=True, hide_input_in_errors=True)

    type: Literal["time_out"] = "time_out"
    window: int = Field(ge=1)


class Extend(BaseModel):
    """The host was down from ``since`` (its last sign of life while the window that event
    ``window`` opened ran) until it rules this: the window ends that much later."""

    model_config = ConfigDict(extra="forbid", frozen=True, hide_input_in_errors=True)

    type: Literal["extend"] = "extend"
    window: int = Field(ge=1)
    since: str = Field(max_length=40)


HostCommand = TimeOut | Extend
_HOST: TypeAdapter[HostCommand] = TypeAdapter(
    Annotated[TimeOut | Extend, Field(discriminator="type")]
)


def parse(raw: Any) -> HostCommand:
    if isinstance(raw, TimeOut | Extend):
        return raw  # parsed once already, where it came in
    try:
        command = _HOST.validate_python(raw)
        if isinstance(command, Extend):
            clock.parse(command.since)
    except (ValidationError, ValueError):
        raise Refusal(UNKNOWN_COMMAND, "The host gives no such command.") from None
    return command


def apply(
    state: GameState[Any, Any], raw: Any, dice: DiceSource, ids: IdSource, now: str | None
) -> tuple[Event, GameState[Any, Any]]:
    """Rule on a host command at the host's time ``now`` (ValueError if none is given)."""
    if state.phase is Phase.OVER:
        raise Refusal(GAME_OVER, "The game is over.")
    command = parse(raw)
    window = state.window
    if window is None or window.opened != command.window or window.awaiting is None:
        raise Refusal(WINDOW_CLOSED, "That reaction window is no longer open.")
    if now is None:
        raise ValueError("the host rules at its own time, and was given none")
    if isinstance(command, Extend):
        return _extend(state, window, command, dice, ids, now)
    return _time_out(state, window, command, dice, ids, now)


def _time_out(
    state: GameState[Any, Any],
    window: Window,
    command: TimeOut,
    dice: DiceSource,
    ids: IdSource,
    now: str,
) -> tuple[Event, GameState[Any, Any]]:
    """Every side the window still awaits is answered with the reaction's default and
    everyone is told, then the ruleset goes on as after any last answer (``Ruleset.close``).
    Refused ``time_not_up`` if the window's limit has not run out at ``now`` (or it has none)."""
    if window.ends is None or clock.parse(now) < clock.parse(window.ends):
        raise Refusal(TIME_NOT_UP, "That reaction window's time has not run out.")
    ruleset = state.ruleset
    reaction = ruleset.reactions[window.name]
    assert reaction.default is not None  # Ruling.open_window gives no limit without one
    model = ruleset.commands[reaction.answer]
    default = model.model_validate({**reaction.default, "type": reaction.answer})
    answer = default.model_dump(mode="json")
    ruling = Ruling(state, None, dice, ids, now=now, acting=window.by)
    ruling.clock()  # the record says when the time ran out
    closed = None
    while closed is None:
        late = ruling.state.window.awaiting if ruling.state.window else None
        assert late is not None
        ruling.tell_public({"text": say(reaction.timed_out, side=state.scenario.side_name(late))})
        closed = ruling.answer_window(late, answer)
    ruleset.close(ruling, closed)
    if ruling.state.phase is Phase.OVER and ruling.state.window is not None:
        ruling.close_window()
    return _finish(state, ruling, command)


def _extend(
    state: GameState[Any, Any],
    window: Window,
    command: Extend,
    dice: DiceSource,
    ids: IdSource,
    now: str,
) -> tuple[Event, GameState[Any, Any]]:
    """Move the window's end on by ``now - since``. Refused ``time_not_up`` unless the
    window has a limit and was still running at ``since`` (a window whose time had run out
    before the host went down is timed out, not extended), and ``since`` is not after ``now``."""
    since, at = clock.parse(command.since), clock.parse(now)
    if window.ends is None or since >= clock.parse(window.ends) or since > at:
        raise Refusal(TIME_NOT_UP, "That reaction window was not running while the host was down.")
    down = at - since
    ruling = Ruling(state, None, dice, ids, now=now, acting=window.by)
    ruling.clock()  # the record says when the host was back: the audit measures from it
    ruling.extend_window(clock.stamp(clock.parse(window.ends) + down))
    late = window.awaiting
    assert late is not None
    seconds = round(down.total_seconds())
    ruling.tell_public(
        {"text": say(EXTENDED, seconds=seconds, side=state.scenario.side_name(late))}
    )
    return _finish(state, ruling, command)


def _finish(
    state: GameState[Any, Any], ruling: Ruling[Any, Any], command: TimeOut | Extend
) -> tuple[Event, GameState[Any, Any]]:
    event = ruling.finish(state.seq + 1, command.model_dump(mode="json"))
    return event, replace(ruling.state, seq=event.seq)
