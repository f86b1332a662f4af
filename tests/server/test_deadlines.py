"""The server keeps reaction windows' time limits (ghillie.server.deadlines): when one runs
out the host answers with the default, every side's page is told, a restarted server
reschedules from the recorded end, and two processes on one database time out once."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ghillie.fairness.audit import audit
from ghillie.fairness.chains import Chain
from ghillie.scenario import parse_scenario
from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.store import EventStore, MemoryStore
from ghillie.store.sql import SqlStore

from ..timed import TimedScenario, registered, scenario
from .test_api import auth, give

__all__ = ["registered"]  # the fixture, used by name

pytestmark = pytest.mark.usefixtures("registered")
TIMED_OUT = "Time ran out: Red hold fire."


def _texts(view: dict[str, Any]) -> list[str]:
    return [line["text"] for entry in view["log"] for line in entry["said"]]


def test_the_server_answers_for_a_side_whose_time_ran_out_and_both_pages_see_it() -> None:
    with TestClient(create_app(MemoryStore())) as client:
        body = client.post("/api/games", json={"scenario_data": scenario(limit=1)}).json()
        game = body["game_id"]
        tokens = {link["observer"]: link["url"].split("#", 1)[1] for link in body["links"]}
        with client.websocket_connect(f"/api/games/{game}/ws") as red:
            red.send_json({"type": "auth", "token": tokens["red"]})
            assert red.receive_json()["view"]["you"] == "red"
            assert give(client, game, tokens["blue"], {"type": "step"}, "s1").status_code == 200
            asked = red.receive_json()["view"]
            # Red's page is asked, with the limit and its end to count down from.
            assert asked["reaction"]["waiting_for"] == "red"
            assert asked["reaction"]["limit"] == 1
            assert [c["type"] for c in asked["commands"]] == ["shoot", "end_game"]
            blue_view = client.get(f"/api/games/{game}/view", headers=auth(tokens["blue"])).json()
            assert blue_view["reaction"] == asked["reaction"]  # the same for every side
            started = time.monotonic()
            timed_out = red.receive_json()["view"]  # nobody gives anything: the host does
            assert time.monotonic() - started < 2
            assert timed_out["reaction"] is None  # gone: the page stops counting down
            assert TIMED_OUT in _texts(timed_out)
            assert "shoot" not in [c["type"] for c in timed_out["commands"]]
        for side in ("blue", "red"):
            view = client.get(f"/api/games/{game}/view", headers=auth(tokens[side])).json()
            assert "reaction" not in view
            assert _texts(view)[-2:] == [TIMED_OUT, "Red hold fire."]
        # Red's answer, late, is refused: the window has closed.
        late = give(client, game, tokens["red"], {"type": "shoot", "fire": True}, "s2")
        assert late.json()["code"] == "not_your_turn"
        assert give(client, game, tokens["blue"], {"type": "end_game"}, "s3").status_code == 200
        record = client.get(f"/api/games/{game}/record", headers=auth(tokens["blue"])).json()
        assert [e["command"] for e in record["events"]][2] == {"type": "time_out", "window": 1}
        assert audit(record).ok


def _timed(limit: int = 1) -> TimedScenario:
    parsed = parse_scenario(TimedScenario, scenario(limit))
    assert isinstance(parsed, TimedScenario)
    return parsed


def _commands(store: EventStore, game_id: str) -> list[Any]:
    return [e.command for e in store.events(game_id)]


def test_a_restarted_server_times_out_the_window_left_open(tmp_path: Path) -> None:
    url = str(tmp_path / "ghillie.db")

    async def play() -> None:
        stopped = SqlStore(url)
        first = Hub(stopped)
        past = (await first.create(_timed())).game_id
        await first.commands.command(past, "blue", "s1", {"type": "step"})
        first.close()  # the process stops with the window open; its timer goes with it
        stopped.close()  # and its connections (left open, PostgreSQL's would warn when freed)
        await asyncio.sleep(1.1)  # and the time runs out while no server runs
        store = SqlStore(url)
        again = Hub(store)
        try:
            assert _commands(store, past)[-1] == {"type": "step"}
            await again.games.live(past)  # a page reconnects: the game is loaded ...
            await asyncio.sleep(0.3)  # ... and, its end past, timed out at once
            assert _commands(store, past)[-1] == {"type": "time_out", "window": 1}
            fresh = (await again.create(_timed())).game_id
            await again.commands.command(fresh, "blue", "s1", {"type": "step"})
        finally:
            again.close()
        later = Hub(store)
        try:
            await later.games.live(fresh)  # loaded again before its end: timed for what is left
            assert later.deadlines.timed() == {fresh: 1}
            await asyncio.sleep(0.3)
            assert _commands(store, fresh)[-1] == {"type": "step"}
            await asyncio.sleep(1.0)
            assert _commands(store, fresh)[-1] == {"type": "time_out", "window": 1}
        finally:
            later.close()
            store.close()

    asyncio.run(play())


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_a_server_starting_up_times_windows_and_waiting_rolls_nobody_opens(
    tmp_path: Path, kind: str
) -> None:
    """Issue 24, finding 9: after a restart a running timer used to wait until someone
    loaded the game. A server now loads, at start-up, every game with a timed window open or
    a roll waiting for the pages, and times it out with nobody asking."""
    url = str(tmp_path / "ghillie.db")

    async def play() -> None:
        store: EventStore = SqlStore(url) if kind == "sqlite" else MemoryStore()
        first = Hub(store)
        game = (await first.create(_timed())).game_id
        idle = (await first.create(_timed())).game_id  # nothing timed in it
        await first.commands.command(game, "blue", "s1", {"type": "step"})
        assert store.timed() == [game]
        first.close()
        again = Hub(store)
        try:
            assert await again.resume_timers() == 1
            assert again.games.get(idle) is None
            await asyncio.sleep(1.4)  # nobody opens the game: its time runs out all the same
            assert _commands(store, game)[-1] == {"type": "time_out", "window": 1}
            assert store.timed() == []  # the window closed: nothing timed is left
        finally:
            again.close()

    asyncio.run(play())


@pytest.fixture
def postgres() -> str:
    url = os.environ.get("GHILLIE_TEST_POSTGRES", "")
    if not url:
        pytest.fail("GHILLIE_TEST_POSTGRES is not set: run the tests with scripts/test")
    return url


async def _until(done: Callable[[], bool], seconds: float) -> None:
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "not within the time"
        await asyncio.sleep(0.05)


def test_two_processes_on_one_database_both_time_out_and_the_record_has_one(
    postgres: str,
) -> None:
    async def play() -> None:
        a, b = SqlStore(postgres), SqlStore(postgres)
        one, two = Hub(a), Hub(b)
        try:
            game_id = (await one.create(_timed())).game_id
            watching = await two.games.live(game_id)
            two.fanout.watch(watching, "red")  # a page on the other process: it follows the game
            await one.commands.command(game_id, "blue", "s1", {"type": "step"})
            await two.sync.refresh(game_id)  # what NOTIFY would wake it for
            assert one.deadlines.timed() == two.deadlines.timed() == {game_id: 1}
            # Both timers fire; one time-out is ruled, the other loses the race (its write
            # clashes, or it finds the window closed) and is refused when it looks again.
            await _until(lambda: not one.deadlines.timed() and not two.deadlines.timed(), 4)
            commands = _commands(a, game_id)
            assert commands.count({"type": "time_out", "window": 1}) == 1
            assert len(commands) == 3
            await two.sync.refresh(game_id)
            assert (await one.games.live(game_id)).state == (await two.games.live(game_id)).state
        finally:
            one.close()
            two.close()
            a.close()
            b.close()

    asyncio.run(play())


def test_a_side_that_answers_in_time_is_not_timed_out() -> None:
    async def play() -> None:
        store = MemoryStore()
        hub = Hub(store)
        try:
            game_id = (await hub.create(_timed())).game_id
            await hub.commands.command(game_id, "blue", "s1", {"type": "step"})
            await hub.commands.command(game_id, "red", "a1", {"type": "shoot", "fire": True})
            assert hub.deadlines.timed() == {}  # the answer closed the window: no timer
            await asyncio.sleep(1.2)
            assert _commands(store, game_id)[-1] == {"type": "shoot", "fire": True}
            # A timer that fires late anyway (another process's, say) changes nothing.
            with pytest.raises(Exception, match="window_closed"):
                await hub.time_out(game_id, 1)
            assert len(store.events(game_id)) == 3
        finally:
            hub.close()

    asyncio.run(play())


def test_in_a_game_whose_pages_hold_their_chains_the_time_out_waits_for_their_dice() -> None:
    """A time-out is an event like any other: its roll asks every page for its element, and
    the pages' status shows it is asked for with no side (the host's). It never waits for the
    side whose time ran out (its page may be the one that is away): the roll goes on once the
    others are in, drawn without that side's element, and the event says so."""

    async def play() -> None:
        store = MemoryStore()
        hub = Hub(store)
        chains = {side: Chain.fresh(16)[1] for side in ("blue", "red")}

        async def give(game_id: str, k: int, sides: tuple[str, ...] = ("blue", "red")) -> None:
            for side in sides:
                await hub.commands.contribute(game_id, side, k, chains[side].element(k).hex())

        try:
            game_id = (await hub.create(_timed(), clients=True)).game_id
            for side, chain in chains.items():
                await hub.commands.anchor(game_id, side, chain.anchor.hex())
            await give(game_id, 0)
            step = asyncio.create_task(
                hub.commands.command(game_id, "blue", "s1", {"type": "step"})
            )
            await _until(lambda: (store.pending_roll(game_id) or Nothing).k == 1, 2)
            await give(game_id, 1)
            await step
            # The time runs out: the host asks for roll 2, for its time-out, and waits for
            # blue's page alone: red's time ran out.
            await _until(lambda: (store.pending_roll(game_id) or Nothing).k == 2, 2)
            fairness = (await hub.view(game_id, "red"))["fairness"]
            assert fairness["request"]["side"] is None
            assert fairness["waiting"] == ["blue"]
            assert fairness["without"] == ["red"]
            assert _commands(store, game_id)[-1] == {"type": "step"}
            await give(game_id, 2, ("blue",))
            await _until(lambda: len(store.events(game_id)) == 3, 2)
            timed_out = store.events(game_id)[-1]
            assert _commands(store, game_id)[-1] == {"type": "time_out", "window": 1}
            assert timed_out.fair is not None
            assert timed_out.fair["missing"] == ["red"]
            assert set(timed_out.fair["contributions"]) == {"blue"}
            # Red's page goes on with its next element: it links across the roll it missed.
            step = asyncio.create_task(
                hub.commands.command(game_id, "blue", "s2", {"type": "step"})
            )
            await _until(lambda: (store.pending_roll(game_id) or Nothing).k == 3, 2)
            await give(game_id, 3)
            await step
            assert len(store.events(game_id)) == 4
        finally:
            hub.close()

    asyncio.run(play())


class Nothing:
    k = -1
