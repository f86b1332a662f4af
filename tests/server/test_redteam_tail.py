"""Red team of the event log's tail and the answers held (246d421..0daedbb): a long game's
earlier events and older answers are read back from the store. Each test tries to make what
is read back differ from what a game that held everything would give."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from ghillie import engine, examples, registry
from ghillie.errors import Refusal
from ghillie.events import Event
from ghillie.fairness.audit import audit
from ghillie.fairness.chains import Chain
from ghillie.fairness.record import make_record
from ghillie.server import answered, eventlog
from ghillie.server.eventlog import EventLog
from ghillie.server.hub import Hub
from ghillie.server.problems import NOT_FOUND, UNAVAILABLE, Problem
from ghillie.state import REFEREE, Phase
from ghillie.store import MemoryStore
from ghillie.store.base import Answer
from ghillie.store.sql import SqlStore
from ghillie.view import project

from .hub_games import NO_AMBUSHES, Unreadable, long_game, played_on, started

LONG = 4 * eventlog.TAIL + 4  # well past the tail and the answers held


def _run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 60))


def _seqs(view: dict[str, Any]) -> list[int]:
    return [entry["seq"] for entry in view["log"]]


# --- answers: a retry of an old command id ------------------------------------------------


@pytest.mark.parametrize("how", ["evicted", "restarted"])
def test_an_old_answer_read_back_from_sqlite_is_the_answer_first_given(
    tmp_path: Path, how: str
) -> None:
    """The answer held in memory is a dict built in place; the one read back went through
    JSON in SQLite. A retry long after, or after the game was reloaded, must get the same."""
    path = str(tmp_path / "g.db")

    async def test() -> None:
        hub = Hub(SqlStore(path))
        try:
            game_id = await started(hub, first_id="first")
            first = await hub.commands.answer_of(game_id, "jungle", "first")
            first_ru = await hub.commands.answer_of(game_id, "jungle", "first", "ru")
            game = await played_on(hub, game_id, lambda g: len(g.events) >= LONG)
            assert ("jungle", "first") not in game.answers._held
            seq = game.state.seq
            assert await hub.commands.command(game_id, "jungle", "first", NO_AMBUSHES) == first
            if how == "evicted":
                hub.games.evict(game)
            else:
                hub.close()
                hub = Hub(SqlStore(path))
            again = await hub.commands.command(game_id, "jungle", "first", {"type": "end_phase"})
            assert again == first
            assert await hub.commands.answer_of(game_id, "jungle", "first") == first
            assert await hub.commands.answer_of(game_id, "jungle", "first", "ru") == first_ru
            reloaded = await hub.games.live(game_id)
            assert reloaded.state.seq == seq  # applied once only
            # Every answer still held after the reload is the one read back from the store.
            for side, command_id in list(reloaded.answers):
                held = reloaded.answers._held.get((side, command_id))
                if held is not None:
                    reloaded.answers._held.pop((side, command_id))
                    assert await reloaded.answers.find(side, command_id) == held
        finally:
            hub.close()

    _run(test)


def test_a_refused_command_id_stays_unknown_past_the_tail() -> None:
    async def test() -> None:
        hub = Hub(MemoryStore())
        try:
            game_id = await started(hub)
            with pytest.raises(Refusal):  # not the orks' turn's command: refused
                await hub.commands.command(game_id, "orks", "bad", {"type": "record_ambushes"})
            game = await played_on(hub, game_id, lambda g: len(g.events) >= LONG)
            assert ("orks", "bad") not in game.answers
            assert await game.answers.find("orks", "bad") is None
            with pytest.raises(Problem) as missing:
                await hub.commands.answer_of(game_id, "orks", "bad")
            assert missing.value.code == NOT_FOUND
            hub.games.evict(game)
            with pytest.raises(Problem) as missing:
                await hub.commands.answer_of(game_id, "orks", "bad")
            assert missing.value.code == NOT_FOUND
            # The same id from the other side, and an id of the other side, are not mixed up.
            with pytest.raises(Problem):
                await hub.commands.answer_of(game_id, "orks", "first")
            assert (await hub.commands.answer_of(game_id, "jungle", "r0"))["seq"] == 1
        finally:
            hub.close()

    _run(test)


def test_an_old_retry_while_the_store_fails_says_try_again_and_changes_nothing() -> None:
    async def test() -> None:
        store = Unreadable()
        async with long_game(store, LONG, first_id="first") as (hub, game_id, game):
            seq = game.state.seq
            store.failing = True
            for attempt in (
                hub.commands.command(game_id, "jungle", "first", NO_AMBUSHES),
                hub.commands.answer_of(game_id, "jungle", "first"),
            ):
                with pytest.raises(Problem) as failed:
                    await attempt
                assert failed.value.code == UNAVAILABLE
            assert game.state.seq == seq
            assert not game.lock.locked()
            # A recent answer is still held and given.
            recent = next(reversed(game.answers._held))
            assert await game.answers.find(*recent) is not None

    _run(test)


# --- the log: whole views around the tail's boundary ---------------------------------------


def test_a_view_after_every_seq_around_the_tail_has_no_gap_and_no_event_twice() -> None:
    async def test() -> None:
        store = MemoryStore()
        async with long_game(store, LONG) as (hub, game_id, game):
            stored = store.events(game_id)
            last, first = game.state.seq, game.events.first_held
            assert first > 2
            for after in [-1, 0, first - 2, first - 1, first, first + 1, last - 1, last, last + 3]:
                for observer in ("jungle", "orks", REFEREE):
                    view = await hub.view(game_id, observer, after)
                    assert _seqs(view) == list(range(after + 1, last + 1)), after
                    whole = project(game.state, stored[after + 1 :], observer)
                    assert view["log"] == whole["log"]
                watcher = hub.fanout.watch(game, "orks")
                watched = await hub.fanout.watch_view(game, watcher, after)
                assert _seqs(watched) == list(range(after + 1, last + 1))
                hub.fanout.unwatch(game, watcher)

    _run(test)


def test_a_log_asked_for_from_below_minus_one_is_answered() -> None:
    """Not reachable from a page (socket.py clamps ``after`` to >= -1), but Hub.view takes
    any int: before the change ``events[after + 1:]``; now EventLog.after must not spin."""
    events = [Event(seq, "host", None, (), (), {}) for seq in range(20)]
    log = EventLog(events, lambda after: [e for e in events if e.seq > after], keep=4)

    async def ask() -> list[Event]:
        return await asyncio.wait_for(log.after(-5), 1)

    got = asyncio.run(ask())  # would hang, re-reading the store, if it could not be met
    assert got == events


class _Slow(MemoryStore):
    """A store whose read of a game's earlier events is taken at once but answered late:
    commits go on meanwhile."""

    slow = 0.0

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        found = super().events(game_id, after)
        if self.slow and after >= -1 and threading.current_thread() is not threading.main_thread():
            time.sleep(self.slow)
        return found


async def _keep_commanding(hub: Hub, game_id: str, stop: asyncio.Event) -> int:
    """End phases by turns, as fast as they commit, until ``stop``; how many were given."""
    game = await hub.games.live(game_id)
    before = len(game.events)
    await played_on(hub, game_id, lambda g: stop.is_set())
    return len(game.events) - before


def test_a_page_connecting_while_commands_commit_gets_a_log_that_matches_its_state() -> None:
    """watch_view holds the game's lock: commits wait for it, so its log is whole."""

    async def test() -> None:
        store = _Slow()
        async with long_game(store, LONG) as (hub, game_id, game):
            stop = asyncio.Event()
            store.slow = 0.15
            playing = asyncio.create_task(_keep_commanding(hub, game_id, stop))
            try:
                for after in (-1, 3, game.events.first_held - 1):
                    for _ in range(3):
                        watcher = hub.fanout.watch(game, "jungle")
                        whole = await hub.fanout.watch_view(game, watcher, after)
                        assert _seqs(whole) == list(range(after + 1, whole["seq"] + 1))
                        assert whole["seq"] == game.state.seq
                        hub.fanout.unwatch(game, watcher)
                        await asyncio.sleep(0.01)
            finally:
                stop.set()
                given = await playing
            assert given > 5  # commands did commit between the reads

    _run(test)


