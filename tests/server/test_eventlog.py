"""A live game keeps only its last events in memory: a long game does not grow without
bound, and whatever asks for its earlier events (a page connecting, the record, a past
position) still gets every one of them, read back from the store."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from ghillie import engine, registry
from ghillie.events import Event
from ghillie.server import eventlog
from ghillie.server.eventlog import EventLog
from ghillie.server.hub import Hub
from ghillie.server.problems import UNAVAILABLE, Problem
from ghillie.store import MemoryStore
from ghillie.view import project

from .hub_games import Unreadable, long_game, played_on, started


def _events(n: int, start: int = 0) -> list[Event]:
    return [Event(seq, "host", None, (), (), {}) for seq in range(start, start + n)]


def test_only_the_tail_is_held_and_every_event_is_still_given() -> None:
    everything = _events(50)
    log = EventLog(everything, lambda after: [e for e in everything if e.seq > after], keep=4)
    assert len(log) == 50
    assert log.first_held >= 50 - 2 * 4  # at most twice the tail is held
    assert log.since(47) == everything[48:]
    assert log[49] is everything[49]
    with pytest.raises(LookupError):
        log.since(0)  # a commit's new events are held; older ones are not asked for here
    with pytest.raises(LookupError):
        log[0]
    assert asyncio.run(log.after()) == everything
    assert asyncio.run(log.after(9)) == everything[10:]
    assert asyncio.run(log.after(48)) == everything[49:]


def test_events_that_come_while_the_store_is_read_are_given_too() -> None:
    # A commit appends (and the tail moves on) while a connecting page's earlier events are
    # read back: what it gets has no gap and no event twice, up to the last one.
    everything = _events(60)
    stored = everything[:20]
    log = EventLog(stored, lambda after: [e for e in stored if e.seq > after], keep=4)
    arrived = threading.Event()

    def read(after: int) -> list[Event]:
        found = [e for e in stored if e.seq > after]
        loop.call_soon_threadsafe(more)  # 40 events more, committed meanwhile
        arrived.wait(5)
        return found

    def more() -> None:
        for event in everything[20:]:
            stored.append(event)
            log.append(event)
        arrived.set()

    log._read = read  # the store as a commit outruns it
    loop = asyncio.new_event_loop()
    try:
        got = loop.run_until_complete(log.after(2))
    finally:
        loop.close()
    assert [e.seq for e in got] == list(range(3, 60))


def test_an_event_out_of_order_is_not_taken() -> None:
    log = EventLog(_events(3), lambda after: [])
    with pytest.raises(ValueError, match="appended after"):
        log.append(_events(1, start=5)[0])
    assert len(log) == 3


def test_a_long_game_holds_its_tail_and_a_page_connecting_late_gets_every_event() -> None:
    async def play() -> None:
        store = MemoryStore()
        hub = Hub(store)
        try:
            game_id = await started(hub)
            game = await hub.games.live(game_id)
            early = hub.fanout.watch(game, "orks")
            await hub.fanout.watch_view(game, early)
            pushed = 0

            def read() -> None:  # the page reads every update
                nonlocal pushed
                while not early.queue.empty():
                    update: Any = early.queue.get_nowait()
                    pushed += len(update["view"]["log"])

            await played_on(hub, game_id, lambda g: len(g.events) >= 3 * eventlog.TAIL, read)
            assert len(game.events) >= 3 * eventlog.TAIL
            assert game.events.first_held > 0  # the first events are no longer in memory
            # Every update reached the page that watched from the start.
            assert pushed == len(game.events) - 4  # all but those its whole view had
            stored = store.events(game_id)
            for observer in ("orks", "jungle"):
                late = hub.fanout.watch(game, observer)
                whole = await hub.fanout.watch_view(game, late)
                assert whole["log"] == project(game.state, stored, observer)["log"]
                assert len(whole["log"]) == len(game.events)
                again = await hub.view(game_id, observer, after=5)
                assert again["log"] == whole["log"][6:]
            # Were many events to come at once (another process ruled them), more than are
            # held: its pages start again from a whole view instead of missing any.
            stale = hub.fanout.watch(game, "jungle")
            hub.fanout.publish(game, 0)
            assert stale.dropped
            assert stale.queue.get_nowait() is None
            state = engine.replay(registry.of(game.scenario), game.scenario, stored)
            assert state.seq == game.state.seq
        finally:
            hub.close()

    asyncio.run(play())


def test_a_store_that_cannot_read_the_earlier_events_says_try_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def play() -> None:
        store = Unreadable()
        async with long_game(store, 2 * eventlog.TAIL + 1) as (hub, game_id, game):
            assert game.events.first_held > 0  # its first events are in the store alone
            store.failing = True
            with pytest.raises(Problem) as failed:
                await hub.view(game_id, "orks")
            assert failed.value.code == UNAVAILABLE
            assert "try again" in failed.value.detail
            # The tail is still served from memory, and the game goes on.
            recent = await hub.view(game_id, "orks", after=game.state.seq - 1)
            assert len(recent["log"]) == 1
            store.failing = False
            assert len((await hub.view(game_id, "orks"))["log"]) == len(game.events)

    with caplog.at_level("ERROR", logger="ghillie.hub"):
        asyncio.run(play())
    assert "could not be read" in caplog.text  # the operator is told
