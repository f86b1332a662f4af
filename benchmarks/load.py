"""Load on loopback: many concurrent games, two clients per game, commands as fast as each
game allows, every command durable before it is acknowledged.

    .venv/bin/python benchmarks/load.py [--games 200] [--seconds 20] [--db sqlite|URL] [--http]
        [--mix end_phase|realistic] [--warmup S] [--processes 1|2] [--cpu]
        [--client picows|websockets] [--server ghillie|floor]

Starts a real ``ghillie serve`` (SQLite by default, in a temporary directory), creates the
games, connects both sides of each game by websocket, and then in every game the side whose
turn it is gives its next command as soon as the previous one has reached both sides. It
reports commands accepted per second and the time from sending a command to its update
reaching both sides (p50, p99). The server runs in its own process, the clients in this one;
the machine has two cores.

``--mix end_phase`` (the default): grid-ambush, every command ends the phase (no dice, no
secrets). The last line printed is the one ``../shared/bench/side-by-side.sh`` reads. Its
clients are ``benchmarks/client.py``'s (picows, orjson, uvloop, no task a command: about a
fifth of the CPU a command of the first ones, so that the figures are the server's);
``--client websockets`` runs the first ones, which ``--http`` and ``--mix realistic`` still
use. ``--server floor`` runs ``benchmarks/floor_server.py`` instead of ghillie: the same
stack and frames with no rules, views or proofs (``benchmarks/side_by_side.py`` runs both
beside boardgame.io).

``--mix realistic``: half the games ``suspicious-places``, half ``ambush-fields``, host-held
chains; each side is a scripted client (``benchmarks/mix.py``) that reads only its own view
and gives commands from the view's offers: hidden markers laid and recorded (commitments
written), observations and fire with secret dice, exposures that open what a marker hid,
plots and scans. A game is ended after a few turns (a seat's first game after a random
number of commands, so that the seats do not all start new games at once) and a new one is
created in its place. Printed per scenario and overall, with the commands refused (kept
apart, and rare), how long new games took to be ready, and, from the referee's log once the
run is over, how many accepted commands rolled dice, opened committed facts, or wrote
commitments. The window closes on time: commands and creations under way then are not
counted. Every game starts with its set-up, so the first seconds are mostly set-up commands:
``--warmup S`` plays S seconds before the measured ones, for a mix of games under way.

``--processes 2`` (PostgreSQL only): two ``ghillie serve`` on the same database. Each game
is created on one of them in turn, which owns it (ghillie.server.owners), and both its
sides connect to that one, as a front hashing on the game's id would send them. Rounds of
one process (every game on the first server) and of two alternate (``--rounds`` of each,
interleaved), and the medians are printed side by side: commands/s and the servers' CPU
per command, and their ratios. ``--cpu`` (implied by ``--processes 2``) prints the CPU time
of this process and of each server over the measured seconds, as a fraction of one core,
and, for ``--mix end_phase``, as µs a command.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import uvloop
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
import client  # benchmarks/ is no package: this folder is on the path
import mix

# The server a run starts: its command line, before --db and --port.
SERVERS = {
    "ghillie": (sys.executable, "-m", "ghillie.cli", "serve"),
    "floor": (sys.executable, str(Path(__file__).resolve().parent / "floor_server.py")),
}
GAME = {"scenario": "grid-ambush-table", "qr": False}  # --mix end_phase's (no QR codes)


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
    def __init__(self, created: dict[str, object], use_http: bool, port: int) -> None:
        links = created["links"]
        assert isinstance(links, list)
        self.use_http = use_http
        # Both sides on the server that made the game, which owns it (--processes 2).
        self.ports = {"jungle": port, "orks": port}
        self.id = str(created["game_id"])
        self.tokens = {link["observer"]: link["url"].split("#")[1] for link in links}
        self.sockets: dict[str, websockets.ClientConnection] = {}
        self.given = 0
        self.latencies: list[float] = []
        self.seen: dict[str, int] = {}

    def next(self) -> tuple[str, dict[str, object]]:
        return client.end_phase_order(self.given)

    async def connect(self) -> None:
        for side in ("jungle", "orks"):
            socket = await websockets.connect(
                f"ws://127.0.0.1:{self.ports[side]}/api/games/{self.id}/ws", max_size=None
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
                    self.ports[side],
                    f"/api/games/{self.id}/commands",
                    {"command_id": body["command_id"], "command": command},
                    self.tokens[side],
                )
            else:
                await self.sockets[side].send(json.dumps(body))
            await asyncio.gather(self.until_seen("jungle", seq), self.until_seen("orks", seq))
            self.latencies.append(time.perf_counter() - sent)
            self.given += 1


async def run(
    ports: list[int], games: int, seconds: float, use_http: bool, cpu: Cpu | None
) -> tuple[float, float | None]:
    """One round: commands/s, and the servers' CPU seconds per command (with ``cpu``)."""
    began = time.perf_counter()
    owners = [ports[n % len(ports)] for n in range(games)]  # each game made where it is ruled
    created = await asyncio.gather(
        *(asyncio.to_thread(post, port, "/api/games", GAME) for port in owners)
    )
    playing = [Game(c, use_http, port) for c, port in zip(created, owners, strict=True)]
    await asyncio.gather(*(game.connect() for game in playing))
    across = f" on {len(ports)} server processes" if len(ports) > 1 else ""
    print(
        f"set up {games} games and {2 * games} websockets{across} in "
        f"{time.perf_counter() - began:.1f} s",
        flush=True,
    )
    start = time.perf_counter()
    if cpu:
        cpu.begin()
    await asyncio.gather(*(game.play(start + seconds) for game in playing))
    elapsed = time.perf_counter() - start
    used = cpu.report(elapsed) if cpu else None
    latencies = sorted(x for game in playing for x in game.latencies)
    commands = len(latencies)
    if cpu:
        print(client.cost(cpu, commands), flush=True)
    p50, p99 = percentiles(latencies)
    how = "HTTP" if use_http else "websocket"
    print(client.summary(games, elapsed, commands / elapsed, p50, p99, how))
    for game in playing:
        for socket in game.sockets.values():
            await socket.close()
    return commands / elapsed, None if used is None else used / commands


