"""Load on loopback: many concurrent games, two clients per game, commands as fast as each
game allows, every command durable before it is acknowledged.

    .venv/bin/python benchmarks/load.py [--games 200] [--seconds 20] [--db sqlite|URL] [--http]

Starts a real ``ghillie serve`` (SQLite by default, in a temporary directory), creates the
games, connects both sides of each game by websocket, and then in every game the side whose
turn it is gives its next command (grid-ambush: end the phase) as soon as the previous one
has reached both sides. It reports commands accepted per second and the time from sending a
command to its update reaching both sides (p50, p99). The server runs in its own process,
the clients in this one; the machine has two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

import websockets


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(port: int, path: str, body: object, token: str | None = None) -> dict[str, object]:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), headers=headers
    )
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


class Game:
    def __init__(self, port: int, created: dict[str, object], use_http: bool) -> None:
        links = created["links"]
        assert isinstance(links, list)
        self.port, self.use_http = port, use_http
        self.id = str(created["game_id"])
        self.tokens = {link["observer"]: link["url"].split("#")[1] for link in links}
        self.sockets: dict[str, websockets.ClientConnection] = {}
        self.given = 0
        self.latencies: list[float] = []
        self.seen: dict[str, int] = {}

    def next(self) -> tuple[str, dict[str, object]]:
        if self.given == 0:
            return "jungle", {"type": "ready"}
        if self.given == 1:
            return "orks", {"type": "ready"}
        return ("jungle", "orks")[((self.given - 2) // 3) % 2], {"type": "end_phase"}

    async def connect(self) -> None:
        for side in ("jungle", "orks"):
            socket = await websockets.connect(
                f"ws://127.0.0.1:{self.port}/api/games/{self.id}/ws", max_size=None
            )
            await socket.send(json.dumps({"type": "auth", "token": self.tokens[side]}))
            view = json.loads(await socket.recv())["view"]
            self.seen[side] = view["seq"]
            self.sockets[side] = socket

    async def until_seen(self, side: str, seq: int) -> None:
        socket = self.sockets[side]
        while self.seen[side] < seq:
            message = json.loads(await socket.recv())
            if message["type"] == "update":
                self.seen[side] = max(entry["seq"] for entry in message["view"]["log"])

    async def play(self, stop: float) -> None:
        while time.perf_counter() < stop:
            side, command = self.next()
            sent = time.perf_counter()
            seq = self.seen["jungle"] + 1
            body = {"type": "command", "command_id": uuid.uuid4().hex, "command": command}
            if self.use_http:
                await asyncio.to_thread(
                    post,
                    self.port,
                    f"/api/games/{self.id}/commands",
                    {"command_id": body["command_id"], "command": command},
                    self.tokens[side],
                )
            else:
                await self.sockets[side].send(json.dumps(body))
            await asyncio.gather(self.until_seen("jungle", seq), self.until_seen("orks", seq))
            self.latencies.append(time.perf_counter() - sent)
            self.given += 1


async def run(port: int, games: int, seconds: float, use_http: bool) -> None:
    began = time.perf_counter()
    created = await asyncio.gather(
        *(
            asyncio.to_thread(post, port, "/api/games", {"scenario": "grid-ambush-table"})
            for _ in range(games)
        )
    )
    playing = [Game(port, c, use_http) for c in created]
    await asyncio.gather(*(game.connect() for game in playing))
    print(
        f"set up {games} games and {2 * games} websockets in {time.perf_counter() - began:.1f} s",
        flush=True,
    )
    start = time.perf_counter()
    await asyncio.gather(*(game.play(start + seconds) for game in playing))
    elapsed = time.perf_counter() - start
    latencies = sorted(x for game in playing for x in game.latencies)
    commands = len(latencies)
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(len(latencies) * 0.99)] * 1000
    print(
        f"{games} games, {2 * games} clients, {elapsed:.1f} s, commands over "
        f"{'HTTP' if use_http else 'websocket'}: {commands / elapsed:,.0f} commands/s accepted "
        f"and durable; command → both sides updated: p50 {p50:.1f} ms, p99 {p99:.1f} ms"
    )
    for game in playing:
        for socket in game.sockets.values():
            await socket.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--db", default="sqlite")
    parser.add_argument("--http", action="store_true", help="send commands over HTTP")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db") if args.db == "sqlite" else args.db
        port = free_port()
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "ghillie.cli", "serve", "--db", db, "--port", str(port)),
                # One client creates every game at once: lift the per-address meter.
                *("--create-burst", str(args.games), "--create-burst-all", str(args.games)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health")
                    break
                except OSError:
                    time.sleep(0.05)
            asyncio.run(run(port, args.games, args.seconds, args.http))
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
