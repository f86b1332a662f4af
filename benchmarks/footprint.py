"""Where a live, connected game's memory goes: the part ``served`` of ``benchmarks/memory.py``.

A real server (``run.build``'s app under uvicorn, with ``ghillie serve``'s options and
collector settings) runs on a thread of this process; ``benchmarks/pace.py``'s clients, in a
process of their own, connect both sides of each game by websocket and play it ahead, as
the pace benchmark does (half suspicious-places, half ambush-fields; half page-held). A warm
round first fills every cache; then, for the ``--served`` games measured:

- ``created``: the games made over HTTP, nobody connected;
- ``connected``: both sides connected and the games played ahead by 0 to ``--ahead`` commands;
- ``closed``: the client process killed, every connection closed by the server.

At each stage: RSS, tracemalloc's traced bytes and the objects the collector tracks
(``gc.get_objects``), each a game. ``connected − closed`` is what the connections cost (the
protocol objects, buffers, tasks, each side's last view); ``closed − start`` is what a held
game costs on its own. Then tracemalloc's top lines (where the bytes were allocated, by
the innermost frame of ghillie if there is one), the objects by type, and the deep size of
each part of a held game by what owns it (objects shared between games counted once).
"""

from __future__ import annotations

import argparse
import collections
import gc
import multiprocessing
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from unittest import mock

MB = 1024 * 1024
LATER = 10.0**9
FRAMES = 12  # tracemalloc frames kept: enough to reach ghillie's code from a library's


class Served:
    """The app on ``db`` served by uvicorn on a thread of this process."""

    def __init__(self, db: Path, games: int) -> None:
        import uvicorn

        from ghillie.server.limits import Limits
        from ghillie.server.run import build, serve

        limits = Limits(
            create_burst=10**6,
            create_burst_all=10**6,
            create_per_minute=1e9,
            create_per_minute_all=1e9,
            max_games=10 * games + 1000,
            idle_seconds=LATER,
            max_connections=4 * games + 1000,
        )
        self.app, self.store = build(str(db), limits)
        self.hub = self.app.state.hub
        self.port = _free_port()
        # run.serve's own options: it is called with uvicorn.run standing in to keep them.
        options: dict[str, Any] = {}
        with mock.patch.object(uvicorn, "run", lambda app, **kw: options.update(kw)):
            serve(self.app, "127.0.0.1", self.port, limits)
        config = uvicorn.Config(self.app, **options)
        self.server = uvicorn.Server(config)
        gc.collect()
        gc.freeze()  # as run.run
        gc.set_threshold(20_000, 20, 50)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.05)

    def watchers(self) -> int:
        return sum(len(g.watchers) for g in list(self.hub.games.held.values()))

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.hub.close()
        self.store.close()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def play_round(served: Served, first: int, games: int, pages: float, ahead: int) -> Any:
    """Create games ``first`` … as pace.py does, connect and play them ahead in a client
    process; the process, still connected, and a function that kills it and waits until
    the server has let every connection go."""
    import pace

    with ThreadPoolExecutor(8) as pool:
        created = list(
            pool.map(lambda n: pace.create(served.port, n, pages), range(first, first + games))
        )
    stage("created")
    mine, theirs = multiprocessing.get_context("spawn").Pipe()
    worker = multiprocessing.get_context("spawn").Process(
        target=pace.clients,
        args=(
            theirs,
            served.port,
            [
                (c, pace.pages_hold(n, pages), n)
                for n, c in zip(range(first, first + games), created, strict=True)
            ],
            ahead,
        ),
    )
    worker.start()
    pace.heard(mine, worker)
    mine.send(("ahead",))
    pace.heard(mine, worker)

    def close() -> None:
        worker.kill()
        worker.join()
        mine.close()
        while served.watchers():
            time.sleep(0.1)
        time.sleep(1.0)  # the connections' tasks end after their watchers go

    return close


_stages: dict[str, tuple[int, int, collections.Counter[str], Any]] = {}


def stage(name: str) -> None:
    """RSS, traced bytes and the collector's objects by type now, kept as ``name``."""
    gc.collect()
    types = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    traced, snap = 0, None
    if tracemalloc.is_tracing():
        traced = tracemalloc.get_traced_memory()[0]
        # Kept on disk: a snapshot held in memory is objects the next stage would count.
        snap = Path(tempfile.mkdtemp(prefix="ghillie-footprint-")) / name
        tracemalloc.take_snapshot().dump(str(snap))
    _stages[name] = (_rss(), traced, types, snap)


def _rss() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise LookupError("VmRSS")


def served_part(folder: Path, args: argparse.Namespace) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    n = args.served
    served = Served(folder / "served.db", n + args.warm)
    try:
        close = play_round(served, 0, args.warm, args.pages, args.ahead)
        close()
        if args.trace:
            tracemalloc.start(FRAMES)
        stage("start")
        close = play_round(served, args.warm, n, args.pages, args.ahead)
        stage("connected")
        print(
            f"connected: {served.watchers()} watchers, {len(served.hub.games.held)} games held",
            flush=True,
        )
        parts = owned(served.hub, list(served.hub.games.held.values())[args.warm :])
        close()
        stage("closed")
        report(n, parts)
    finally:
        served.stop()


