"""A grid-ambush-table game on an in-process hub, both sides ready, and played on by turns of
``end_phase``: the shortest way to a game of many events (a long game's memory)."""

from __future__ import annotations

from collections.abc import Callable

from ghillie import engine, examples
from ghillie.server.hub import Hub
from ghillie.server.live import LiveGame

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
    """End phases by turns until ``done(game)``; ``then()`` after each (a page reading)."""
    game = await hub.games.live(game_id)
    n = 0
    while not done(game):
        side = game.state.sides[n % 2]
        if "end_phase" in engine.allowed_commands(game.state, side):
            await hub.commands.command(game_id, side, f"c{n}", {"type": "end_phase"})
        then()
        n += 1
    return game
