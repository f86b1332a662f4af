"""A retry of a command id gets the answer it got the first time, however long ago that was,
and is not applied again: the live game holds only the last answers whole, and reads an
older one back from the store."""

from __future__ import annotations

import asyncio

from ghillie import engine, examples
from ghillie.server import answered
from ghillie.server.hub import Hub
from ghillie.store import MemoryStore


def test_a_retry_of_a_command_given_long_ago_gets_its_answer_and_changes_nothing() -> None:
    async def play() -> None:
        store = MemoryStore()
        hub = Hub(store)
        try:
            created = await hub.create(examples.load("grid-ambush-table"))
            game_id = created.game_id
            first = await hub.commands.command(
                game_id, "jungle", "first", {"type": "record_ambushes", "orders": []}
            )
            await hub.commands.command(game_id, "jungle", "r1", {"type": "ready"})
            await hub.commands.command(game_id, "orks", "r2", {"type": "ready"})
            game = await hub.games.live(game_id)
            n = 0
            while len(game.events) < 4 * answered.KEEP + 4:
                side = game.state.sides[n % 2]
                if "end_phase" in engine.allowed_commands(game.state, side):
                    await hub.commands.command(game_id, side, f"c{n}", {"type": "end_phase"})
                n += 1
            assert ("jungle", "first") in game.answers
            assert ("jungle", "first") not in game.answers._held  # no longer held whole
            seq = game.state.seq
            again = await hub.commands.command(
                game_id, "jungle", "first", {"type": "record_ambushes", "orders": []}
            )
            assert again == first
            assert game.state.seq == seq  # not applied twice
            asked = await hub.commands.answer_of(game_id, "jungle", "first")
            assert asked == first
            # A command id never given is still a new command.
            assert await game.answers.find("jungle", "never") is None
        finally:
            hub.close()

    asyncio.run(play())
