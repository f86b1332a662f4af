"""Memory of live games, eviction of idle ones, and start-up over many stored games (issue 15).

    .venv/bin/python benchmarks/memory.py [--games 10000] [--trace-games 200] [--reload 2000]

Four parts, each in a process of its own (so that one's RSS is not another's), sharing one
temporary directory (``--dir`` keeps it):

- ``live``: one Hub on a SQLite file creates ``--games`` host-held games, the bundled
  scenarios in equal blocks, with limits that evict nothing, and plays a few commands in
  each (each side's ``ready`` when it has one, then random legal ones from
  ``candidates``). RSS (VmRSS) before and after, per game for each scenario's block.
- ``trace``: what a live game's memory is made of: tracemalloc over ``--trace-games`` new
  games of each scenario (top 15 lines), and the deep size of each part of a ``LiveGame``.
- ``evict``: a Hub with the default Limits over the games ``live`` stored: ``--reload`` of
  them are asked for one after another (at most ``max_games`` stay), then a sweep past
  ``idle_seconds``; a dropped game comes back on its next request with the same seq and
  the same views as in ``live``, and goes on.
- ``startup``: each call of a start-up (``SqlStore``, ``check``, ``Hub``, ``create_app``)
  and a real ``ghillie serve`` to its first ``/api/health``, over stores holding 0, 1,000
  and ``--games`` games.

``--part`` runs one of them (on a ``--dir`` holding what ``live`` left there). With the
defaults it takes ~25 minutes on two cores (live ~9, trace ~15, startup and evict ~1 each)
and ~6 GB of memory at its peak; ``--games 1000 --trace-games 20 --long-games 5`` takes ~3.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import types
import urllib.request
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import footprint  # benchmarks/ is no package: this folder is on the path
import orjson

from ghillie import examples
from ghillie.errors import Refusal

PARTS = ("live", "trace", "startup", "evict", "served")
MB = 1024 * 1024
LATER = 10.0**9


def rss() -> int:
    """This process's resident set (VmRSS), in bytes."""
    return _status("VmRSS")


def peak() -> int:
    return _status("VmHWM")


