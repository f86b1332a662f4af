"""Crash durability (TRUST.md R1): kill -9 a real ``ghillie serve`` again and again while a
client sends commands, and retry the command that was in flight with the same id.

Afterwards: every acknowledged command is in the log, at the seq it was acknowledged at;
none was applied twice; the log has no gaps; the SQLite file passes its integrity check.
``GHILLIE_KILLS`` sets the number of kills (60 by default; a nightly run may ask for 1000).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghillie.store.sql import SqlStore

STATS: Counter[str] = Counter()
KILLS = int(os.environ.get("GHILLIE_KILLS", "60"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A real ``ghillie serve`` process."""

    def __init__(self, db: Path, port: int) -> None:
        self.db, self.port = db, port
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "ghillie.cli",
            "serve",
            "--db",
            str(self.db),
            "--port",
            str(self.port),
        ]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, http.client.HTTPException):
                if request(self.port, "GET", "/api/health")[0] == 200:
                    return
            time.sleep(0.02)
        raise RuntimeError("ghillie serve did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # SIGKILL: no shutdown, no flush, no goodbye
            self.process.wait()


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    seat: str | None = None,
) -> tuple[int, Any]:
    """``seat``: the seat key of the device that holds the side's seat (X-Ghillie-Seat)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        headers = {"content-type": "application/json"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        if seat:
            headers["x-ghillie-seat"] = seat
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "ghillie.db", free_port())
    yield running
    running.kill()


class Player:
    """Plays grid-ambush as fast as the game allows: after both sides are ready, the side
    whose turn it is ends its phases, three per player turn."""

    def __init__(self, game: str, tokens: dict[str, str]) -> None:
        self.game, self.tokens = game, tokens
        self.given = 0

    def next(self) -> tuple[str, dict[str, Any]]:
        if self.given == 0:  # the Veterans' ambush orders: none (DWV-R04)
            return "jungle", {"type": "record_ambushes", "orders": []}
        if self.given == 1:
            return "jungle", {"type": "ready"}
        if self.given == 2:
            return "orks", {"type": "ready"}
        turn = (self.given - 3) // 3
        return ("jungle", "orks")[turn % 2], {"type": "end_phase"}


def test_no_acknowledged_command_is_lost_or_applied_twice_across_kill_9(server: Server) -> None:
    rng = random.Random(2026)
    server.start()
    status, created = request(server.port, "POST", "/api/games", {"scenario": "grid-ambush-table"})
    assert status == 201
    game = created["game_id"]
    tokens = {link["observer"]: link["url"].split("#")[1] for link in created["links"]}
    player = Player(game, tokens)
    acknowledged: dict[str, int] = {}

    def give(command_id: str, side: str, command: dict[str, Any]) -> None:
        """Send a command; record its acknowledged seq (a retry must get the first one)."""
        status, answer = request(
            server.port,
            "POST",
            f"/api/games/{game}/commands",
            {"command_id": command_id, "command": command},
            tokens[side],
        )
        assert status == 200, answer
        assert acknowledged.setdefault(command_id, answer["seq"]) == answer["seq"]

    in_doubt: tuple[str, str, dict[str, Any]] | None = None
    for kill in range(KILLS):
        if kill:
            server.start()
        killer = threading.Timer(rng.uniform(0.005, 0.15), server.kill)
        killer.start()
        while True:
            if in_doubt is None:
                side, command = player.next()
                command_id = f"cmd-{player.given}"
            else:
                command_id, side, command = in_doubt
            try:
                give(command_id, side, command)
            except (OSError, http.client.HTTPException):
                # Killed with this command in flight: it may or may not have been saved.
                in_doubt = (command_id, side, command)
                STATS["commands in doubt, retried"] += 1
                break
            in_doubt = None
            player.given += 1
        killer.join()
        STATS["kill -9 survived"] += 1
    server.start()
    if in_doubt is not None:
        give(*in_doubt)
    status, view = request(server.port, "GET", f"/api/games/{game}/view", token=tokens["referee"])
    server.kill()

    store = SqlStore(str(server.db))
    events = store.events(game)
    answers = {a.command_id: a.seq for a in store.answers(game)}
    assert store.integrity() == "ok"
    assert [e.seq for e in events] == list(range(len(events)))  # no gap, nothing twice
    assert view["seq"] == len(events) - 1
    for command_id, seq in acknowledged.items():
        assert answers[command_id] == seq, "an acknowledged command is missing or moved"
    assert len(events) - 1 == len(answers) == len(acknowledged)  # each applied exactly once
    STATS["acknowledged commands checked"] += len(acknowledged)
    store.close()
