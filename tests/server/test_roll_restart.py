"""A roll request outlives the process that asked (issue 10, finding 3): it is stored before any
page is shown it, a restarted hub — or another process on the same database — resumes that
very request, and no path signs a second, different request for the same roll. Every request
any side was shown is kept as a receipt, and the audit of the finished game must find each
one resolved as it was asked (a second request for a roll would be "superseded")."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from ghillie.errors import Refusal
from ghillie.fairness.audit import audit
from ghillie.fairness.chains import Chain
from ghillie.fairness.ledger import head_receipt
from ghillie.server.hub import Hub, LiveGame
from ghillie.server.problems import Problem
from ghillie.store import Append, EventStore, MemoryStore
from ghillie.store.sql import SqlStore
from ghillie.words.speak import speaker
from tests.scenarios import no_ambushers

SIDES = ("jungle", "orks")
Stores = Callable[[], EventStore]  # each call: one process's connection to the same database


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Stores]:
    """Opens the same database again for each hub, as a restarted process would."""
    opened: list[SqlStore] = []
    if request.param == "memory":
        shared = MemoryStore()
        yield lambda: shared
        return
    if request.param == "sqlite":
        url = str(tmp_path / "ghillie.db")
    else:
        url = os.environ.get("GHILLIE_TEST_POSTGRES", "")
        if not url:
            pytest.fail("GHILLIE_TEST_POSTGRES is not set: run the tests with scripts/test")

    def open_store() -> EventStore:
        store = SqlStore(url)
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()


class Pages:
    """The two sides' pages: their chains, and every request and head they were shown."""

    def __init__(self) -> None:
        self.chains = {side: Chain.fresh(64)[1] for side in SIDES}
        self.requests: list[dict[str, Any]] = []
        self.key = ""  # the host's key, as the status shows it (a page keeps it)

    def saw(self, view: dict[str, Any]) -> dict[str, Any] | None:
        self.key = self.key or view["fairness"]["key"]
        request = view["fairness"]["request"]
        if request is not None and request not in self.requests:
            self.requests.append(request)
        return request  # type: ignore[no-any-return]

    async def give(self, hub: Hub, game_id: str, side: str, k: int) -> dict[str, Any]:
        return await hub.commands.contribute(game_id, side, k, self.chains[side].element(k).hex())

    def receipts(self, record: dict[str, Any]) -> dict[str, Any]:
        heads = [head_receipt(e["seq"], e["fair"], SIDES) for e in record["events"]]
        requests = [
            {k: r[k] for k in ("game", "k", "side", "commitment", "prev", "order", "sig")}
            for r in self.requests
        ]
        return {side: {"key": self.key, "heads": heads, "requests": requests} for side in SIDES}


def _run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


async def _started(hub: Hub, pages: Pages) -> tuple[str, LiveGame]:
    """A game in play, at event 2 (both sides ready), where each side has more than one
    order it may give: so a second request for a roll would ask for another command."""
    created = await hub.create(no_ambushers(), clients=True)
    for side in SIDES:
        await hub.commands.anchor(created.game_id, side, pages.chains[side].anchor.hex())
    for side in SIDES:
        await pages.give(hub, created.game_id, side, 0)
    await _play(
        hub, created.game_id, pages, [("jungle", {"type": "ready"}), ("orks", {"type": "ready"})]
    )
    game = await hub.games.live(created.game_id)
    assert game.state.seq == 2
    return created.game_id, game


async def _asked(hub: Hub, game_id: str, task: asyncio.Task[Any], pages: Pages) -> dict[str, Any]:
    """Wait until the command's request is shown (or the command is answered)."""

    async def shown() -> dict[str, Any]:
        while True:
            request = pages.saw(await hub.view(game_id, "orks"))
            if request is not None or task.done():
                assert request is not None, task.result()
                return request
            await asyncio.sleep(0.001)

    return await asyncio.wait_for(shown(), 10)  # a bound, not a timing: fail, never hang


async def _refused(hub: Hub, game_id: str, side: str, command_id: str, raw: Any) -> Refusal:
    with pytest.raises(Refusal) as refused:
        # Bounded: a command that is asked for instead waits for the pages, who never come.
        await asyncio.wait_for(hub.commands.command(game_id, side, command_id, raw), 10)
    return refused.value


END_PHASE = {"type": "end_phase"}
END_GAME = {"type": "end_game"}
END = [("jungle", END_GAME)]


async def _play(hub: Hub, game_id: str, pages: Pages, steps: Sequence[tuple[str, Any]]) -> None:
    """Give each command and have both pages answer its roll."""
    game = await hub.games.live(game_id)
    for side, raw in steps:
        k = game.state.seq + 1
        task = asyncio.create_task(hub.commands.command(game_id, side, f"play{k}", raw))
        assert (await _asked(hub, game_id, task, pages))["k"] == k
        for party in SIDES:
            await pages.give(hub, game_id, party, k)
        await asyncio.wait_for(task, 10)