def _status(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise LookupError(field)


def settled_rss() -> int:
    gc.collect()
    return rss()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def blocks(games: int) -> list[tuple[str, int]]:
    """``games`` split between the bundled scenarios: (scenario, how many), in order."""
    names = examples.names()
    return [(name, games // len(names) + (i < games % len(names))) for i, name in enumerate(names)]


# --- playing ------------------------------------------------------------------------------------


async def play(
    hub: Any, game_id: str, rng: random.Random, commands: int, prefix: str = "c"
) -> tuple[int, int]:
    """Each side's ``ready`` if it has one, then random legal commands (never ``end_game``)
    until ``commands`` were accepted or too many were refused; (accepted, refused). Command
    ids are ``prefix`` and a number (an id given again gets its first answer, nothing new)."""
    game = await hub.games.live(game_id)
    ruleset = game.state.ruleset
    accepted = refused = n = 0

    async def give(side: str, command: Mapping[str, Any]) -> None:
        nonlocal accepted, refused, n
        n += 1
        try:
            await hub.commands.command(game_id, side, f"{prefix}{n}", command)
            accepted += 1
        except Refusal:
            refused += 1

    for side in game.state.sides:
        ready = [c for c in ruleset.candidates(game.state, side) if c.get("type") == "ready"]
        if ready:
            await give(side, ready[0])
    tries = 0
    while accepted < commands and tries < commands * 5:
        tries += 1
        side = rng.choice(game.state.sides)
        options = [c for c in ruleset.candidates(game.state, side) if c.get("type") != "end_game"]
        if options:
            await give(side, rng.choice(options))
    return accepted, refused


async def fingerprint(hub: Any, game_id: str) -> dict[str, Any]:
    """A game's seq and every observer's whole view, as JSON would carry it."""
    from ghillie.state import REFEREE, SPECTATOR

    game = await hub.games.live(game_id)
    views = {}
    for observer in (*game.state.sides, REFEREE, SPECTATOR):
        views[observer] = orjson.loads(orjson.dumps(await hub.view(game_id, observer)))
    return {"seq": game.state.seq, "views": views}


def differences(then: Any, now: Any, path: str = "") -> list[str]:
    """Where two JSON values differ: ``path: then -> now`` (a number that is an int in one
    and a float in the other is a difference too: the bytes sent differ)."""
    if type(then) is not type(now):
        return [f"{path}: {then!r} -> {now!r}"[:160]]
    if isinstance(then, dict):
        out = []
        for key in sorted(set(then) | set(now)):
            if key not in then or key not in now:
                out.append(f"{path}/{key}: {'gone' if key in then else 'new'}")
            else:
                out += differences(then[key], now[key], f"{path}/{key}")
        return out
    if isinstance(then, list):
        if len(then) != len(now):
            return [f"{path}: {len(then)} items -> {len(now)}"]
        return [
            d
            for i, (a, b) in enumerate(zip(then, now, strict=True))
            for d in differences(a, b, f"{path}[{i}]")
        ]
    return [] if then == now else [f"{path}: {then!r} -> {now!r}"[:160]]


async def in_parallel(count: int, workers: int, job: Callable[[int], Awaitable[None]]) -> None:
    """``job(0)`` … ``job(count - 1)``, at most ``workers`` at a time."""
    numbers = iter(range(count))

    async def worker() -> None:
        for n in numbers:
            await job(n)

    await asyncio.gather(*(worker() for _ in range(min(workers, count))))


# --- live: RSS of many live games -----------------------------------------------------------------


async def live_part(folder: Path, args: argparse.Namespace) -> None:
    from ghillie.server.hub import Hub
    from ghillie.server.limits import Limits
    from ghillie.store.sql import SqlStore

    started = time.perf_counter()
    empty = rss()
    store = SqlStore(str(folder / "games.db"))
    hub = Hub(store, limits=Limits(max_games=args.games + 1000, idle_seconds=LATER))
    rng = random.Random(args.seed)
    try:
        # Warm every cache (scenario parsing, rulesets, maps) with one game of each, in a
        # store of its own, so the first block is not charged for them.
        warm_store = SqlStore(str(folder / "warm.db"))
        warm = Hub(warm_store, limits=Limits(max_games=100))
        for name in examples.names():
            created = await warm.create(examples.load(name))
            await play(warm, created.game_id, rng, args.commands)
            await fingerprint(warm, created.game_id)
        warm.close()
        warm_store.close()
        del warm
        before = settled_rss()
        print(
            f"RSS: {empty / MB:.0f} MB after imports, {before / MB:.0f} MB with the hub and "
            "every scenario's caches warm (no game held)",
            flush=True,
        )
        print(
            f"{'scenario':24} {'games':>6} {'events':>7} {'refused':>7} {'RSS +MB':>8} "
            f"{'KB/game':>8} {'s':>6}",
            flush=True,
        )
        ids: dict[str, list[str]] = {}
        samples: dict[str, dict[str, Any]] = {}
        stopped = None
        for name, count in blocks(args.games):
            block_start, at = time.perf_counter(), rss()
            made: list[str] = []
            totals = [0, 0]

            async def one(
                n: int, name: str = name, made: list[str] = made, totals: list[int] = totals
            ) -> None:
                created = await hub.create(examples.load(name))
                made.append(created.game_id)
                game_rng = random.Random(f"{args.seed}/{name}/{n}")
                accepted, refused = await play(hub, created.game_id, game_rng, args.commands)
                totals[0] += accepted + 1  # and event 0, the game's creation
                totals[1] += refused

            await in_parallel(count, args.concurrency, one)
            ids[name] = made
            for game_id in made[: args.samples]:
                samples[game_id] = {"scenario": name, **await fingerprint(hub, game_id)}
            after = settled_rss()
            print(
                f"{name:24} {count:6} {totals[0] / count:7.1f} {totals[1] / count:7.1f} "
                f"{(after - at) / MB:8.1f} {(after - at) / count / 1024:8.1f} "
                f"{time.perf_counter() - block_start:6.1f}",
                flush=True,
            )
            if after > args.max_rss_gb * 1024 * MB:
                stopped = f"stopped: RSS passed --max-rss-gb {args.max_rss_gb}"
                print(stopped, flush=True)
                break
        games = sum(len(made) for made in ids.values())
        after = settled_rss()
        print(
            f"total: {games} games live in the hub ({len(hub.games.held)} held), "
            f"RSS {before / MB:.0f}"
            f" -> {after / MB:.0f} MB (peak {peak() / MB:.0f} MB): "
            f"{(after - before) / games / 1024:.1f} KB a game; "
            f"{(after - before) / games * 10_000 / (1024 * MB) + before / (1024 * MB):.2f} GB "
            f"at 10,000; {time.perf_counter() - started:.0f} s",
            flush=True,
        )
    finally:
        hub.close()
        store.close()
    db = folder / "games.db"
    print(
        f"store: {db.stat().st_size / MB:.1f} MB on disk for {games} games "
        f"({db.stat().st_size / games / 1024:.1f} KB a game)",
        flush=True,
    )
    (folder / "live.json").write_text(json.dumps({"ids": ids, "samples": samples}))


# --- trace: what a live game's memory is made of ------------------------------------------------


_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def deep_size(root: Any, seen: set[int], skip: tuple[type, ...]) -> int:
    """Bytes of ``root`` and everything it reaches that is not in ``seen`` (then added)."""
    total, stack = 0, [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def parts_of(game: Any) -> dict[str, Any]:
    """A live game cut in the parts worth naming, in the order they are sized (a part
    reached from an earlier one is counted there: the state holds the scenario)."""
    ledger = game.ledger
    return {
        "ledger.chains": ledger.chains if ledger else None,
        "ledger.rosters": ledger.rosters if ledger else None,
        "ledger (rest)": ledger,
        "scenario": game.scenario,
        "header": game.header,
        "state": game.state,
        "events": game.events.since(game.events.first_held - 1),  # those held
        "answers": (game.answers._seq, game.answers._held),
        "shown": game.shown,
        "the rest": game,
    }


async def traced(
    hub: Any, name: str, games: int, commands: int, workers: int
) -> tuple[list[tracemalloc.StatisticDiff], list[str]]:
    """Create and play ``games`` games of ``name`` under tracemalloc: what they left."""
    made: list[str] = []

    async def one(n: int) -> None:
        created = await hub.create(examples.load(name))
        made.append(created.game_id)
        await play(hub, created.game_id, random.Random(f"t/{name}/{commands}/{n}"), commands)

    gc.collect()
    tracemalloc.start()
    first = tracemalloc.take_snapshot()
    await in_parallel(games, workers, one)
    gc.collect()
    last = tracemalloc.take_snapshot()
    tracemalloc.stop()
    ignore = [
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap*>"),
    ]
    return last.filter_traces(ignore).compare_to(first.filter_traces(ignore), "lineno"), made


async def trace_part(folder: Path, args: argparse.Namespace) -> None:
    from ghillie.server.hub import Hub
    from ghillie.server.limits import Limits
    from ghillie.store.sql import SqlStore

    store = SqlStore(str(folder / "trace.db"))
    games = (args.trace_games + args.long_games) * len(examples.names()) + 100
    hub = Hub(store, limits=Limits(max_games=games, idle_seconds=LATER))
    skip = (*_SKIP, asyncio.AbstractEventLoop, Hub, SqlStore)
    rng = random.Random(args.seed)
    overall: dict[str, int] = {}
    structure: dict[str, dict[str, float]] = {}
    growth: list[str] = []
    try:
        for name in examples.names():  # warm every cache first
            created = await hub.create(examples.load(name))
            await play(hub, created.game_id, rng, args.commands)
        for name in examples.names():
            stats, made = await traced(hub, name, args.trace_games, args.commands, args.concurrency)
            total = sum(s.size_diff for s in stats)
            n = len(made)
            events = sum(len(hub.games.held[g].events) for g in made) / n
            print(
                f"\n{name}: {total / n / 1024:.1f} KB traced a game ({n} games, {events:.1f} "
                "events each); top 15 lines (KB a game, blocks a game):",
                flush=True,
            )
            for stat in stats[:15]:
                frame = stat.traceback[0]
                where = _short(frame.filename) + f":{frame.lineno}"
                print(
                    f"  {stat.size_diff / n / 1024:8.1f} KB {stat.count_diff / n:8.1f}  {where}"
                    f"  {_line(frame.filename, frame.lineno)}",
                    flush=True,
                )
            for stat in stats:
                frame = stat.traceback[0]
                key = f"{_short(frame.filename)}:{frame.lineno}"
                overall[key] = overall.get(key, 0) + stat.size_diff
            # The same games cut by their structure: objects shared between games (interned
            # strings, cached maps) are counted once, in the first game that reaches them.
            # ``shown`` is filled here, after the trace: one watcher of each side's view.
            seen: set[int] = set()
            sizes: dict[str, float] = {}
            counts: dict[str, float] = {"n events": 0.0, "n chains": 0.0, "event JSON": 0.0}
            for game_id in made:
                game = hub.games.held[game_id]
                for side in game.state.sides:  # what one watcher a side was last shown
                    watcher = hub.fanout.watch(game, side)
                    await hub.fanout.watch_view(game, watcher)
                    hub.fanout.unwatch(game, watcher)
                for part, value in parts_of(game).items():
                    if value is not None:
                        sizes[part] = sizes.get(part, 0.0) + deep_size(value, seen, skip)
                counts["n events"] += len(game.events)
                counts["n chains"] += len(game.ledger.chains.chains) if game.ledger else 0
                counts["event JSON"] += sum(
                    _json_size(e) for e in game.events.since(game.events.first_held - 1)
                )
            structure[name] = {k: v / n for k, v in {**sizes, **counts}.items()}
            parts = ", ".join(f"{k} {v / n / 1024:.1f}" for k, v in sizes.items())
            print(
                f"  by part (deep sizes, KB a game): {parts}; {counts['n events'] / n:.1f} events "
                f"({counts['event JSON'] / n / 1024:.1f} KB as JSON), "
                f"{counts['n chains'] / n:.1f} chains",
                flush=True,
            )
            if args.long_games:
                # Longer games: what each further event adds to a live game.
                more, long_made = await traced(
                    hub, name, args.long_games, args.long_commands, args.concurrency
                )
                long_total = sum(s.size_diff for s in more) / len(long_made)
                long_events = sum(len(hub.games.held[g].events) for g in long_made) / len(long_made)
                slope = (long_total - total / n) / max(long_events - events, 1e-9)
                growth.append(
                    f"  {name:24} {events:5.1f} events {total / n / 1024:7.1f} KB | "
                    f"{long_events:5.1f} events {long_total / 1024:7.1f} KB | "
                    f"{slope / 1024:5.1f} KB an event"
                )
    finally:
        hub.close()
        store.close()
    everyone = len(examples.names()) * args.trace_games
    print("\nevery scenario together: top 15 lines (KB a game, averaged over scenarios)")
    for key, size in sorted(overall.items(), key=lambda kv: -kv[1])[:15]:
        filename, lineno = key.rsplit(":", 1)
        print(f"  {size / everyone / 1024:8.1f} KB  {key}  {_line(filename, int(lineno))}")
    names = list(next(iter(structure.values())))
    print("\nby part (deep sizes), KB a game:")
    print(f"  {'scenario':24}" + "".join(f"{n[:14]:>15}" for n in names))
    for name, row in structure.items():
        cells = "".join(
            f"{row.get(n, 0.0) / (1 if n.startswith('n ') else 1024):15.1f}" for n in names
        )
        print(f"  {name:24}{cells}")
    if growth:
        print(
            f"\ngrowth with play (traced KB a game: {args.commands} commands tried, then "
            f"{args.long_commands}; {args.long_games} long games a scenario):"
        )
        print("\n".join(growth))


def _json_size(event: Any) -> int:
    from ghillie.events import event_to_json

    return len(orjson.dumps(event_to_json(event)))


_SOURCES = {"src": Path(__file__).resolve().parents[1] / "src"}


def _short(filename: str) -> str:
    for marker in ("/site-packages/", "/src/", "/lib/python3"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


def _line(filename: str, lineno: int) -> str:
    path = Path(filename)
    if not path.is_absolute():
        path = _SOURCES["src"] / filename
    try:
        return path.read_text(encoding="utf-8").splitlines()[lineno - 1].strip()[:70]
    except (OSError, IndexError, UnicodeDecodeError):
        return ""


# --- evict: idle games leave memory and come back ---------------------------------------------


async def evict_part(folder: Path, args: argparse.Namespace) -> None:
    from ghillie.server.hub import Hub
    from ghillie.store.sql import SqlStore

    known = json.loads((folder / "live.json").read_text())
    ids: dict[str, list[str]] = known["ids"]
    samples: dict[str, dict[str, Any]] = known["samples"]
    store = SqlStore(str(folder / "games.db"))
    hub = Hub(store)  # the default Limits
    limits = hub.limits
    try:
        before = settled_rss()
        print(
            f"default Limits: max_games {limits.max_games}, idle_seconds "
            f"{limits.idle_seconds:.0f}; RSS {before / MB:.0f} MB with no game held",
            flush=True,
        )
        # Ask for --reload games, the scenarios in turn: each is replayed from the store.
        order = [g for row in zip(*ids.values(), strict=False) for g in row]
        order = [g for g in order if g not in samples][: args.reload]
        took: list[float] = []
        most = 0
        for game_id in order:
            start = time.perf_counter()
            await hub.games.live(game_id)
            took.append(time.perf_counter() - start)
            most = max(most, len(hub.games.held))
        held = len(hub.games.held)
        after = settled_rss()
        took.sort()
        print(
            f"asked for {len(order)} stored games one after another: at most {most} held at "
            f"once, {held} held now; RSS {after / MB:.0f} MB (peak {peak() / MB:.0f} MB); "
            f"a reload takes {statistics.median(took) * 1000:.1f} ms median, "
            f"{took[int(len(took) * 0.99)] * 1000:.1f} ms p99",
            flush=True,
        )
        now = time.monotonic() + limits.idle_seconds + 1
        dropped = hub.games.sweep(now=now)
        swept = settled_rss()
        print(
            f"sweep {limits.idle_seconds:.0f} s later: {dropped} dropped, {len(hub.games.held)} "
            f"held; RSS {swept / MB:.0f} MB ({(after - swept) / MB:+.0f} MB back)",
            flush=True,
        )
        same = equal = 0
        shown: set[str] = set()
        for game_id, then in samples.items():
            start = time.perf_counter()
            await hub.games.live(game_id)
            back = time.perf_counter() - start
            now_ = await fingerprint(hub, game_id)
            found = [
                f"{observer}{where}"
                for observer, view in then["views"].items()
                for where in differences(view, now_["views"].get(observer))
            ]
            exact = now_["seq"] == then["seq"] and not found
            same += exact
            # Python's == takes 48 and 48.0 as equal, as JSON readers do.
            equal += now_["seq"] == then["seq"] and now_["views"] == then["views"]
            if exact:
                verdict = "every observer's view the same"
            elif now_["views"] == then["views"]:
                verdict = f"views equal as JSON values; {len(found)} numbers changed type"
            else:
                verdict = f"views DIFFER in {len(found)} places"
            print(
                f"  {then['scenario']:24} seq {then['seq']:3} -> {now_['seq']:3}, {verdict} "
                f"(reloaded in {back * 1000:.1f} ms)",
                flush=True,
            )
            if found and then["scenario"] not in shown:
                shown.add(then["scenario"])
                for line in found[:6]:
                    print(f"      {line}", flush=True)
        print(
            f"dropped games asked for again: {len(samples)}; same seq and byte-identical views "
            f"for every observer: {same}; same seq and views equal as JSON values: {equal}",
            flush=True,
        )
        # And they go on: a few more commands in each.
        given = exact_seq = 0
        for game_id, then in samples.items():
            accepted, _ = await play(hub, game_id, random.Random(game_id), 2, prefix="again-")
            game = await hub.games.live(game_id)
            given += accepted
            exact_seq += game.state.seq == then["seq"] + accepted
        print(
            f"then {given} more commands were accepted in them, and in {exact_seq} of "
            f"{len(samples)} the seq moved on by exactly the commands accepted",
            flush=True,
        )
        hub.games.sweep(now=LATER)
    finally:
        hub.close()
        store.close()


# --- startup: does it grow with the stored games? ---------------------------------------------


def keep_only(source: Path, target: Path, keep: list[str]) -> None:
    """A copy of the store ``source`` with only the games ``keep``."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)
    with contextlib.closing(sqlite3.connect(target, isolation_level=None)) as db:
        db.execute("CREATE TEMP TABLE keep (game_id TEXT PRIMARY KEY)")
        db.executemany("INSERT INTO keep VALUES (?)", [(g,) for g in keep])
        db.execute("BEGIN")
        for table in ("events", "answers", "pending_rolls", "seats", "tokens", "games"):
            db.execute(f"DELETE FROM {table} WHERE game_id NOT IN (SELECT game_id FROM keep)")
        db.execute("COMMIT")
        db.execute("VACUUM")


def stored_games(path: Path) -> tuple[int, int]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
        events = db.execute("SELECT count(*) FROM events").fetchone()[0]
    return int(games), int(events)


def timed(function: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = function()
    return time.perf_counter() - start, out


def in_process(path: Path) -> dict[str, float]:
    """Each call ``ghillie serve`` makes before it listens, timed."""
    from ghillie.server.app import create_app
    from ghillie.server.hub import Hub
    from ghillie.server.limits import Limits
    from ghillie.store.sql import SqlStore

    limits = Limits()
    out: dict[str, float] = {}
    out["SqlStore()"], store = timed(lambda: SqlStore(str(path)))
    out["check()"], _ = timed(store.check)
    with store.engine.connect() as conn:
        out["  quick_check"], _ = timed(lambda: conn.exec_driver_sql("PRAGMA quick_check").scalar())
    out["Hub()"], hub = timed(lambda: Hub(store, limits=limits))
    out["create_app()"], _ = timed(lambda: create_app(store, hub=hub, limits=limits))
    hub.close()
    store.close()
    return out


def serve_to_health(path: Path) -> float:
    """Seconds from starting ``ghillie serve`` to its first answer on /api/health."""
    port = free_port()
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    command = [sys.executable, "-m", "ghillie.cli", "serve", "--db", str(path), "--port", str(port)]
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    try:
        while time.perf_counter() - start < 120:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                    return time.perf_counter() - start
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError("the server stopped") from None
                time.sleep(0.01)
        raise RuntimeError("the server did not start")
    finally:
        process.terminate()
        process.wait()


def startup_part(folder: Path, args: argparse.Namespace) -> None:
    known = json.loads((folder / "live.json").read_text())
    ids: dict[str, list[str]] = known["ids"]
    full = folder / "games.db"
    stored = sum(len(made) for made in ids.values())
    sizes = sorted({0, *(s for s in args.startup_sizes if s < stored), stored})
    stores: list[tuple[int, Path]] = []
    for size in sizes:
        path = folder / f"startup-{size}.db"
        if size == stored:
            shutil.copyfile(full, path)  # a copy: the evict part uses games.db afterwards
        elif size == 0:
            from ghillie.store.sql import SqlStore

            SqlStore(str(path)).close()
        else:
            each = -(-size // len(ids))
            keep_only(full, path, [g for made in ids.values() for g in made[:each]][:size])
        stores.append((size, path))
    for _size, path in stores:
        in_process(path)  # warm: imports and the file in the page cache
    print(
        f"{'stored games':>12} {'events':>8} {'MB':>7} | "
        + " ".join(f"{k:>13}" for k in in_process(stores[0][1]))
        + " | serve to /api/health",
        flush=True,
    )
    for _size, path in stores:
        runs = [in_process(path) for _ in range(args.runs)]
        calls = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        serve = sorted(serve_to_health(path) for _ in range(args.runs))
        games, events = stored_games(path)
        print(
            f"{games:12} {events:8} {path.stat().st_size / MB:7.1f} | "
            + " ".join(f"{v * 1000:10.1f} ms" for v in calls.values())
            + f" | {statistics.median(serve) * 1000:7.0f} ms (of {args.runs}: "
            + ", ".join(f"{s * 1000:.0f}" for s in serve)
            + ")",
            flush=True,
        )


# --- main ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="live games (part live)")
    parser.add_argument("--commands", type=int, default=6, help="random commands a game")
    parser.add_argument("--trace-games", type=int, default=200, help="games a scenario, traced")
    parser.add_argument("--long-games", type=int, default=20, help="longer games a scenario")
    parser.add_argument("--long-commands", type=int, default=60, help="commands a long game")
    parser.add_argument("--reload", type=int, default=2000, help="stored games asked for again")
    parser.add_argument("--samples", type=int, default=3, help="games a scenario checked back")
    parser.add_argument("--startup-sizes", type=int, nargs="*", default=[1000])
    parser.add_argument("--runs", type=int, default=3, help="start-ups timed for each store")
    parser.add_argument("--concurrency", type=int, default=4, help="games set up at once")
    parser.add_argument("--max-rss-gb", type=float, default=12.0, help="stop creating beyond")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--served", type=int, default=400, help="games connected (part served)")
    parser.add_argument("--warm", type=int, default=20, help="games played first (part served)")
    parser.add_argument("--pages", type=float, default=0.5, help="share page-held (served)")
    parser.add_argument("--ahead", type=int, default=6, help="commands played ahead (served)")
    parser.add_argument(
        "--no-trace", dest="trace", action="store_false", help="part served without tracemalloc"
    )
    parser.add_argument("--part", choices=("all", *PARTS), default="all")
    parser.add_argument("--dir", help="where the stores go (kept); a temporary one otherwise")
    args = parser.parse_args()
    if args.part != "all":
        if not args.dir:
            parser.error("--part needs --dir (where part live left its store)")
        folder = Path(args.dir)
        folder.mkdir(parents=True, exist_ok=True)
        if args.part == "live":
            asyncio.run(live_part(folder, args))
        elif args.part == "trace":
            asyncio.run(trace_part(folder, args))
        elif args.part == "evict":
            asyncio.run(evict_part(folder, args))
        elif args.part == "served":
            footprint.served_part(folder, args)
        else:
            startup_part(folder, args)
        return
    with contextlib.ExitStack() as stack:
        if args.dir:
            folder = Path(args.dir)
            folder.mkdir(parents=True, exist_ok=True)
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="ghillie-mem-")))
        passed = [
            f"--games={args.games}",
            f"--commands={args.commands}",
            f"--trace-games={args.trace_games}",
            f"--long-games={args.long_games}",
            f"--long-commands={args.long_commands}",
            f"--reload={args.reload}",
            f"--samples={args.samples}",
            "--startup-sizes",
            *map(str, args.startup_sizes),
            f"--runs={args.runs}",
            f"--concurrency={args.concurrency}",
            f"--max-rss-gb={args.max_rss_gb}",
            f"--seed={args.seed}",
            f"--served={args.served}",
            f"--warm={args.warm}",
            f"--pages={args.pages}",
            f"--ahead={args.ahead}",
            *(() if args.trace else ("--no-trace",)),
        ]
        for part in PARTS:
            print(f"\n=== {part} ===", flush=True)
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, __file__, *passed, "--part", part, "--dir", str(folder)],
                check=True,
            )
            print(f"({part}: {time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