def test_a_whole_view_asked_for_while_commands_keep_committing_comes_back() -> None:
    """Hub.view (GET /view, and a page's resync frame) does not hold the lock: a read of the
    earlier events that takes longer than the tail's worth of commits must still come back,
    with every event once (nothing held is let go while it reads)."""

    async def test() -> None:
        store = _Slow()
        async with long_game(store, LONG) as (hub, game_id, _):
            stop = asyncio.Event()
            store.slow = 0.15  # a read of a long game's history on a busy database
            playing = asyncio.create_task(_keep_commanding(hub, game_id, stop))
            try:
                view = await asyncio.wait_for(hub.view(game_id, "orks"), 2)
                assert _seqs(view) == list(range(view["seq"] + 1))
            finally:
                stop.set()
                await playing

    _run(test)


def test_a_log_read_back_while_events_keep_coming_returns() -> None:
    """The smallest case of the above: each read of the store is outrun by 20 commits."""
    everything = [Event(seq, "host", None, (), (), {}) for seq in range(10_000)]
    stored = everything[:40]
    log = EventLog(stored, lambda after: [], keep=4)
    reads = 0

    def read(after: int) -> list[Event]:
        nonlocal reads
        reads += 1
        found = [e for e in stored if e.seq > after]
        for event in everything[len(stored) : len(stored) + 20]:  # committed meanwhile
            stored.append(event)
            log.append(event)
        return found

    log._read = read

    async def ask() -> list[Event]:
        return await asyncio.wait_for(log.after(-1), 2)

    got = asyncio.run(ask())
    assert [e.seq for e in got] == list(range(len(got)))
    assert reads <= 3, reads


