"""A table's pace, one process: many live games, each giving a command every few seconds.

    .venv/bin/python benchmarks/pace.py [--games 10000] [--every 10] [--seconds 60]
        [--pages 0.5] [--ahead 6] [--clients N] [--tally 300] [--gc-threshold a,b,c]
        [--gc-freeze S]

Starts a real ``ghillie serve`` (SQLite in a temporary directory; the creation meter lifted,
room for every connection and every game in memory), creates the games, half
``suspicious-places`` and half ``ambush-fields`` (the two scenarios ``benchmarks/mix.py``'s
scripted players can play), a share ``--pages`` of each with their chains held by the pages
and the rest by the host, connects both sides of every game by websocket and plays each
game ahead by up to ``--ahead`` commands, so that the window does not open on set-ups alone.
None of that is measured; its time is printed, with how many games were ready and how many
dropped (a side's websocket not open, with its view, after a few tries: ``benchmarks/table.py``),
and how many connections were opened again.

Then, open loop, every game gives its next command at Poisson-distributed times, ``--every``
seconds apart on average (``benchmarks/table.py``: how the commands are chosen, how a page
plays its part in the rolls, and how a command that waits for its game's previous one is
counted: from when it came due). Printed for the commands that came due in the
``--seconds`` window: commands/s, p50/p99/p99.9 from coming due to both sides holding the
update (a command not done when the window's stragglers are given up counts as infinitely
late), the same by who holds the chains and for the kinds of command (holder and type)
with the longest p99s, the server's CPU in cores and a command, its RSS memory (the window's
peak, the process's peak since it started, and at the end, from /proc), its garbage collections and
the event loop's longest stalls in the window (``benchmarks/pauses.py``, from a probe the
server is started with: ``--gc-threshold`` and ``--gc-freeze`` try other collector
settings), the clients' CPU and pauses (a client collects no garbage in the window: a
phone's pause is not the server's), and, from
the referee's log of a sample of the games, how many commands rolled dice or opened committed
facts (and wrote commitments, in the games over by then: the host keeps that part of the log
private until a game ends); and the commands refused. No figure is judged here.

The clients run in ``--clients`` processes (by default one per 7,500 websockets: a process
may hold no more than 20,000 open files here), each on uvloop with picows and orjson, no task
a command; their CPU is printed beside the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import math
import multiprocessing
import multiprocessing.connection
import os
import random
import resource
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # benchmarks/ is no package: this folder is on the path
import mix
import pauses
import table

CONNECTING = 200  # websockets being opened at once by one client process
AHEAD = 300.0  # seconds at most for the games to be played ahead (a lost game never is)
GRACE = 30.0  # seconds after the window for the commands due in it to be done


def pages_hold(n: int, share: float) -> bool:
    """Whether game ``n``'s pages hold its chains: ``share`` of the games, spread evenly."""
    return int((n + 1) * share) > int(n * share)


