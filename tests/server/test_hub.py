"""The hub: many games at once, slow watchers, and a database that fails."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import pytest

from ghillie import examples
from ghillie.server.hub import QUEUE_SIZE, Hub
from ghillie.server.problems import Problem
from ghillie.store import Append, MemoryStore

from .hub_games import started

_game = started  # grid-ambush-table, both sides ready


def test_a_watcher_that_never_reads_is_dropped_and_holds_nobody_up() -> None:
    async def play() -> None:
        hub = Hub(MemoryStore())
        try:
            game_id = await _game(hub)
            game = await hub.games.live(game_id)
            idle = hub.fanout.watch(game, "orks")  # a phone in a pocket: never reads
            reading = hub.fanout.watch(game, "jungle")
            received = 0
            for n in range(QUEUE_SIZE + 20):
                side = ("jungle", "orks")[(n // 3) % 2]
                await asyncio.wait_for(
                    hub.commands.command(game_id, side, f"c{n}", {"type": "end_phase"}), 5
                )
                while not reading.queue.empty():
                    reading.queue.get_nowait()
                    received += 1
            assert received == QUEUE_SIZE + 20  # the reading side got every update
            assert idle.dropped
            assert idle not in game.watchers
            queued = [idle.queue.get_nowait() for _ in range(idle.queue.qsize())]
            assert queued[-1] is None  # its connection is told to close and resync
        finally:
            hub.close()

    asyncio.run(play())


def test_what_a_reader_was_shown_is_let_go_with_its_last_connection() -> None:
    # Each (side, language) watching keeps the view it holds, to send only what changed; a
    # game nobody watches any more keeps none (30 to 90 KB a game, for as long as it lives).
    async def play() -> None:
        hub = Hub(MemoryStore())
        try:
            game_id = await _game(hub)
            game = await hub.games.live(game_id)
            phone, tablet = hub.fanout.watch(game, "jungle"), hub.fanout.watch(game, "jungle")
            orks = hub.fanout.watch(game, "orks", "ru")
            for watcher in (phone, tablet, orks):
                await hub.fanout.watch_view(game, watcher)
            await hub.commands.command(game_id, "jungle", "c1", {"type": "end_phase"})
            assert set(game.shown) == {("jungle", "en"), ("orks", "ru")}
            hub.fanout.unwatch(game, phone)
            assert ("jungle", "en") in game.shown  # the tablet still watches
            hub.fanout.unwatch(game, tablet)
            hub.fanout.let_go(game, orks)
            assert game.shown == {}
            again = hub.fanout.watch(game, "jungle")
            whole = await hub.fanout.watch_view(game, again)  # starts from a whole view, as before
            await hub.commands.command(game_id, "jungle", "c2", {"type": "end_phase"})
            update = again.queue.get_nowait()
            assert update is not None
            assert update["view"]["log"][-1]["seq"] == whole["seq"] + 1
        finally:
            hub.close()

    asyncio.run(play())


def test_a_game_busy_with_a_command_does_not_hold_up_another_game() -> None:
    async def play() -> None:
        hub = Hub(MemoryStore())
        try:
            first, second = await _game(hub), await _game(hub)
            busy = await hub.games.live(first)
            async with busy.lock:  # the first game is in the middle of something long
                answer = await asyncio.wait_for(
                    hub.commands.command(second, "jungle", "x", {"type": "end_phase"}), 5
                )
            assert answer["seq"] == 4
        finally:
            hub.close()

    asyncio.run(play())


class FailingStore(MemoryStore):
    """A database whose writes fail with a message that quotes what it was given."""

    def append_batch(self, batch: Sequence[Append]) -> list[Exception | None]:
        raise RuntimeError(f"disk full while writing {batch[0].events[0].command}")


def test_a_failed_save_is_unavailable_and_logs_no_game_data(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)

    async def play() -> Any:
        hub = Hub(FailingStore())
        try:
            created = await hub.create(examples.load("grid-ambush-table"))
            order = {"unit": "graw", "square": "D2", "note": "CANARY-note"}
            with pytest.raises(Problem) as failed:
                await hub.commands.command(
                    created.game_id, "jungle", "c", {"type": "record_ambushes", "orders": [order]}
                )
            game = await hub.games.live(created.game_id)
            return failed.value, game.state.seq
        finally:
            hub.close()

    problem, seq = asyncio.run(play())
    assert (problem.status, problem.code) == (503, "unavailable")
    assert seq == 0  # nothing acknowledged, nothing advanced
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "commit failed: RuntimeError" in logged
    assert "CANARY" not in logged
    assert "D2" not in logged
