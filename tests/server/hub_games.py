"""A grid-ambush-table game on an in-process hub, both sides ready, and played on by turns of
``end_phase``: the shortest way to a game of many events (a long game's memory)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from ghillie import engine, examples
from ghillie.events import Event
from ghillie.server.hub import Hub
from ghillie.server.live import LiveGame
from ghillie.store import MemoryStore
from ghillie.store.base import Answer, EventStore

NO_AMBUSHES = {"type": "record_ambushes", "orders": []}


async def started(hub: Hub, first_id: str = "r0") -> str:
    """A new game whose Veterans wrote no ambush orders (command ``first_id``) and whose
    sides are both ready."""
    created = await hub.create(examples.load("grid-ambush-table"))
    await hub.commands.command(created.game_id, "jungle", first_id, NO_AMBUSHES)
    await hub.commands.command(created.game_id, "jungle", "r1", {"type": "ready"})
    await hub.commands.command(created.game_id, "orks", "r2", {"type": "ready"})
    return created.game_id


async def played_on(
    hub: Hub, game_id: str, done: Callable[[LiveGame], bool], then: Callable[[], None] = list
) -> LiveGame:
    """End phases by turns until ``done(game)``; ``then()`` after each (a page reading).
    Each command's id names the event it makes, so a second call gives new commands, not
    retries of the first call's."""
    game = await hub.games.live(game_id)
    n = 0
    while not done(game):
        side = game.state.sides[n % 2]
        if "end_phase" in engine.allowed_commands(game.state, side):
            await hub.commands.command(game_id, side, f"e{len(game.events)}", {"type": "end_phase"})
        then()
        n += 1
        await asyncio.sleep(0)  # others go on meanwhile (a page connecting, say)
    return game


@contextlib.asynccontextmanager
async def long_game(
    store: EventStore, length: int, first_id: str = "r0", **options: Any
) -> AsyncIterator[tuple[Hub, str, LiveGame]]:
    """A hub on ``store`` (``options``: the Hub's) with a started game played on to
    ``length`` events; the hub is closed after."""
    hub = Hub(store, **options)
    try:
        game_id = await started(hub, first_id)
        yield hub, game_id, await played_on(hub, game_id, lambda g: len(g.events) >= length)
    finally:
        hub.close()


class Unreadable(MemoryStore):
    """A store whose reads of a game's events and answers fail once told to (a database gone
    away)."""

    failing = False

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        if self.failing:
            raise OSError("disk I/O error")
        return super().events(game_id, after)

    def answers(self, game_id: str, after: int = -1) -> list[Answer]:
        if self.failing:
            raise OSError("disk I/O error")
        return super().answers(game_id, after)
