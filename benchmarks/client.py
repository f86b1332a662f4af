"""The end_phase load's clients, lean enough that the benchmark measures the server.

``load.py``'s first client (the ``websockets`` library, json, a task per game awaiting each
frame) spent about 225 µs of its own CPU a command at 4,000 commands/s: on two cores it
measured itself as much as the server. This one does the same thing at a fraction of the
cost: picows (a websocket client written in Cython, frames handed to a callback on uvloop's
loop), orjson, and no task or future per command: the frame that shows the last side the
command's update calls the next command straight from the callback.

The games and their commands are ``load.py``'s: grid-ambush-table, both sides by
websocket, and in every game the side whose turn it is gives its next command as soon as
the previous one reached both sides (the Veterans' empty ambush orders and both sides'
``ready``, then ``end_phase``). Every frame is parsed whole, as a page would.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import orjson
from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

SIDES = ("jungle", "orks")


def end_phase_order(given: int) -> tuple[str, dict[str, object]]:
    """The side and command of a game's command number ``given`` (from 0)."""
    if given == 0:  # the Veterans' ambush orders: none (DWV-R04)
        return "jungle", {"type": "record_ambushes", "orders": []}
    if given == 1:
        return "jungle", {"type": "ready"}
    if given == 2:
        return "orks", {"type": "ready"}
    return SIDES[((given - 3) // 3) % 2], {"type": "end_phase"}


class Messages(WSListener):
    """A websocket whose whole messages (a message sent in several frames joined) are parsed
    and handed to :meth:`message`; a close frame ends the connection."""

    def __init__(self) -> None:
        self.received = 0  # bytes of the messages received while measured
        self.parts: list[bytes] = []  # a message sent in several frames, until its last

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type not in (WSMsgType.TEXT, WSMsgType.CONTINUATION):
            if frame.msg_type == WSMsgType.CLOSE:
                transport.disconnect()
            return
        if not frame.fin or self.parts:
            self.parts.append(frame.get_payload_as_bytes())
            if not frame.fin:
                return
            payload: Any = b"".join(self.parts)
            self.parts = []
        else:
            payload = frame.get_payload_as_memoryview()
        self.received += len(payload)
        self.message(orjson.loads(payload))

    def message(self, message: Any) -> None:
        raise NotImplementedError


class Side(Messages):
    """One side's websocket: the whole view first, then every update; each tells the game."""

    def __init__(self, game: Game, side: str, token: str) -> None:
        super().__init__()
        self.game, self.side, self.token = game, side, token
        self.seen = -1
        self.viewed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: WSTransport

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport
        transport.send(WSMsgType.TEXT, orjson.dumps({"type": "auth", "token": self.token}))

    def message(self, message: Any) -> None:
        kind = message["type"]
        if kind == "update":
            self.seen = max(entry["seq"] for entry in message["view"]["log"])
            self.game.advance()
        elif kind == "view" and not self.viewed.done():
            self.seen = message["view"]["seq"]
            self.viewed.set_result(None)


class Game:
    """One game's two sides and its one command in flight."""

    def __init__(self, created: dict[str, Any], port: int) -> None:
        self.id = str(created["game_id"])
        self.tokens = {link["observer"]: link["url"].split("#")[1] for link in created["links"]}
        # Both sides on the game's server, the process that owns it (load.py --processes 2).
        self.port = port
        self.given = 0
        self.latencies: list[float] = []
        self.awaited = 0  # the seq both sides wait for; 0: nothing in flight
        self.sent = 0.0
        self.stop = 0.0
        self.finished: Callable[[], None] = lambda: None

    async def connect(self) -> None:
        self.sides: dict[str, Side] = {}
        for name in SIDES:
            url = f"ws://127.0.0.1:{self.port}/api/games/{self.id}/ws"
            side = Side(self, name, self.tokens[name])
            await ws_connect(lambda side=side: side, url, max_frame_size=1 << 24)
            await side.viewed
            self.sides[name] = side

    def give(self) -> None:
        """The next command, or, past the window, none: the game is done."""
        now = time.perf_counter()
        if now >= self.stop:
            self.finished()
            return
        name, command = end_phase_order(self.given)
        self.awaited = self.sides["jungle"].seen + 1
        self.sent = now
        # os.urandom rather than uuid4: a third of the cost, as unique.
        body = {"type": "command", "command_id": os.urandom(16).hex(), "command": command}
        self.sides[name].transport.send(WSMsgType.TEXT, orjson.dumps(body))

    def advance(self) -> None:
        """A side saw an update: once both have seen the command's, the next one."""
        if not self.awaited:
            return
        jungle, orks = self.sides["jungle"], self.sides["orks"]
        if jungle.seen >= self.awaited and orks.seen >= self.awaited:
            self.latencies.append(time.perf_counter() - self.sent)
            self.awaited = 0
            self.given += 1
            self.give()


class Played:
    """What a run measured: the commands, their latencies and the bytes received."""

    def __init__(self, games: list[Game], elapsed: float) -> None:
        self.elapsed = elapsed
        self.latencies = sorted(x for game in games for x in game.latencies)
        self.commands = len(self.latencies)
        self.received = sum(side.received for game in games for side in game.sides.values())

    def rate(self) -> float:
        return self.commands / self.elapsed

    def percentiles(self) -> tuple[float, float]:
        return percentiles(self.latencies)


def percentiles(latencies: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds."""
    ordered = sorted(latencies)
    if not ordered:
        return float("nan"), float("nan")
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.99)] * 1000


async def connect(created: list[dict[str, Any]], ports: list[int]) -> list[Game]:
    games = [Game(c, port) for c, port in zip(created, ports, strict=True)]
    await asyncio.gather(*(game.connect() for game in games))
    return games


async def close(games: list[Game]) -> None:
    sides = [side for game in games for side in game.sides.values()]
    for side in sides:
        side.transport.disconnect()
    await asyncio.gather(*(side.transport.wait_disconnected() for side in sides))


async def play(games: list[Game], seconds: float) -> Played:
    """Play for ``seconds``. A command under way when the window closes still counts once
    both sides have seen it (the window closes with it); none is given after."""
    for game in games:
        for side in game.sides.values():
            side.received = 0
    left = len(games)
    everyone = asyncio.get_running_loop().create_future()

    def finished() -> None:
        nonlocal left
        left -= 1
        if not left:
            everyone.set_result(None)

    start = time.perf_counter()
    for game in games:
        game.stop, game.finished = start + seconds, finished
        game.give()
    await everyone
    return Played(games, time.perf_counter() - start)


def summary(games: int, elapsed: float, rate: float, p50: float, p99: float, how: str) -> str:
    """The run's last line, as ``../shared/bench/side-by-side.sh`` reads it."""
    return (
        f"{games} games, {2 * games} clients, {elapsed:.1f} s, commands over {how}: "
        f"{rate:,.0f} commands/s accepted and durable; command → both sides updated: "
        f"p50 {p50:.1f} ms, p99 {p99:.1f} ms"
    )


def cost(cpu: Any, commands: int, received: int | None = None) -> str:
    """CPU per command of the server process(es) and of this one, from ``load.Cpu``'s
    first sample to now, and the bytes of the frames the clients received a command."""
    own0, servers0 = cpu.first[0], cpu.first[1]
    own1, servers1 = cpu.sample()[:2]
    per = 1e6 / max(1, commands)
    server, own = (sum(servers1) - sum(servers0)) * per, (own1 - own0) * per
    frames = (
        "" if received is None else f"; frames received {received * per / 1e6:,.0f} bytes a command"
    )
    return (
        f"CPU per command: server process(es) {server:,.0f} µs, load generator {own:,.0f} µs "
        f"({own / max(server, 1e-9):.2f} of the server's){frames}"
    )


async def run(
    create: Callable[[int], dict[str, Any]], ports: list[int], games: int, seconds: float, cpu: Any
) -> tuple[float, float | None]:
    """``load.py --mix end_phase`` over websocket with these clients: ``create`` makes a game
    over HTTP on the server at a port, which owns it (the servers in turn); ``cpu`` is
    ``load.Cpu`` or None. Commands/s, and the servers' CPU seconds a command (with ``cpu``)."""
    began = time.perf_counter()
    owners = [ports[n % len(ports)] for n in range(games)]
    created = await asyncio.gather(*(asyncio.to_thread(create, port) for port in owners))
    playing = await connect(created, owners)
    across = f" on {len(ports)} server processes" if len(ports) > 1 else ""
    print(
        f"set up {games} games and {2 * games} websockets{across} in "
        f"{time.perf_counter() - began:.1f} s (clients: picows, orjson, uvloop)",
        flush=True,
    )
    if cpu:
        cpu.begin()
    played = await play(playing, seconds)
    used = None
    if cpu:
        used = cpu.report(played.elapsed) / max(1, played.commands)
        print(cost(cpu, played.commands, played.received), flush=True)
    await close(playing)
    print(summary(games, played.elapsed, played.rate(), *played.percentiles(), "websocket"))
    return played.rate(), used