class Cpu:
    """CPU time (user + system) of this process and of each server over the measured
    seconds, and of the PostgreSQL processes and the whole machine for comparison."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, servers: list[subprocess.Popen[bytes]], ports: list[int]) -> None:
        self.servers, self.ports = servers, ports

    @classmethod
    def ticks(cls, pid: int) -> float:
        """utime + stime of a process and its threads, in seconds (proc(5): fields 14, 15)."""
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / cls.TICK

    @classmethod
    def postgres(cls) -> float:
        total = 0.0
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/comm") as f:
                        if f.read().strip() != "postgres":
                            continue
                except OSError:
                    continue
                total += cls.ticks(int(entry))
        return total

    @classmethod
    def machine(cls) -> tuple[float, float]:
        """Busy and total CPU seconds of the whole machine, every core (proc(5): /proc/stat)."""
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
        idle = values[3] + values[4]
        return (sum(values[:8]) - idle) / cls.TICK, sum(values[:8]) / cls.TICK

    def sample(self) -> tuple[float, list[float], float, tuple[float, float]]:
        own = os.times()
        return (
            own.user + own.system,
            [self.ticks(s.pid) for s in self.servers],
            self.postgres(),
            self.machine(),
        )

    def begin(self) -> None:
        self.first = self.sample()

    def report(self, elapsed: float) -> float:
        """Print the CPU used since :meth:`begin`; the servers' CPU seconds."""
        (own0, servers0, pg0, (busy0, all0)) = self.first
        (own1, servers1, pg1, (busy1, all1)) = self.sample()
        servers = ", ".join(
            f"server {n + 1} (port {port}) {(b - a) / elapsed:.2f}"
            for n, (port, a, b) in enumerate(zip(self.ports, servers0, servers1, strict=True))
        )
        cores = os.cpu_count() or 1
        print(
            f"CPU over the measured {elapsed:.1f} s, in cores: load generator "
            f"{(own1 - own0) / elapsed:.2f}, {servers}, PostgreSQL processes "
            f"{(pg1 - pg0) / elapsed:.2f}; whole machine {(busy1 - busy0) / elapsed:.2f} busy "
            f"of {(all1 - all0) / elapsed:.2f} ({cores} cores)",
            flush=True,
        )
        return sum(servers1) - sum(servers0)