def test_a_watcher_during_many_commits_sees_every_event_once() -> None:
    """A page watching from a whole view while commands commit and reads come back: its
    whole view and then its updates give every seq once, in order."""

    async def test() -> None:
        store = _Slow()
        async with long_game(store, LONG) as (hub, game_id, game):
            store.slow = 0.05
            watcher = hub.fanout.watch(game, "orks")
            seen = _seqs(await hub.fanout.watch_view(game, watcher, 2))

            def read() -> None:
                while not watcher.queue.empty():
                    update = watcher.queue.get_nowait()
                    assert update is not None
                    seen.extend(entry["seq"] for entry in update["view"]["log"])

            await played_on(hub, game_id, lambda g: len(g.events) >= 3 * LONG, read)
            read()
            assert seen == list(range(3, game.state.seq + 1))

    _run(test)


# --- another process's events caught up ------------------------------------------------------


@pytest.mark.parametrize("more", [1, 7, 8, 9, 15, 16, 17, 40])
def test_another_process_ruling_many_events_leaves_watchers_whole(more: int) -> None:
    """Two hubs on one store, as two processes on one database: B's watchers get the events
    A ruled either as one gap-free update or by starting again from a whole view."""

    async def test() -> None:
        store = MemoryStore()
        a, b = Hub(store), Hub(store)
        try:
            game_id = await started(a)
            await played_on(a, game_id, lambda g: len(g.events) >= LONG)
            on_b = await b.games.live(game_id)
            for _ in range(3):  # at different points of the tail's trimming
                watcher = b.fanout.watch(on_b, "orks")
                whole = await b.fanout.watch_view(on_b, watcher)
                start = on_b.state.seq
                target = start + more
                on_a = await played_on(a, game_id, lambda g, t=target: g.state.seq >= t)
                await b.sync.refresh(game_id)
                assert on_b.state.seq == on_a.state.seq
                assert len(on_b.events) == on_b.state.seq + 1
                update = watcher.queue.get_nowait()
                if update is None:
                    assert watcher.dropped
                else:
                    assert _seqs(update["view"]) == list(range(start + 1, on_b.state.seq + 1))
                assert len(whole["log"]) == start + 1
                again = await b.view(game_id, "orks")
                assert again["log"] == project(on_a.state, store.events(game_id), "orks")["log"]
                b.fanout.unwatch(on_b, watcher)
            # B knows every answer A gave, old or new, as A gives it.
            for side, command_id in list(on_a.answers):
                assert await b.commands.answer_of(
                    game_id, side, command_id
                ) == await a.commands.answer_of(game_id, side, command_id)
        finally:
            a.close()
            b.close()

    _run(test)


# --- a page-held game past the tail ----------------------------------------------------------