async def _finish(hub: Hub, game_id: str, pages: Pages) -> dict[str, Any]:
    """End the game through ``hub``; audit the record with every request the pages were
    shown as their receipts."""
    await _play(hub, game_id, pages, END)
    return await _audited(hub, game_id, pages)


async def _audited(hub: Hub, game_id: str, pages: Pages) -> dict[str, Any]:
    record = await hub.record(game_id)
    report = audit({**record, "receipts": pages.receipts(record)})
    assert report.ok, report.findings
    assert report.receipts == 2 * (len(record["events"]) + len(pages.requests))
    return record


def test_a_restart_between_the_request_and_the_contributions_resumes_the_same_request(
    stores: Stores,
) -> None:
    async def test() -> None:
        pages = Pages()
        first = Hub(stores())
        game_id, _ = await _started(first, pages)
        waiting = asyncio.create_task(first.commands.command(game_id, "jungle", "c1", END_PHASE))
        asked = await _asked(first, game_id, waiting, pages)
        assert asked["k"] == 3
        await pages.give(first, game_id, "jungle", 3)  # jungle's page answered; orks' not yet
        # The process dies: its waiting command and everything in memory go with it.
        waiting.cancel()
        first.close()

        hub = Hub(stores())
        try:
            view = await hub.view(game_id, "jungle")
            assert pages.saw(view) == asked  # the same signed request, shown again
            assert view["fairness"]["waiting"] == ["orks"]  # with jungle's element kept
            # A different command for roll 3 asks nobody for anything, and says why.
            busy = await _refused(hub, game_id, "orks", "o1", END_GAME)
            assert busy.code == "roll_pending"
            assert busy.detail == (
                "Roll 3 is waiting for the dice of this side's page (Ork warband), for an "
                "order Deathworld Veterans gave. Give yours once it is through."
            ), busy.detail
            # In Russian too (the roll protocol's words are the core's, with their arguments).
            assert busy.spoken(speaker("core", "ru")) == (
                "Бросок 3 ждёт кубов от страницы этой стороны (Ork warband) для приказа "
                "стороны «Deathworld Veterans». Отдайте свой приказ, когда он будет выполнен."
            )
            # The side whose order waits, giving a new one after the outage, is told so.
            again = await _refused(hub, game_id, "jungle", "c2", END_GAME)
            assert again.code == "roll_pending"
            assert again.detail == (
                "Your earlier order is still waiting for the dice of Ork warband (roll 3); it "
                "goes ahead once they are in. Give this order after it."
            ), again.detail
            assert pages.saw(await hub.view(game_id, "orks")) == asked
            # Jungle's page gives its element again after reconnecting: taken, not refused.
            assert (await pages.give(hub, game_id, "jungle", 3))["waiting"] == ["orks"]
            # The original command (same id) gets its answer once the roll resolves.
            retry = asyncio.create_task(hub.commands.command(game_id, "jungle", "c1", END_PHASE))
            await pages.give(hub, game_id, "orks", 3)
            answer = await asyncio.wait_for(retry, 10)
            assert answer["seq"] == 3
            assert answer["command_id"] == "c1"
            assert hub.store.pending_roll(game_id) is None  # cleared with its event
            assert await hub.commands.command(game_id, "jungle", "c1", END_PHASE) == answer
            game = await hub.games.live(game_id)
            assert (game.events[3].side, game.events[3].command) == ("jungle", END_PHASE)
            await _finish(hub, game_id, pages)
            assert [r["k"] for r in pages.requests] == [1, 2, 3, 4]  # one request per roll
        finally:
            hub.close()

    _run(test)


def test_after_a_restart_another_command_first_cannot_replace_the_waiting_one(
    stores: Stores,
) -> None:
    async def test() -> None:
        pages = Pages()
        first = Hub(stores())
        game_id, _ = await _started(first, pages)
        waiting = asyncio.create_task(first.commands.command(game_id, "jungle", "c1", END_PHASE))
        asked = await _asked(first, game_id, waiting, pages)
        waiting.cancel()
        first.close()  # killed before any page answered

        hub = Hub(stores())
        try:
            # Before anything else reaches the new process, the orks end the game. Without
            # the stored request, roll 3 was asked for again, for this: jungle's page, which
            # kept the first request, would then refuse it for good.
            busy = await _refused(hub, game_id, "orks", "o1", END_GAME)
            assert busy.code == "roll_pending"
            view = await hub.view(game_id, "orks")
            assert pages.saw(view) == asked
            assert view["fairness"]["waiting"] == list(SIDES)
            for side in SIDES:
                await pages.give(hub, game_id, side, 3)
            game = await hub.games.live(game_id)
            assert game.state.seq == 3
            assert (game.events[3].side, game.events[3].command) == ("jungle", END_PHASE)
            # Nobody waited for its answer; it is stored for the retry.
            assert (await hub.commands.command(game_id, "jungle", "c1", END_PHASE))["seq"] == 3
            await _finish(hub, game_id, pages)
        finally:
            hub.close()

    _run(test)


