"""How long a roll waits for the sides' pages: past the game's limit it goes on without the
element of a page that has not given it (a phone asleep at the table, a page closed).

Every game states the limit when it is created (``wait_for_pages``, seconds, or none:
"always"), and its first event publishes it. A roll asked for at the host's time ``asked``
waits until ``asked`` + the limit; then the host draws it without the missing elements
(:meth:`ghillie.server.resolving.Resolving.give_up`): the event says whose (``fair.missing``),
every page tells its player what that means, and the audit names each such roll. The timer
is kept here, one per game, like a reaction window's (:mod:`ghillie.server.deadlines`): set
whenever a game's pending roll changes or the game is loaded (after a restart, from the
stored request's time), cancelled when the roll resolves. Whether to give up is decided
again under the game's lock, so a late or doubled timer changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ghillie import clock
from ghillie.server.problems import where

log = logging.getLogger("ghillie.waits")

RETRY = 1.0  # before trying again when giving up failed (the store, say)

GiveUp = Callable[[str, int], Awaitable[object]]  # (game id, the roll)


@dataclass(eq=False)
class _Timer:
    k: int
    task: asyncio.Task[None] | None = None


class Waits:
    def __init__(
        self, give_up: GiveUp, *, now: Callable[[], datetime] = lambda: datetime.now(UTC)
    ) -> None:
        self._give_up = give_up
        self._now = now
        self._timers: dict[str, _Timer] = {}

    def follow(self, game_id: str, k: int | None, asked: str | None, wait: int | None) -> None:
        """The game's pending roll is now roll ``k``, asked at ``asked`` (None: no roll
        waits for a page): give it up ``wait`` seconds after it was asked."""
        current = self._timers.get(game_id)
        if current is not None and current.k == k:
            return
        if current is not None:
            del self._timers[game_id]
            if current.task is not None:
                current.task.cancel()
        if k is None or asked is None or wait is None:
            return
        timer = _Timer(k)
        self._timers[game_id] = timer
        due = clock.parse(asked) + timedelta(seconds=wait)
        timer.task = asyncio.get_running_loop().create_task(self._run(game_id, timer, due))

    def close(self) -> None:
        for timer in self._timers.values():
            if timer.task is not None:
                timer.task.cancel()
        self._timers.clear()

    async def _run(self, game_id: str, timer: _Timer, due: datetime) -> None:
        while self._timers.get(game_id) is timer:
            await asyncio.sleep(max(0.0, (due - self._now()).total_seconds()))
            if self._timers.get(game_id) is not timer:
                return
            try:
                await self._give_up(game_id, timer.k)
            except Exception as exc:  # the store failed: look again in a moment
                log.warning("a roll could not go on without a page yet: %s", where(exc))
                due = self._now() + timedelta(seconds=RETRY)
                continue
            break
        if self._timers.get(game_id) is timer:
            del self._timers[game_id]
