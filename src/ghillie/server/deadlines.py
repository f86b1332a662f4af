"""The time limits of reaction windows, kept by the server: when one runs out, the host
gives its time-out (``engine.time_out``) through the hub, like any command.

This module only decides *when* to ask. Whether the time really is up, and whether the
window named is still the open one, the engine rules on, at the host's recorded time: a
timer that fires late (the side answered just in time), twice, or in two server processes
sharing one database at once is refused and changes nothing. So nothing here has to be
exact or exclusive, only prompt.

A game has at most one timer: that of its open window, if the window has a limit. The hub
calls :meth:`Deadlines.follow` whenever a game's state moves — an event committed here,
another process's events caught up, the game loaded from the store — so a restarted server
schedules a window's time-out from its recorded end as soon as the game is loaded again, once
it has extended the window by the time it was down (:mod:`ghillie.server.outages`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from ghillie import clock
from ghillie.errors import ROLL_PENDING, TIME_NOT_UP, Refusal
from ghillie.server.problems import where
from ghillie.state import Window

log = logging.getLogger("ghillie.deadlines")

# After the recorded end: a host clock read a hair early is refused time_not_up, not wrong.
MARGIN = 0.05
# Before trying again when the time-out could not be given: another command's roll is
# waiting for the pages, or the store failed. The window's answer cancels the timer.
RETRY = 1.0

Fire = Callable[[str, int], Awaitable[object]]  # (game id, the window's opening seq)


@dataclass(eq=False)
class _Timer:
    opened: int  # the window it is for, named by the seq of the event that opened it
    ends: str  # when it ends: a window extended after an outage (ghillie.host) is timed anew
    task: asyncio.Task[None] | None = None
    firing: bool = False  # giving the time-out now: the event it commits must not cancel it


class Deadlines:
    def __init__(
        self, fire: Fire, *, now: Callable[[], datetime] = lambda: datetime.now(UTC)
    ) -> None:
        """``fire(game_id, opened)`` gives the host's time-out for the window event
        ``opened`` opened; ``now`` is the host's clock (the engine rules with the same)."""
        self._fire = fire
        self._now = now
        self._timers: dict[str, _Timer] = {}
        # Games whose time-out must wait: a restarted host first extends their windows by
        # the time it was down (ghillie.server.outages), then lets them run out.
        self._held: dict[str, asyncio.Event] = {}

    def hold(self, game_id: str) -> None:
        """Give no time-out in ``game_id`` until :meth:`release`."""
        self._held.setdefault(game_id, asyncio.Event())

    def release(self, game_id: str) -> None:
        held = self._held.pop(game_id, None)
        if held is not None:
            held.set()

    def follow(self, game_id: str, window: Window | None) -> None:
        """The game's open window is now ``window``: time it if it has a limit and still
        awaits an answer, and forget the timer of any window that has closed."""
        timed = window is not None and window.ends is not None and window.awaiting is not None
        current = self._timers.get(game_id)
        if current is not None:
            if (
                timed
                and window is not None
                and (current.opened, current.ends)
                == (
                    window.opened,
                    window.ends,
                )
            ):
                return
            del self._timers[game_id]
            if current.task is not None and not current.firing:
                current.task.cancel()
        if timed and window is not None and window.ends is not None:
            timer = _Timer(window.opened, window.ends)
            self._timers[game_id] = timer
            timer.task = asyncio.get_running_loop().create_task(self._run(game_id, timer))

    def timed(self) -> dict[str, int]:
        """The windows timed now: game id → the seq that opened its window."""
        return {game_id: timer.opened for game_id, timer in self._timers.items()}

    def close(self) -> None:
        for timer in self._timers.values():
            if timer.task is not None:
                timer.task.cancel()
        self._timers.clear()

    async def _run(self, game_id: str, timer: _Timer) -> None:
        while self._timers.get(game_id) is timer:
            held = self._held.get(game_id)
            if held is not None:
                await held.wait()
                continue  # the window may have been extended, answered or closed meanwhile
            left = (clock.parse(timer.ends) - self._now()).total_seconds()
            await asyncio.sleep(max(0.0, left) + MARGIN)
            if self._timers.get(game_id) is not timer:
                return
            timer.firing = True
            try:
                await self._fire(game_id, timer.opened)
            except Refusal as refusal:
                if refusal.code not in (TIME_NOT_UP, ROLL_PENDING):
                    break  # answered, closed, another window open: nothing left to time
                pause = 0.0 if refusal.code == TIME_NOT_UP else RETRY
            except Exception as exc:  # the store failed, or the game moved on meanwhile
                log.warning("a time-out could not be given yet: %s", where(exc))
                pause = RETRY
            else:
                break
            finally:
                timer.firing = False
            await asyncio.sleep(pause)  # then look again: the window may have closed
        if self._timers.get(game_id) is timer:
            del self._timers[game_id]