class MixGame:
    """One seat of the realistic mix: a game of ``scenario`` played by two scripted clients
    (:class:`mix.Player`), each over its own websocket (its own server with --processes 2),
    one command in flight at a time; when the game is over, a new one takes its place."""

    TIMEOUT = 60.0  # seconds a command may take before the game is given up as stuck

    def __init__(self, ports: list[int], scenario: str, seed: int) -> None:
        # The seat's games are made on one server, which owns them; both sides connect to it.
        self.port, self.scenario = ports[seed % len(ports)], scenario
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.kinds: dict[str, int] = {}  # accepted commands by type
        self.refused: list[tuple[str, str]] = []
        self.tokens: dict[str, str] = {}  # every game played: its referee's token
        # game id -> the seqs of its first and last measured commands
        self.measured: dict[str, tuple[int, int]] = {}
        self.stuck = 0
        self.sockets: dict[str, websockets.ClientConnection] = {}
        # When each game was asked for, and how long until it was created and until both
        # sides held their views.
        self.creations: list[tuple[float, float, float]] = []
        self.creating: float | None = None  # when the game being created now was asked for
        self.first = True

    async def start(self) -> None:
        """Create a game (on the first server) and connect each side to its own server.
        The seat's first game ends after a random number of commands, so that the seats'
        games end (and new ones are created) at different times, not all at once."""
        asked = self.creating = time.perf_counter()
        # An API client that shows no QR codes asks for none, as ghillie new does.
        body = {"scenario": self.scenario, "chains": "host", "qr": False}
        created = await asyncio.to_thread(post, self.port, "/api/games", body)
        made = time.perf_counter()
        links = created["links"]
        assert isinstance(links, list)
        self.id = str(created["game_id"])
        tokens = {link["observer"]: link["url"].split("#")[1] for link in links}
        self.tokens[self.id] = tokens["referee"]
        self.sides = [link["observer"] for link in links if link["observer"] in tokens][:2]
        self.players = {s: mix.Player(self.scenario, s, self.rng) for s in self.sides}
        self.views: dict[str, mix.View] = {}
        self.sockets = {}
        for side in self.sides:
            socket = await websockets.connect(
                f"ws://127.0.0.1:{self.port}/api/games/{self.id}/ws", max_size=None
            )
            await socket.send(json.dumps({"type": "auth", "token": tokens[side]}))
            message = json.loads(await socket.recv())
            assert message["type"] == "view", message
            self.views[side] = message["view"]
            self.sockets[side] = socket
        self.creations.append((asked, made - asked, time.perf_counter() - asked))
        self.creating = None
        self.turn = 0
        self.given = 0
        self.end_after = self.rng.randint(4, mix.LENGTH[self.scenario]) if self.first else None
        self.first = False

    async def close(self) -> None:
        for socket in self.sockets.values():
            await socket.close()
        self.sockets = {}

    def decide(self) -> tuple[str, mix.Command] | None:
        """The next command: the sides take turns at being asked first (in ambush-fields
        both act in every phase)."""
        self.turn += 1
        order = self.sides[self.turn % 2 :] + self.sides[: self.turn % 2]
        if self.end_after is not None and self.given >= self.end_after:
            for side in order:
                command = self.players[side].end_now(self.views[side])
                if command is not None:
                    return side, command
        for side in order:
            command = self.players[side].next(self.views[side])
            if command is not None:
                return side, command
        return None

    async def answered(self, side: str, command_id: str) -> tuple[int | None, str | None]:
        """Read ``side``'s socket until its command's answer: (seq, None), or (None, code)."""
        socket, view = self.sockets[side], self.views[side]
        while True:
            message = json.loads(await socket.recv())
            if message["type"] == "update":
                mix.merge(view, message["view"])
                answer = message.get("answer")
                if answer and answer["command_id"] == command_id:
                    return int(answer["seq"]), None
            elif message["type"] == "answer" and message["command_id"] == command_id:
                if "problem" in message:
                    return None, str(message["problem"].get("code"))
                return int(message["answer"]["seq"]), None
            elif message["type"] == "view":
                self.views[side] = view = message["view"]

    async def seen(self, side: str, seq: int) -> None:
        socket, view = self.sockets[side], self.views[side]
        while view["seq"] < seq:
            message = json.loads(await socket.recv())
            if message["type"] == "update":
                mix.merge(view, message["view"])

    async def play(self, measured: float, stop: float) -> None:
        """Play until ``stop``; only commands sent from ``measured`` on are counted."""
        while time.perf_counter() < stop:
            if not self.sockets:
                await self.start()
                continue
            decided = self.decide()
            if decided is None:
                # Game over (ended by a player), or nothing to do: a scripted player that
                # has run out of ideas (counted) gives up this game for a new one.
                if any(v["phase"] != "over" for v in self.views.values()):
                    self.stuck += time.perf_counter() >= measured
                await self.close()
                continue
            side, command = decided
            other = next(s for s in self.sides if s != side)
            command_id = uuid.uuid4().hex
            sent = time.perf_counter()
            counted = sent >= measured
            message = {"type": "command", "command_id": command_id, "command": command}
            try:
                await self.sockets[side].send(json.dumps(message))
                seq, code = await asyncio.wait_for(self.answered(side, command_id), self.TIMEOUT)
                if seq is None:
                    if counted:
                        self.refused.append((command["type"], str(code)))
                    self.players[side].refused()
                    continue
                await asyncio.wait_for(self.seen(other, seq), self.TIMEOUT)
            except TimeoutError:
                self.stuck += counted
                await self.close()
                continue
            if counted:
                self.latencies.append(time.perf_counter() - sent)
                self.measured[self.id] = (self.measured.get(self.id, (seq, seq))[0], seq)
                self.kinds[command["type"]] = self.kinds.get(command["type"], 0) + 1
            self.given += 1
            self.players[side].accepted()


