"""Limits a stranger without a link meets (issue 10, findings 4 and 8): game creation is
metered per address and overall, scenarios are bounded in size and depth and parsed off the
event loop, and idle games leave memory and come back exactly as they were."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ghillie import examples
from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.server.limits import CreationMeter, Limits
from ghillie.server.routes import games as game_routes
from ghillie.store import MemoryStore
from tests.scenarios import timeless

from .test_api import auth, give, new_game

TABLE = examples.file("grid-ambush-table")
LATER = 10.0**9  # a clock reading after every idle limit has passed


def serve(limits: Limits) -> tuple[Hub, Any]:
    hub = Hub(MemoryStore(), limits=limits)
    return hub, create_app(hub.store, hub=hub, limits=limits)


def problem(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = answer.json()
    assert body["code"] == code
    assert body["status"] == status
    return body


# --- creation is metered -----------------------------------------------------------------------


def test_one_address_creating_games_too_fast_gets_429_with_retry_after() -> None:
    _hub, app = serve(Limits(create_burst=3, create_per_minute=1))
    flooder = TestClient(app, client=("203.0.113.7", 1000))
    made = [flooder.post("/api/games", json={"scenario": "grid-ambush-table"}) for _ in range(3)]
    assert [a.status_code for a in made] == [201, 201, 201]
    refused = flooder.post("/api/games", json={"scenario": "grid-ambush-table"})
    body = problem(refused, 429, "too_many_requests")
    assert body["detail"] == "Too many games were created; try again later."
    assert int(refused.headers["retry-after"]) >= 1
    assert refused.headers["x-content-type-options"] == "nosniff"  # still a normal answer
    # Refused before its body is read: even a malformed body gets the 429.
    problem(flooder.post("/api/games", content=b"{not json"), 429, "too_many_requests")
    # Another address is not held up by this one...
    other = TestClient(app, client=("198.51.100.2", 1000))
    assert other.post("/api/games", json={"scenario": "grid-ambush-table"}).status_code == 201
    # ...and the rest of the API is not metered.
    game, tokens = new_game(other)
    assert flooder.get(f"/api/games/{game}/view", headers=auth(tokens["orks"])).status_code == 200


def test_many_addresses_together_are_bounded_by_the_overall_meter() -> None:
    _hub, app = serve(Limits(create_burst=100, create_burst_all=4, create_per_minute_all=1))
    statuses = [
        TestClient(app, client=(f"192.0.2.{n}", 1000))
        .post("/api/games", json={"scenario": "grid-ambush-table"})
        .status_code
        for n in range(6)
    ]
    assert statuses == [201, 201, 201, 201, 429, 429]


def test_the_meter_refills_at_its_rate_and_counts_an_ipv6_host_by_its_64() -> None:
    now = [0.0]
    meter = CreationMeter(
        Limits(create_burst=2, create_per_minute=6, create_burst_all=100), clock=lambda: now[0]
    )
    assert meter.admit("2001:db8::1") == 0
    assert meter.admit("2001:db8::2") == 0  # the same /64: the same bucket
    assert meter.admit("2001:db8::ffff") == pytest.approx(10.0)  # 6 a minute: one per 10 s
    assert meter.admit("2001:db8:0:1::1") == 0  # another /64
    now[0] = 10.0
    assert meter.admit("2001:db8::3") == 0
    assert meter.admit("2001:db8::3") > 0
    assert meter.admit("::ffff:192.0.2.1") == 0  # an IPv4 client over IPv6: its IPv4
    assert meter.admit("192.0.2.1") == 0
    assert meter.admit("192.0.2.1") > 0


# --- scenarios: bounded, refused clearly, parsed off the event loop ---------------------------


def test_a_scenario_over_the_size_limit_is_refused_with_413() -> None:
    _hub, app = serve(Limits(max_scenario=4096))
    client = TestClient(app)
    text = TABLE.read_text(encoding="utf-8")
    big = text + "\n" + "#" * 5000 + "\n"
    body = problem(client.post("/api/games", json={"scenario_toml": big}), 413, "too_large")
    assert body["detail"] == "A scenario may be at most 4 KiB."
    assert client.post("/api/games", json={"scenario_toml": text}).status_code == 201


@pytest.mark.parametrize(
    "body",
    [
        {"scenario_toml": "a = " + "[" * 5000 + "]" * 5000},
        {"scenario_toml": 'ruleset = "grid-ambush"\na = ' + "{b = " * 3000 + "1" + "}" * 3000},
        {"scenario_data": {"ruleset": "grid-ambush", "switches": {"x": "PLACEHOLDER"}}},
        "DEEP_JSON",
    ],
    ids=["toml-arrays", "toml-inline-tables", "json-within-the-parser's-depth", "json-deeper"],
)
def test_a_deeply_nested_scenario_is_refused_with_422_not_500(body: Any) -> None:
    _hub, app = serve(Limits())
    client = TestClient(app, raise_server_exceptions=False)
    if body == "DEEP_JSON":
        raw = b'{"scenario_data": {"a": ' + b"[" * 5000 + b"]" * 5000 + b"}}"
    else:
        if "scenario_data" in body:
            nested: Any = 1
            for _ in range(500):
                nested = {"n": nested}
            body["scenario_data"]["switches"]["x"] = nested
        raw = json.dumps(body).encode()
    answer = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
    refused = problem(answer, 422, "bad_scenario")
    assert "nests deeper than 32 levels" in refused["detail"]


def test_scenarios_are_parsed_and_games_set_up_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads: dict[str, set[int]] = {"parse": set(), "setup": set(), "loop": set()}
    parse, setup = game_routes.load_scenario, Hub.create

    def parsing(source: Any) -> Any:
        threads["parse"].add(threading.get_ident())
        return parse(source)

    from ghillie.fairness import referee

    first_event = referee.create

    def setting_up(*args: Any, **kwargs: Any) -> Any:
        threads["setup"].add(threading.get_ident())
        return first_event(*args, **kwargs)

    async def creating(self: Hub, *args: Any, **kwargs: Any) -> Any:
        threads["loop"].add(threading.get_ident())
        return await setup(self, *args, **kwargs)

    monkeypatch.setattr(game_routes, "load_scenario", parsing)
    monkeypatch.setattr(referee, "create", setting_up)
    monkeypatch.setattr(Hub, "create", creating)
    _hub, app = serve(Limits())
    with TestClient(app) as client:
        text = TABLE.read_text(encoding="utf-8")
        assert client.post("/api/games", json={"scenario_toml": text}).status_code == 201
    assert threads["loop"]
    assert threads["parse"]
    assert threads["setup"]
    assert not threads["parse"] & threads["loop"]
    assert not threads["setup"] & threads["loop"]


# --- idle games leave memory and come back exactly ---------------------------------------------


def views(client: TestClient, game: str, tokens: dict[str, str]) -> dict[str, Any]:
    return {
        observer: timeless(client.get(f"/api/games/{game}/view", headers=auth(token)).json())
        for observer, token in tokens.items()
    }


def test_an_evicted_game_comes_back_exactly_and_goes_on() -> None:
    hub, app = serve(Limits(idle_seconds=60))
    with TestClient(app) as client:
        game, tokens = new_game(client)
        order = {"type": "record_ambushes", "orders": [{"unit": "graw", "square": "D2"}]}
        first = give(client, game, tokens["jungle"], order, "c-1")
        assert first.status_code == 200
        assert give(client, game, tokens["orks"], {"type": "ready"}, "c-2").status_code == 200
        before = views(client, game, tokens)
        assert hub.games.sweep() == 0  # just used: it stays
        assert hub.games.sweep(now=LATER) == 1
        assert game not in hub.games.held
        assert views(client, game, tokens) == before  # reloaded from the store, the same
        assert game in hub.games.held
        hub.games.sweep(now=LATER)
        # A retried command id still gets its first answer, whatever it now says...
        again = give(client, game, tokens["jungle"], {"type": "end_phase"}, "c-1")
        assert again.json() == first.json()
        # ...and the game goes on.
        hub.games.sweep(now=LATER)
        nxt = give(client, game, tokens["jungle"], {"type": "ready"}, "c-3")
        assert (nxt.status_code, nxt.json()["seq"]) == (200, 3), nxt.text
        assert views(client, game, tokens)["referee"]["seq"] == 3


def test_at_most_max_games_stay_in_memory_the_least_recently_used_go_first() -> None:
    hub, app = serve(Limits(max_games=3))
    with TestClient(app) as client:
        games = [new_game(client) for _ in range(5)]
        assert set(hub.games.held) == {g for g, _ in games[2:]}
        oldest, tokens = games[0]
        seen = client.get(f"/api/games/{oldest}/view", headers=auth(tokens["orks"]))
        assert seen.status_code == 200
        assert set(hub.games.held) == {games[0][0], games[3][0], games[4][0]}
        # Asking for a game in memory makes it the most recently used.
        client.get(f"/api/games/{games[3][0]}/view", headers=auth(games[3][1]["orks"]))
        new_game(client)
        assert games[3][0] in hub.games.held
        assert games[4][0] not in hub.games.held  # the least recently asked for


def test_a_watched_game_is_never_evicted_and_a_full_server_refuses_new_games() -> None:
    hub, app = serve(Limits(max_games=2, idle_seconds=0))
    with TestClient(app) as client:
        watched = [new_game(client) for _ in range(2)]
        with contextlib.ExitStack() as sockets:
            for game, tokens in watched:
                socket = sockets.enter_context(client.websocket_connect(f"/api/games/{game}/ws"))
                socket.send_json({"type": "auth", "token": tokens["orks"]})
                assert socket.receive_json()["type"] == "view"
            assert hub.games.sweep(now=LATER) == 0
            busy = client.post("/api/games", json={"scenario": "grid-ambush-table"})
            problem(busy, 503, "busy")
        deadline = time.monotonic() + 10
        while any(hub.games.held[g].watchers for g, _ in watched) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert client.post("/api/games", json={"scenario": "grid-ambush-table"}).status_code == 201


def test_a_game_with_a_pending_roll_or_a_held_or_awaited_lock_is_not_evicted() -> None:
    async def play() -> None:
        hub = Hub(MemoryStore(), limits=Limits(idle_seconds=0))
        try:
            # A roll waiting for the pages' contributions (the game's first, here).
            pages = await hub.create(examples.load("grid-ambush-table"), clients=True)
            await hub.commands.anchor(pages.game_id, "jungle", "ab" * 32)
            await hub.commands.anchor(pages.game_id, "orks", "cd" * 32)
            assert hub.games.held[pages.game_id].pending is not None
            hosted = await hub.create(examples.load("grid-ambush-table"))
            game = await hub.games.live(hosted.game_id)
            async with game.lock:  # a command in the middle of something
                waiting = asyncio.create_task(hub.view(hosted.game_id, "orks"))
                queued = asyncio.create_task(_under(game.lock))
                await asyncio.sleep(0)
                assert hub.games.sweep(now=LATER) == 0
            await queued
            await waiting
            assert hub.games.sweep(now=LATER) == 1  # now nobody holds it: it goes
            assert set(hub.games.held) == {pages.game_id}
        finally:
            hub.close()

    asyncio.run(play())


async def _under(lock: asyncio.Lock) -> None:
    async with lock:
        pass


def test_an_evicted_page_held_game_comes_back_with_its_chains_and_goes_on() -> None:
    from ghillie.fairness.chains import Chain

    async def play() -> None:
        hub = Hub(MemoryStore(), limits=Limits(idle_seconds=0))
        try:
            created = await hub.create(examples.load("grid-ambush-table"), clients=True)
            game_id = created.game_id
            chains = {
                side: Chain.from_seed(bytes([n + 1]) * 32, 8)
                for n, side in enumerate(("jungle", "orks"))
            }
            for side, chain in chains.items():
                await hub.commands.anchor(game_id, side, chain.anchor.hex())
            assert hub.games.sweep(now=LATER) == 0  # the game's first roll waits for the pages
            for side, chain in chains.items():
                await hub.commands.contribute(game_id, side, 0, chain.element(0).hex())
            observers = ("jungle", "orks", "referee")
            before = [timeless(await hub.view(game_id, o)) for o in observers]
            assert hub.games.sweep(now=LATER) == 1
            assert [timeless(await hub.view(game_id, o)) for o in observers] == before
            hub.games.sweep(now=LATER)
            ready = asyncio.create_task(
                hub.commands.command(
                    game_id, "jungle", "r", {"type": "record_ambushes", "orders": []}
                )
            )
            while getattr(hub.games.held.get(game_id), "pending", None) is None:
                await asyncio.sleep(0.01)  # the command loads the game and asks for its roll
            for side, chain in chains.items():
                await hub.commands.contribute(game_id, side, 1, chain.element(1).hex())
            assert (await asyncio.wait_for(ready, 10))["seq"] == 1
            hub.games.sweep(now=LATER)
            again = await hub.commands.command(game_id, "jungle", "r", {"type": "end_phase"})
            assert again["seq"] == 1  # the first answer, after a reload
        finally:
            hub.close()

    asyncio.run(play())