def report(n: int, parts: dict[str, float]) -> None:
    print(
        f"{n} games measured (both sides connected by websocket, played ahead), each game:",
        flush=True,
    )
    print(f"  {'stage':12} {'RSS KB':>9} {'traced KB':>10} {'gc objects':>11}")
    start = _stages["start"]
    for name in ("created", "connected", "closed"):
        rss, traced, types, _ = _stages[name]
        objects = sum(types.values()) - sum(start[2].values())
        print(
            f"  {name:12} {(rss - start[0]) / n / 1024:9.1f} {(traced - start[1]) / n / 1024:10.1f}"
            f" {objects / n:11.0f}"
        )
    conn, closed = _stages["connected"], _stages["closed"]
    print(
        f"  the connections (connected − closed): "
        f"{(conn[1] - closed[1]) / n / 1024:.1f} KB traced, "
        f"{(sum(conn[2].values()) - sum(closed[2].values())) / n:.0f} objects a game; "
        f"the held game (closed − start): {(closed[1] - start[1]) / n / 1024:.1f} KB traced, "
        f"{(sum(closed[2].values()) - sum(start[2].values())) / n:.0f} objects a game"
    )
    print("\nby what owns it (deep sizes, KB a game; objects shared between games once):")
    for part, size in parts.items():
        print(f"  {part:28} {size / n / 1024:8.1f}")
    for label, then, now in (("held game", start, closed), ("connections", closed, conn)):
        print(f"\ngc objects by type, {label} (a game):")
        diff = now[2].copy()
        diff.subtract(then[2])
        for name, count in diff.most_common(14):
            print(f"  {count / n:8.1f}  {name}")
        if then[3] is None or now[3] is None:
            continue
        before = tracemalloc.Snapshot.load(str(then[3]))
        after = tracemalloc.Snapshot.load(str(now[3]))
        for how, ghillie, key, top in (
            ("by file, innermost ghillie frame", True, _file, 14),
            ("by line, innermost ghillie frame", True, _line, 20),
            ("by line, innermost frame", False, _line, 20),
        ):
            print(f"tracemalloc, {label}, {how} (KB and blocks a game):")
            for where, size, count in by_place(before, after, key, ghillie)[:top]:
                print(f"  {size / n / 1024:8.1f} KB {count / n:8.1f}  {where}")


def _file(frame: tracemalloc.Frame) -> str:
    return frame.filename


def _line(frame: tracemalloc.Frame) -> str:
    return f"{frame.filename}:{frame.lineno}"


def by_place(
    then: tracemalloc.Snapshot,
    now: tracemalloc.Snapshot,
    key: Callable[[tracemalloc.Frame], str],
    ghillie: bool,
) -> list[tuple[str, int, int]]:
    """The growth from ``then`` to ``now`` grouped by ``key`` of each trace's innermost frame
    in ghillie (with ``ghillie``, if it has one) or its innermost frame."""
    sizes: collections.Counter[str] = collections.Counter()
    counts: collections.Counter[str] = collections.Counter()
    for snapshot, sign in ((now, 1), (then, -1)):
        for stat in snapshot.statistics("traceback"):
            frames = list(stat.traceback)  # oldest first
            mine = [f for f in frames if ghillie and "/ghillie/" in f.filename]
            frame = (mine or frames)[-1]
            where = _short(key(frame))
            sizes[where] += sign * stat.size
            counts[where] += sign * stat.count
    return [(w, s, counts[w]) for w, s in sizes.most_common()]


def _short(filename: str) -> str:
    for marker in ("/site-packages/", "/src/", "/lib/python3.11/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


def owned(hub: Any, games: list[Any]) -> dict[str, float]:
    """Deep sizes of each part of these held games, by what owns it, in this order (a part
    reached from an earlier one is counted there)."""
    import asyncio
    import types

    from memory import deep_size

    skip = (
        type,
        types.ModuleType,
        types.FunctionType,
        types.BuiltinFunctionType,
        types.MethodType,
        asyncio.AbstractEventLoop,
        type(hub),
        type(hub.store),
    )
    seen: set[int] = set()
    sizes: dict[str, float] = collections.defaultdict(float)
    for game in games:
        ledger = game.ledger
        for part, value in {
            "ledger: chains": ledger.chains if ledger else None,
            "ledger: facts (trees, openings)": getattr(ledger, "facts", None),
            "ledger: the rest": ledger,
            "scenario": game.scenario,
            "header": game.header,
            "state (and its memo)": game.state,
            "events": game.events.since(game.events.first_held - 1),  # those held
            "answers": (game.answers._seq, game.answers._held),
            "shown (last view a reader)": game.shown,
            "spoken (worded parts)": game.spoken,
            "watchers (queues)": game.watchers,
            "seats": game.seats,
            "the rest of LiveGame": game,
        }.items():
            if value is not None:
                sizes[part] += deep_size(value, seen, skip)
    return dict(sizes)
