"""A retry of a command id gets the answer it got the first time, however long ago that was,
and is not applied again: the live game holds only the last answers whole, and reads an
older one back from the store."""

from __future__ import annotations

import asyncio

from ghillie.server import answered
from ghillie.server.hub import Hub
from ghillie.store import MemoryStore

from .hub_games import NO_AMBUSHES, played_on, started


def test_a_retry_of_a_command_given_long_ago_gets_its_answer_and_changes_nothing() -> None:
    async def play() -> None:
        store = MemoryStore()
        hub = Hub(store)
        try:
            game_id = await started(hub, first_id="first")
            first = await hub.commands.answer_of(game_id, "jungle", "first")  # held now
            game = await played_on(hub, game_id, lambda g: len(g.events) >= 4 * answered.KEEP + 4)
            assert ("jungle", "first") in game.answers
            assert ("jungle", "first") not in game.answers._held  # no longer held whole
            seq = game.state.seq
            again = await hub.commands.command(game_id, "jungle", "first", NO_AMBUSHES)
            assert again == first
            assert game.state.seq == seq  # not applied twice
            asked = await hub.commands.answer_of(game_id, "jungle", "first")
            assert asked == first
            # A command id never given is still a new command.
            assert await game.answers.find("jungle", "never") is None
        finally:
            hub.close()

    asyncio.run(play())