class FailsOnce(MemoryStore):
    """A database whose next write of events fails (a full disk, a lost connection)."""

    def __init__(self) -> None:
        super().__init__()
        self.fail = False

    def append_batch(self, batch: Sequence[Append]) -> list[Exception | None]:
        if self.fail:
            self.fail = False
            raise OSError("disk full")
        return super().append_batch(batch)


def test_a_failed_commit_reloads_the_stored_request_and_asks_nothing_new() -> None:
    async def test() -> None:
        pages = Pages()
        store = FailsOnce()
        hub = Hub(store)
        try:
            game_id, _ = await _started(hub, pages)
            waiting = asyncio.create_task(hub.commands.command(game_id, "jungle", "c1", END_PHASE))
            asked = await _asked(hub, game_id, waiting, pages)
            await pages.give(hub, game_id, "jungle", 3)
            store.fail = True
            await pages.give(hub, game_id, "orks", 3)  # completes the roll; its write fails
            with pytest.raises(Problem):
                await asyncio.wait_for(waiting, 10)
            # The game was reloaded from the store: the same request, jungle's element kept.
            view = await hub.view(game_id, "orks")
            assert pages.saw(view) == asked
            assert view["fairness"]["waiting"] == ["orks"]
            refused = await _refused(hub, game_id, "orks", "o1", END_GAME)
            assert refused.code == "roll_pending"
            retry = asyncio.create_task(hub.commands.command(game_id, "jungle", "c1", END_PHASE))
            await pages.give(hub, game_id, "orks", 3)
            assert (await asyncio.wait_for(retry, 10))["seq"] == 3
            await _finish(hub, game_id, pages)
        finally:
            hub.close()

    _run(test)


def test_two_processes_on_one_database_agree_on_one_request_per_roll(stores: Stores) -> None:
    async def test() -> None:
        pages = Pages()
        a, b = Hub(stores()), Hub(stores())
        try:
            game_id, _ = await _started(a, pages)
            assert (await b.games.live(game_id)).state.seq == 2
            waiting = asyncio.create_task(a.commands.command(game_id, "jungle", "c1", END_PHASE))
            asked = await _asked(a, game_id, waiting, pages)
            # B's copy knows nothing of A's request: its claim finds it, and the orks' order
            # through B is refused instead of asking for roll 3 a second time.
            busy = await _refused(b, game_id, "orks", "o1", END_GAME)
            assert busy.code == "roll_pending"
            assert pages.saw(await b.view(game_id, "orks")) == asked
            # Each page answers through another process; the elements meet in the store.
            await pages.give(a, game_id, "jungle", 3)
            await pages.give(b, game_id, "orks", 3)
            assert (await b.games.live(game_id)).state.seq == 3
            # A learns that B ruled on its request, and answers its waiting command.
            retry = await asyncio.wait_for(
                a.commands.command(game_id, "jungle", "c1", END_PHASE), 10
            )
            assert retry["seq"] == 3
            assert (await asyncio.wait_for(waiting, 10))["seq"] == 3
            await _finish(b, game_id, pages)
            assert [r["k"] for r in pages.requests] == [1, 2, 3, 4]
        finally:
            a.close()
            b.close()

    _run(test)


def test_a_process_that_is_behind_cannot_ask_again_for_a_resolved_roll(stores: Stores) -> None:
    async def test() -> None:
        pages = Pages()
        a, b = Hub(stores()), Hub(stores())
        try:
            game_id, _ = await _started(a, pages)
            stale = await b.games.live(game_id)
            await _play(a, game_id, pages, [("jungle", END_PHASE)])
            assert stale.state.seq == 2  # B never heard of event 3
            # The orks' order through B is tried on B's old copy, which accepts it for roll
            # 3; the claim finds roll 3 resolved, B catches up and asks for roll 4 instead.
            task = asyncio.create_task(b.commands.command(game_id, "orks", "o1", END_GAME))
            asked = await _asked(b, game_id, task, pages)
            assert asked["k"] == 4
            assert stale.state.seq == 3
            for side in SIDES:
                await pages.give(b, game_id, side, 4)
            assert (await asyncio.wait_for(task, 10))["seq"] == 4
            await _audited(b, game_id, pages)
            assert [r["k"] for r in pages.requests] == [1, 2, 3, 4]
        finally:
            a.close()
            b.close()

    _run(test)
