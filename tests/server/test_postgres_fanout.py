"""Two server processes on one PostgreSQL: a command given through one reaches the pages
connected to the other (NOTIFY as the wake-up, the events read from the database), and a
process whose copy of a game is behind catches up instead of refusing or forking the log."""

from __future__ import annotations

import json
import statistics
import time
import uuid

from websockets.sync.client import connect

from .test_durability import Server, request


def _give(
    server: Server, game: str, token: str, command: dict[str, object]
) -> tuple[int, dict[str, object]]:
    return request(
        server.port,
        "POST",
        f"/api/games/{game}/commands",
        {"command_id": uuid.uuid4().hex, "command": command},
        token,
    )


def test_a_command_through_one_process_is_pushed_by_the_other(
    two_servers: tuple[Server, Server],
) -> None:
    a, b = two_servers
    status, created = request(a.port, "POST", "/api/games", {"scenario": "grid-ambush-table"})
    assert status == 201
    game = created["game_id"]
    tokens = {link["observer"]: link["url"].split("#")[1] for link in created["links"]}
    delays = []
    with connect(f"ws://127.0.0.1:{b.port}/api/games/{game}/ws") as orks_on_b:
        orks_on_b.send(json.dumps({"type": "auth", "token": tokens["orks"]}))
        assert json.loads(orks_on_b.recv(timeout=10))["view"]["seq"] == 0
        # jungle, through A: its ambush orders (none, DWV-R04), then ready. B pushes each
        # to the orks.
        orders = {"type": "record_ambushes", "orders": []}
        for seq, command in enumerate((orders, {"type": "ready"}), 1):
            sent = time.perf_counter()
            assert _give(a, game, tokens["jungle"], command)[0] == 200
            update = json.loads(orks_on_b.recv(timeout=10))
            delays.append(time.perf_counter() - sent)
            assert update["type"] == "update"
            assert [entry["seq"] for entry in update["view"]["log"]] == [seq]
        # orks, through B (which may or may not have caught up yet): ready.
        status, answer = _give(b, game, tokens["orks"], {"type": "ready"})
        assert (status, answer["seq"]) == (200, 3)
        assert json.loads(orks_on_b.recv(timeout=10))["view"]["phase"] == "play"
        # jungle's three phases through A, whose copy of the game is one event behind at
        # first: it catches up. Then the orks' first two phases through B.
        for server, side in [(a, "jungle")] * 3 + [(b, "orks")] * 2:
            sent = time.perf_counter()
            status, answer = _give(server, game, tokens[side], {"type": "end_phase"})
            assert status == 200, answer
            json.loads(orks_on_b.recv(timeout=10))
            delays.append(time.perf_counter() - sent)
    status, view = request(b.port, "GET", f"/api/games/{game}/view", token=tokens["referee"])
    assert [entry["seq"] for entry in view["log"]] == list(range(9))
    median, worst = statistics.median(delays) * 1000, max(delays) * 1000
    print(f"\ncommand to the other process's socket: median {median:.1f} ms, max {worst:.1f} ms")