def test_a_game_whose_pages_hold_the_chains_plays_past_the_tail() -> None:
    sides = ("jungle", "orks")

    async def test() -> None:
        store = MemoryStore()
        hub = Hub(store)
        try:
            created = await hub.create(examples.load("grid-ambush-table"), clients=True)
            game_id = created.game_id
            chains = {side: Chain.fresh(128)[1] for side in sides}
            game = await hub.games.live(game_id)
            for side in sides:
                await hub.commands.anchor(game_id, side, chains[side].anchor.hex())
            for side in sides:
                await hub.commands.contribute(game_id, side, 0, chains[side].element(0).hex())

            async def give(side: str, command_id: str, command: dict[str, Any]) -> Any:
                k = game.state.seq + 1
                task = asyncio.create_task(hub.commands.command(game_id, side, command_id, command))
                await asyncio.sleep(0)
                for party in sides:
                    await hub.commands.contribute(game_id, party, k, chains[party].element(k).hex())
                return await asyncio.wait_for(task, 5)

            first = await give("jungle", "first", NO_AMBUSHES)
            await give("jungle", "r1", {"type": "ready"})
            await give("orks", "r2", {"type": "ready"})
            n = 0
            while len(game.events) < LONG:
                side = sides[n % 2]
                if "end_phase" in engine.allowed_commands(game.state, side):
                    await give(side, f"c{n}", {"type": "end_phase"})
                n += 1
            assert game.events.first_held > 0
            assert ("jungle", "first") not in game.answers._held
            seq = game.state.seq
            # A retry long after: the first answer, no roll asked for.
            assert await hub.commands.command(game_id, "jungle", "first", NO_AMBUSHES) == first
            assert game.state.seq == seq
            assert game.pending is None
            hub.games.evict(game)
            reloaded = await hub.games.live(game_id)
            assert await hub.commands.answer_of(game_id, "jungle", "first") == first
            assert reloaded.state.seq == seq
            view = await hub.view(game_id, "orks")
            assert _seqs(view) == list(range(seq + 1))
            game = reloaded
            await give("jungle", "end", {"type": "end_game"})
            assert game.state.phase is Phase.OVER
            report = audit(await hub.record(game_id))
            assert report.ok, report.findings
        finally:
            hub.close()

    _run(test)


# --- the record and the story of a long game over ---------------------------------------------


def test_the_record_and_story_of_a_long_game_are_those_of_every_event() -> None:
    async def test() -> None:
        store = MemoryStore()
        async with long_game(store, LONG) as (hub, game_id, game):
            await hub.commands.command(game_id, "jungle", "end", {"type": "end_game"})
            assert game.state.phase is Phase.OVER
            stored = store.events(game_id)
            assert len(stored) == len(game.events)
            assert await hub.record(game_id) == make_record(game_id, game.header, stored)
            for seq in (-3, 0, 1, game.events.first_held - 1, game.events.first_held, 10**6):
                story = await hub.story(game_id, seq)
                upto = stored[: max(0, min(seq, game.state.seq)) + 1]
                state = engine.replay(registry.of(game.scenario), game.scenario, upto)
                assert story["views"]["orks"]["log"] == project(state, upto, "orks")["log"]
                assert story["seq"] == upto[-1].seq
            hub.games.evict(game)
            assert await hub.record(game_id) == make_record(game_id, game.header, stored)

    _run(test)


# --- two worlds: what the store is asked depends only on public counts ----------------------


class _Counting(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.reads: list[tuple[str, int]] = []

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        self.reads.append(("events", after))
        return super().events(game_id, after)

    def answers(self, game_id: str, after: int = -1) -> list[Answer]:
        self.reads.append(("answers", after))
        return super().answers(game_id, after)


def test_the_store_reads_of_a_view_and_a_retry_depend_only_on_public_counts() -> None:
    """Two games with different secrets (their own random bytes), played to the same public
    event count: the same views and retries ask the store the same things, and the held
    tails and answers have the same shape."""

    async def world(seed: int) -> tuple[list[tuple[str, int]], tuple[int, int], list[int]]:
        import random

        rng = random.Random(seed)
        store = _Counting()
        made = long_game(store, LONG, first_id="first", random_bytes=rng.randbytes)
        async with made as (hub, game_id, game):
            store.reads.clear()
            sizes = []
            for after in (-1, 2, game.events.first_held - 1):
                for observer in ("jungle", "orks"):
                    sizes.append(len((await hub.view(game_id, observer, after))["log"]))
            await hub.commands.command(game_id, "jungle", "first", NO_AMBUSHES)
            shape = (game.events.first_held, len(game.answers._held))
            return [(k, a) for k, a in store.reads], shape, sizes

    one = asyncio.run(world(1))
    two = asyncio.run(world(2))
    assert one == two
    assert answered.KEEP <= one[1][1] <= 2 * answered.KEEP