def scenario_of(n: int) -> str:
    # In pairs, so that an even split of page-held games covers both scenarios alike.
    return mix.SCENARIOS[(n // 2) % len(mix.SCENARIOS)]


def create(port: int, n: int, share: float) -> dict[str, Any]:
    """Game ``n``, as the clients need it: its id, scenario and links (no QR codes)."""
    scenario = scenario_of(n)
    body = {"scenario": scenario, "chains": "clients" if pages_hold(n, share) else "host"}
    made = load.post(port, "/api/games", body)
    links = [{"observer": x["observer"], "url": x["url"]} for x in made["links"]]  # type: ignore[attr-defined]
    return {"game_id": made["game_id"], "scenario": scenario, "links": links}


# --- one client process ---------------------------------------------------------------------


def clients(
    pipe: multiprocessing.connection.Connection,
    port: int,
    games: list[tuple[dict[str, Any], bool, int]],
    ahead: int,
) -> None:
    """A client process: its share of the games, played as the parent says (``work``)."""
    uvloop.run(work(pipe, port, games, ahead))


async def work(
    pipe: multiprocessing.connection.Connection,
    port: int,
    games: list[tuple[dict[str, Any], bool, int]],
    ahead: int,
) -> None:
    tally = table.Tally()
    opening = asyncio.Semaphore(CONNECTING)
    playing = [table.TableGame(port, c, pages, seed, tally, opening) for c, pages, seed in games]
    watching = asyncio.create_task(watch(playing))
    progress = asyncio.create_task(told(playing, tally))
    ready = await asyncio.gather(*(game.connect() for game in playing))
    # A game whose sides could not all be opened is dropped (counted: Tally.lost).
    playing = [game for game, ok in zip(playing, ready, strict=True) if ok]
    dropped = tally.lost
    # Every process connected before any plays ahead: handshakes do not queue behind play.
    pipe.send(("connected",))
    await asyncio.to_thread(pipe.recv)
    for game in playing:
        game.play_ahead(game.rng.randint(0, ahead))
    await until(lambda: not any(behind(game) for game in playing), time.monotonic() + AHEAD)
    progress.cancel()
    set_up = {
        "games ready": len(playing),
        "dropped": dropped,
        "given up while playing ahead": tally.lost - dropped,
        "still playing ahead": sum(behind(game) for game in playing),
        "refused": sum(tally.refused.values()),
        "replaced": tally.replaced,
        "openings tried again": tally.retries,
        "reconnected": tally.reconnects,
        "stalled": tally.stalls,
        "problems": sum(tally.problems.values()),
    }
    pipe.send(("ready", set_up))
    go, seconds, every = await asyncio.to_thread(pipe.recv)
    # No collection in the window: a client stands in for the players' phones, and a full
    # collection of the views it holds stalled it up to 0.4 s (its own probe), adding to
    # the latency of every command in flight as if the server had been slow. What it throws
    # away meanwhile is JSON, freed by reference counting; what it held is frozen.
    gc.collect()
    gc.freeze()
    gc.disable()
    tally.window = (go, go + seconds)
    tally.refused.clear()
    tally.problems.clear()
    tally.replaced = tally.retries = tally.reconnects = tally.stalls = tally.lost = 0
    for game in playing:
        game.paced(go, every, go + seconds + GRACE)
    await asyncio.sleep(go + seconds - time.monotonic())
    await until(lambda: not any(game.unfinished() for game in playing), go + seconds + GRACE)
    unfinished = sum(game.unfinished() for game in playing)
    gc.enable()
    pipe.send(("done", tally, unfinished))
    watching.cancel()
    for game in playing:
        game.end()


def behind(game: table.TableGame) -> bool:
    """Commands still to be played ahead, in a game that may yet play them."""
    return bool(game.due) and not game.given_up


async def told(games: list[table.TableGame], tally: table.Tally) -> None:
    """How the set-up goes, every 30 s (to the standard error): a long one is not silent."""
    while True:
        await asyncio.sleep(30.0)
        seats = [seat for game in games for seat in game.seats.values()]
        print(
            f"client process {os.getpid()}: {sum(g.started for g in games):,} of {len(games):,} "
            f"games with both views in, {sum(s.transport is not None for s in seats):,} of "
            f"{len(seats):,} websockets open ({sum(s.viewed is not None for s in seats):,} "
            f"opening), {sum(behind(g) for g in games):,} games playing ahead; openings tried "
            f"again {tally.retries:,}, reconnected {tally.reconnects:,}, stalled "
            f"{tally.stalls:,}, games given up {tally.lost:,}",
            file=sys.stderr,
            flush=True,
        )


async def watch(playing: list[table.TableGame]) -> None:
    """Every game's connections checked for stalls (TableGame.watch), every two seconds."""
    while True:
        await asyncio.sleep(2.0)
        now = time.monotonic()
        for game in playing:
            game.watch(now)


async def until(done: Any, deadline: float) -> None:
    while not done() and time.monotonic() < deadline:
        await asyncio.sleep(0.2)


# --- the parent: the server, the games, the figures ----------------------------------------


class Server:
    """The server process's CPU and memory, from /proc."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0  # the window's, kB

    def memory(self) -> dict[str, int]:
        with open(f"/proc/{self.pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f)
        return {k: int(fields[k].split()[0]) for k in ("VmRSS", "VmHWM")}

    def watch(self, end: float) -> None:
        """The RSS peak until ``end``, sampled every half second."""
        while time.monotonic() < end:
            self.peak = max(self.peak, self.memory()["VmRSS"])
            time.sleep(min(0.5, max(0.0, end - time.monotonic())))


def referee_view(port: int, game_id: str, token: str, after: int) -> dict[str, Any]:
    """The referee's view, its log after seq ``after``."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games/{game_id}/view?after={after}",
        headers={"authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request) as response:
        return orjson.loads(response.read())  # type: ignore[no-any-return]


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000 if ordered else math.nan


def run(args: argparse.Namespace, port: int, server: Server, log: Path) -> None:
    began = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        created = list(pool.map(lambda n: create(port, n, args.pages), range(args.games)))
    made = time.monotonic() - began
    processes = args.clients or math.ceil(2 * args.games / 7500)
    context = multiprocessing.get_context("spawn")
    pipes, workers = [], []
    for p in range(processes):
        games = [
            (created[n], pages_hold(n, args.pages), n) for n in range(p, args.games, processes)
        ]
        mine, theirs = context.Pipe()
        worker = context.Process(target=clients, args=(theirs, port, games, args.ahead))
        # Probed too (their own log): a client's pause delays the commands it measures as
        # surely as the server's, and must be told apart from it.
        with pauses.probed(log.with_name("clients.log")):
            worker.start()
        pipes.append(mine)
        workers.append(worker)
    try:
        for pipe, worker in zip(pipes, workers, strict=True):
            heard(pipe, worker)
        for pipe in pipes:
            pipe.send(("ahead",))
        set_up: collections.Counter[str] = collections.Counter()
        for pipe, worker in zip(pipes, workers, strict=True):
            set_up.update(heard(pipe, worker)[1])
        held = sum(pages_hold(n, args.pages) for n in range(args.games))
        print(
            f"set up {args.games:,} games ({' + '.join(mix.SCENARIOS)}; {held:,} with their chains"
            f" held by the pages, {args.games - held:,} by the host) and {2 * args.games:,} "
            f"websockets in {time.monotonic() - began:.0f} s, not measured: created in "
            f"{made:.0f} s, then connected and played ahead by 0 to {args.ahead} commands each "
            f"by {processes} client process(es) (picows, orjson, uvloop): "
            + ", ".join(f"{k} {n:,}" for k, n in set_up.items()),
            flush=True,
        )
        go = time.monotonic() + 1.0
        for pipe in pipes:
            pipe.send((go, args.seconds, args.every))
        server.watch(go)
        server.peak = 0
        cpu0 = [load.Cpu.ticks(server.pid), *(load.Cpu.ticks(w.pid or 0) for w in workers)]
        server.watch(go + args.seconds)
        cpu1 = [load.Cpu.ticks(server.pid), *(load.Cpu.ticks(w.pid or 0) for w in workers)]
        results = [heard(pipe, worker) for pipe, worker in zip(pipes, workers, strict=True)]
        cpu = [b - a for a, b in zip(cpu0, cpu1, strict=True)]
        report(args, port, server, results, cpu, (go, log))
    finally:
        for worker in workers:
            worker.join(10)
            if worker.is_alive():
                worker.kill()


def heard(pipe: multiprocessing.connection.Connection, worker: Any) -> Any:
    """A client process's next message; if it died instead, the run ends."""
    while not pipe.poll(1.0):
        if not worker.is_alive():
            raise RuntimeError(f"a client process ended (exit code {worker.exitcode})")
    return pipe.recv()


def _by_kind(tallies: list[table.Tally]) -> str:
    """p50/p99 of the commands of each holder of the chains, then of the kinds (holder and
    type) with the longest p99s: the kinds that make the tail."""
    kinds: dict[str, list[float]] = collections.defaultdict(list)
    for t in tallies:
        for kind, took in t.kinds.items():
            kinds[kind] += took
            kinds[kind.split()[0] + "-held"] += took

    def figures(kind: str) -> str:
        ordered = sorted(kinds[kind])
        return (
            f"{kind} p50 {percentile(ordered, 0.5):.1f}/p99 {percentile(ordered, 0.99):.1f} ms "
            f"({len(ordered):,})"
        )

    held = [k for k in ("host-held", "pages-held") if k in kinds]
    worst = sorted(
        (k for k in kinds if " " in k and len(kinds[k]) >= 20),
        key=lambda k: -percentile(sorted(kinds[k]), 0.99),
    )
    return (
        f"by who holds the chains: {'; '.join(map(figures, held))}; the longest p99s (20 "
        f"commands or more): {'; '.join(map(figures, worst[:5]))}"
    )


def report(
    args: argparse.Namespace,
    port: int,
    server: Server,
    results: list[Any],
    cpu: list[float],
    window: tuple[float, Path],
) -> None:
    tallies: list[table.Tally] = [r[1] for r in results]
    unfinished = sum(r[2] for r in results)
    latencies = sorted(x for t in tallies for x in t.latencies) + [math.inf] * unfinished
    done = sum(len(t.latencies) for t in tallies)
    refused: collections.Counter[str] = collections.Counter()
    accepted: collections.Counter[str] = collections.Counter()
    problems: collections.Counter[str] = collections.Counter()
    for t in tallies:
        refused += t.refused
        accepted += t.accepted
        problems += t.problems
    seconds = args.seconds
    go, log = window
    server_cpu, client_cpu = cpu[0], sum(cpu[1:])
    memory = server.memory()
    per = 1e6 / max(1, done)
    print(
        f"{args.games:,} games, {2 * args.games:,} websockets, a command every {args.every:g} s "
        f"a game on average (Poisson, open loop), {seconds:g} s measured: "
        f"{done / seconds:,.0f} commands/s done ({done:,}); command due → both sides updated: "
        f"p50 {percentile(latencies, 0.5):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, "
        f"p99.9 {percentile(latencies, 0.999):.1f} ms; not done {GRACE:g} s after the window "
        f"{unfinished}",
        flush=True,
    )
    print(
        f"  server: CPU {server_cpu / seconds:.2f} cores ({server_cpu * per:,.0f} µs a command); "
        f"RSS peak in the window {server.peak / 1024:,.0f} MB, peak since it started "
        f"{memory['VmHWM'] / 1024:,.0f} MB, at the end {memory['VmRSS'] / 1024:,.0f} MB",
        flush=True,
    )
    print(
        f"  clients: CPU {client_cpu / seconds:.2f} cores ({client_cpu * per:,.0f} µs a command, "
        f"{client_cpu / max(server_cpu, 1e-9):.2f} of the server's) in {len(cpu) - 1} "
        f"process(es)",
        flush=True,
    )
    given = ", ".join(f"{k} {n:,}" for k, n in accepted.most_common())
    print(f"  done by type: {given}", flush=True)
    print(f"  {_by_kind(tallies)}", flush=True)
    gaps = sum(t.gaps for t in tallies)
    print(
        f"  refused {sum(refused.values()):,} ({dict(refused.most_common()) or 'none'}); "
        f"other problems {dict(problems) or 'none'}; games over and replaced "
        f"{sum(t.replaced for t in tallies)} (commands due meanwhile dropped: "
        f"{sum(t.dropped for t in tallies)}); events a side's log skipped: {gaps}; updates a "
        f"whole view already held (ignored, as a page does): {sum(t.repeated for t in tallies)}",
        flush=True,
    )
    print(
        f"  connections in the window: reconnected {sum(t.reconnects for t in tallies)}, "
        f"stalled {sum(t.stalls for t in tallies)}, openings tried again "
        f"{sum(t.retries for t in tallies)}, games given up {sum(t.lost for t in tallies)}",
        flush=True,
    )
    print(pauses.described(log, go, go + seconds), flush=True)
    print(pauses.described(log.with_name("clients.log"), go, go + seconds, "clients'"), flush=True)
    measured = [(g, m) for t in tallies for g, m in t.measured.items()]
    print(tallied(port, random.Random(0).sample(measured, min(args.tally, len(measured)))))


def tallied(port: int, sample: list[tuple[str, tuple[str, int, int]]]) -> str:
    """What the commands of these games in the window did, from the referee's log. What a
    command wrote to a side's commitments is the host's private part until the game is
    over: counted in the games over by then only."""
    total: collections.Counter[str] = collections.Counter()
    over: collections.Counter[str] = collections.Counter()
    games_over = 0
    for game_id, (token, first, last) in sample:
        view = referee_view(port, game_id, token, first - 1)
        counts = mix.tally(view["log"], first, last)
        total.update(counts)
        if view["phase"] == "over":
            games_over += 1
            over.update(counts)
    events = max(1, total["events"])
    wrote = (
        f"of the {over['events']:,} in the {games_over} of them over by then, wrote "
        f"commitments {over['commitments'] / over['events']:.0%}"
        if over["events"]
        else "commitments written not known (no game over: the host keeps them private)"
    )
    return (
        f"  from the referee's log of {len(sample)} of the games, their {total['events']:,} "
        f"commands in the window: rolled dice {total['rolls'] / events:.0%} (in secret "
        f"{total['secret_rolls'] / events:.0%}), opened committed facts "
        f"{total['reveals'] / events:.0%}; {wrote}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--every", type=float, default=10.0, help="mean seconds between commands")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--pages", type=float, default=0.5, help="share of page-held games")
    parser.add_argument("--ahead", type=int, default=6, help="commands played ahead, at most")
    parser.add_argument("--clients", type=int, default=0, help="client processes (0: by size)")
    parser.add_argument("--tally", type=int, default=300, help="games whose logs are tallied")
    parser.add_argument(
        "--gc-threshold", default="", help="the server's gc thresholds, a,b,c (its own if not)"
    )
    parser.add_argument(
        "--gc-freeze", type=float, default=0.0, help="the server freezes its objects this often"
    )
    args = parser.parse_args()
    # Every websocket is an open file, in the server and in a client process.
    _, most = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (most, most))
    with tempfile.TemporaryDirectory() as folder:
        flags = [
            *("--create-burst", str(args.games), "--create-burst-all", str(args.games)),
            *("--create-per-minute", "1e9", "--create-per-minute-all", "1e9"),
            *("--max-connections", str(2 * args.games + 100)),
            *("--max-games", str(2 * args.games)),
        ]
        log = Path(folder) / "pauses.log"
        with contextlib.ExitStack() as stack:
            # The server probed (benchmarks/probe); the client processes, started later, write
            # their own log (run).
            with pauses.probed(log, args.gc_threshold, args.gc_freeze):
                serving = load.serving("ghillie", str(Path(folder) / "pace.db"), flags)
                port, process = stack.enter_context(serving)
            run(args, port, Server(process.pid), log)


if __name__ == "__main__":
    main()
