"""Memory per game, and other players' latency while strangers flood game creation.

    .venv/bin/python benchmarks/limits.py [--games 40] [--seconds 8]

1. Memory (tracemalloc, in this process, on a SQLite file): what one live game holds in the
   hub (host-held chains, and pages' chains), and what is left of it once it has been
   dropped from memory as idle (it then lives only in the database).
2. Latency: a real ``ghillie serve``; one player reads its view over and over (p50/p99 ms)
   — alone, then while 8 clients create games with a ~200 KB map scenario as fast as the
   server answers, once with the default creation limits and once with them lifted (so the
   figure shows parsing off the event loop alone). On a main without limits only the last
   two runs mean anything.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
import urllib.request
from pathlib import Path
from typing import Any

from ghillie import examples


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- 1. memory -------------------------------------------------------------------------------


def memory(games: int) -> None:
    from ghillie.server.hub import Hub
    from ghillie.store.sql import SqlStore

    async def measure(folder: str, clients: bool) -> tuple[float, float | None]:
        store = SqlStore(str(Path(folder) / f"memory-{clients}.db"))
        hub = Hub(store)
        scenario = examples.load("grid-ambush-table")
        try:
            await hub.create(scenario, clients=clients)  # warm every cache first
            gc.collect()
            tracemalloc.start()
            start = tracemalloc.get_traced_memory()[0]
            for _ in range(games):
                await hub.create(scenario, clients=clients)
            gc.collect()
            live = (tracemalloc.get_traced_memory()[0] - start) / games
            idle = None
            if hasattr(hub, "sweep"):
                hub.games.sweep(now=time.monotonic() + 10**9)
                gc.collect()
                idle = (tracemalloc.get_traced_memory()[0] - start) / games
            tracemalloc.stop()
            return live, idle
        finally:
            hub.close()
            store.close()

    with tempfile.TemporaryDirectory() as folder:
        for clients in (False, True):
            live, idle = asyncio.run(measure(folder, clients))
            kind = "pages hold the chains" if clients else "host-held chains     "
            after = f"{idle / 1024:8.1f} KB" if idle is not None else "  (no eviction)"
            print(
                f"memory per game, {kind}: live {live / 1024:8.1f} KB; after eviction {after}",
                flush=True,
            )


# --- 2. latency under a creation flood --------------------------------------------------------


def big_scenario() -> bytes:
    """A valid map scenario of ~200 KB: many small terrain features."""
    data: dict[str, Any] = examples.data("suspicious-places")
    terrain = list(data["terrain"])
    for n in range(1600):
        x, y = 1 + (n % 70), 1 + (n // 70) % 46
        terrain.append(
            {
                "name": f"Bush {n}",
                "kind": "wood",
                "cover": "soft",
                "outline": [[x, y], [x + 0.5, y], [x + 0.5, y + 0.5], [x, y + 0.5]],
            }
        )
    data["terrain"] = terrain
    return json.dumps({"scenario_data": data, "chains": "host"}).encode()


def serve(db: str, port: int, extra: list[str], pythonpath: str | None) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    command = [sys.executable, "-m", "ghillie.cli", "serve", "--db", db, "--port", str(port)]
    process = subprocess.Popen(
        command + extra, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1)
            return process
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the server did not start")


def player(port: int, game: str, token: str, stop: float, out: list[float]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while time.perf_counter() < stop:
        began = time.perf_counter()
        conn.request("GET", f"/api/games/{game}/view", headers={"authorization": f"Bearer {token}"})
        conn.getresponse().read()
        out.append(time.perf_counter() - began)
        time.sleep(0.01)


def flooder(port: int, body: bytes, stop: float, counts: dict[int, int]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while time.perf_counter() < stop:
        try:
            conn.request(
                "POST", "/api/games", body=body, headers={"content-type": "application/json"}
            )
            response = conn.getresponse()
            response.read()
            counts[response.status] = counts.get(response.status, 0) + 1
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)


def latency(seconds: float, pythonpath: str | None) -> None:
    body = big_scenario()
    print(f"flood scenario: {len(body) / 1024:.0f} KB", flush=True)
    runs = [("alone", [], False), ("flood, default limits", [], True)]
    runs.append(
        (
            "flood, limits lifted",
            [
                "--create-burst",
                "1000000",
                "--create-burst-all",
                "1000000",
                "--max-games",
                "1000000",
                "--max-scenario",
                "10000000",
            ],
            True,
        )
    )
    with tempfile.TemporaryDirectory() as folder:
        for name, extra, flood in runs:
            port = free_port()
            try:
                process = serve(str(Path(folder) / f"{port}.db"), port, extra, pythonpath)
            except RuntimeError:
                # main has no limit flags: its server takes none.
                process = serve(str(Path(folder) / f"{port}.db"), port, [], pythonpath)
            try:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/games",
                    data=json.dumps({"scenario": "grid-ambush-table"}).encode(),
                    headers={"content-type": "application/json"},
                )
                created = json.load(urllib.request.urlopen(request))
                game = created["game_id"]
                token = created["links"][0]["url"].split("#")[1]
                stop = time.perf_counter() + seconds
                times: list[float] = []
                counts: dict[int, int] = {}
                threads = [threading.Thread(target=player, args=(port, game, token, stop, times))]
                if flood:
                    threads += [
                        threading.Thread(target=flooder, args=(port, body, stop, counts))
                        for _ in range(8)
                    ]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                times.sort()
                p50 = statistics.median(times) * 1000
                p99 = times[int(len(times) * 0.99)] * 1000
                answers = ", ".join(f"{n}× {s}" for s, n in sorted(counts.items())) or "-"
                print(
                    f"{name:24s}: player's view p50 {p50:6.1f} ms, p99 {p99:7.1f} ms, "
                    f"max {times[-1] * 1000:7.1f} ms ({len(times)} reads); creations: {answers}",
                    flush=True,
                )
            finally:
                process.kill()
                process.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--pythonpath", help="run the server from another source tree")
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    if not args.skip_memory:
        memory(args.games)
    latency(args.seconds, args.pythonpath)


if __name__ == "__main__":
    main()