percentiles = client.percentiles


def launch(
    command: tuple[str, ...], db: str, port: int, flags: list[str]
) -> subprocess.Popen[bytes]:
    """A server (``SERVERS``) on ``db`` at ``port``, with these flags, its output dropped."""
    return subprocess.Popen(
        [*command, *("--db", db), *("--port", str(port)), *flags],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )


def healthy(port: int) -> None:
    """Once the server at ``port`` answers (15 s at most)."""
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health")
            return
        except OSError:
            time.sleep(0.05)


@contextlib.contextmanager
def serving(
    server: str, db: str, flags: list[str]
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A server of ``SERVERS`` on ``db`` at a free port, once it answers: the port and the
    process, killed after."""
    port = free_port()
    process = launch(SERVERS[server], db, port, flags)
    try:
        healthy(port)
        yield port, process
    finally:
        process.kill()
        process.wait()


def referee_log(port: int, game_id: str, token: str) -> list[dict[str, object]]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games/{game_id}/view",
        headers={"authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())["log"]  # type: ignore[no-any-return]


async def run_mix(
    ports: list[int], games: int, seconds: float, warmup: float, cpu: Cpu | None
) -> None:
    began = time.perf_counter()
    playing = [MixGame(ports, mix.SCENARIOS[n % len(mix.SCENARIOS)], seed=n) for n in range(games)]
    await asyncio.gather(*(game.start() for game in playing))
    print(
        f"set up {games} games ({', '.join(mix.SCENARIOS)}) and {2 * games} websockets "
        f"on {len(ports)} server process(es) in {time.perf_counter() - began:.1f} s",
        flush=True,
    )
    start = time.perf_counter() + warmup
    tasks = [asyncio.create_task(game.play(start, start + seconds)) for game in playing]
    await asyncio.sleep(warmup)
    if cpu:
        cpu.begin()
    # The window closes at start + seconds: commands (and creations) still under way then
    # are not counted, and are cut short.
    await asyncio.sleep(start + seconds - time.perf_counter())
    end = time.perf_counter()
    elapsed = end - start
    waiting = [end - g.creating for g in playing if g.creating is not None]
    if cpu:
        cpu.report(elapsed)
    for task in tasks:
        task.cancel()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, BaseException) and not isinstance(outcome, asyncio.CancelledError):
            raise outcome
    for game in playing:
        await game.close()
    # Once the clock has stopped: what the accepted commands did, from the referee's log.
    tallies: dict[str, dict[str, int]] = {}
    for scenario in mix.SCENARIOS:
        logs = await asyncio.gather(
            *(
                asyncio.to_thread(referee_log, ports[0], game_id, game.tokens[game_id])
                for game in playing
                if game.scenario == scenario
                for game_id in game.measured
            )
        )
        froms = [g.measured[i] for g in playing if g.scenario == scenario for i in g.measured]
        total: dict[str, int] = {}
        for log, (first, last) in zip(logs, froms, strict=True):
            for key, value in mix.tally(log, first, last).items():
                total[key] = total.get(key, 0) + value
        tallies[scenario] = total
    every: list[float] = []
    refused_all = 0
    for scenario in mix.SCENARIOS:
        mine = [g for g in playing if g.scenario == scenario]
        latencies = [x for g in mine for x in g.latencies]
        every += latencies
        refused = [r for g in mine for r in g.refused]
        refused_all += len(refused)
        kinds: dict[str, int] = {}
        for command, code in refused:
            kinds[f"{command}:{code}"] = kinds.get(f"{command}:{code}", 0) + 1
        p50, p99 = percentiles(latencies)
        t = tallies[scenario]
        print(
            f"  {scenario}: {len(mine)} seats, {sum(len(g.measured) for g in mine)} games played, "
            f"{len(latencies):,} commands, {len(latencies) / elapsed:,.0f} commands/s; "
            f"command → both sides updated: p50 {p50:.1f} ms, p99 {p99:.1f} ms; "
            f"refused {len(refused)}{' ' + str(kinds) if kinds else ''}, "
            f"games given up {sum(g.stuck for g in mine)}; of the {t['events']:,} commands "
            f"in the referee's log: rolled dice {t['rolls']:,} (in secret {t['secret_rolls']:,}),"
            f" revealed {t['reveals']:,}, wrote commitments {t['commitments']:,}",
            flush=True,
        )
        by_type: dict[str, int] = {}
        for g in mine:
            for kind, n in g.kinds.items():
                by_type[kind] = by_type.get(kind, 0) + n
        given = ", ".join(f"{k} {n}" for k, n in sorted(by_type.items(), key=lambda kn: -kn[1]))
        print(f"    accepted by type: {given}", flush=True)
    made = [c for g in playing for c in g.creations if c[0] + c[2] >= start]
    p50, p99 = percentiles([c[1] for c in made])
    b50, b99 = percentiles([c[2] for c in made])
    w50, w99 = percentiles(waiting)
    ready = (
        f" (POST /api/games answered in p50 {p50:.0f} ms, p99 {p99:.0f} ms; both sides "
        f"connected with their views p50 {b50:.0f} ms, p99 {b99:.0f} ms)"
        if made
        else ""
    )
    still = f" (waiting for p50 {w50:.0f} ms, p99 {w99:.0f} ms)" if waiting else ""
    print(
        f"  new games ready during the window: {len(made)}{ready}; seats still waiting for a "
        f"new game when the window closed: {len(waiting)}{still}",
        flush=True,
    )
    p50, p99 = percentiles(every)
    print(
        f"{games} games, {2 * games} clients, {elapsed:.1f} s"
        f"{f' after {warmup:g} s of warm-up' if warmup else ''}, realistic mix "
        f"({' + '.join(mix.SCENARIOS)}) over websocket, {len(ports)} server process(es): "
        f"{len(every) / elapsed:,.0f} commands/s accepted and durable; command → both sides "
        f"updated: p50 {p50:.1f} ms, p99 {p99:.1f} ms; {refused_all} refused "
        f"({refused_all / max(1, refused_all + len(every)):.2%})"
    )


def one_round(
    ports: list[int], args: argparse.Namespace, cpu: Cpu | None
) -> tuple[float, float | None]:
    """One round of ``--mix end_phase`` on these servers, with the client asked for: the
    lean one (benchmarks/client.py) unless ``--http`` or ``--client websockets``."""
    if args.http or args.client == "websockets":
        return asyncio.run(run(ports, args.games, args.seconds, args.http, cpu))
    create = functools.partial(post, path="/api/games", body=GAME)
    return uvloop.run(client.run(create, ports, args.games, args.seconds, cpu))


def compare(ports: list[int], args: argparse.Namespace, cpu: Cpu | None) -> None:
    """Rounds of one server and of two, interleaved (1, 2, 1, 2, …): medians and ratios."""
    rounds: dict[int, list[tuple[float, float | None]]] = {1: [], 2: []}
    for n in range(args.rounds):
        for used in (ports[:1], ports):
            print(f"round {n + 1}, {len(used)} server process(es):", flush=True)
            rounds[len(used)].append(one_round(used, args, cpu))
    rate = {k: statistics.median(r for r, _ in v) for k, v in rounds.items()}
    per = {k: statistics.median(c or 0.0 for _, c in v) * 1e6 for k, v in rounds.items()}
    print(
        f"median of {args.rounds} interleaved rounds of {args.games} games: one process "
        f"{rate[1]:,.0f} commands/s at {per[1]:,.0f} µs of server CPU a command; two processes "
        f"{rate[2]:,.0f} commands/s at {per[2]:,.0f} µs: {rate[2] / rate[1]:.2f}× the "
        f"commands/s, {per[2] / per[1]:.2f}× the CPU per command"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--db", default="sqlite")
    parser.add_argument("--http", action="store_true", help="send commands over HTTP")
    parser.add_argument(
        "--mix",
        choices=("end_phase", "realistic"),
        default="end_phase",
        help="end_phase: grid-ambush, no dice, no secrets; realistic: see benchmarks/mix.py",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        choices=(1, 2),
        help="2: two servers on one PostgreSQL database, each game on the one that owns it, "
        "in rounds against one server",
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="--processes 2: rounds of one and of two servers"
    )
    parser.add_argument("--cpu", action="store_true", help="print the CPU time used")
    parser.add_argument(
        "--client",
        choices=("picows", "websockets"),
        default="picows",
        help="--mix end_phase's clients: picows (benchmarks/client.py, lean) or websockets "
        "(the first, which costs about as much CPU as it measures); --http is websockets",
    )
    parser.add_argument(
        "--server",
        choices=tuple(SERVERS),
        default="ghillie",
        help="floor: benchmarks/floor_server.py, the bare stack with no rules, views or proofs",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=0,
        help="--mix realistic: seconds played before the measured ones (games under way)",
    )
    args = parser.parse_args()
    if args.processes > 1 and not args.db.startswith("postgresql"):
        parser.error("--processes 2 needs --db postgresql://…")
    if args.mix == "realistic" and args.http:
        parser.error("--mix realistic gives its commands over the websocket only")
    if args.mix != "realistic" and args.warmup:
        parser.error("--warmup is for --mix realistic")
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db") if args.db == "sqlite" else args.db
        ports = [free_port() for _ in range(args.processes)]
        made = args.games * (2 * args.rounds if args.processes > 1 else 1)  # all at once
        meter = ["--create-burst", str(made), "--create-burst-all", str(made)]
        if args.mix == "realistic":  # games end and new ones are made all the time
            meter += ["--create-per-minute", "1e9", "--create-per-minute-all", "1e9"]
        # One client creates every game at once: lift the per-address meter.
        servers = [launch(SERVERS[args.server], db, port, meter) for port in ports]
        cpu = Cpu(servers, ports) if args.cpu or args.processes > 1 else None
        try:
            for port in ports:
                healthy(port)
            if args.mix == "realistic":
                asyncio.run(run_mix(ports, args.games, args.seconds, args.warmup, cpu))
            elif len(ports) == 1:
                one_round(ports, args, cpu)
            else:
                compare(ports, args, cpu)
        finally:
            for server in servers:
                server.kill()
                server.wait()


if __name__ == "__main__":
    main()
