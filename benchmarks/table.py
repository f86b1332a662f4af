"""The games of ``benchmarks/pace.py``: the realistic mix (``benchmarks/mix.py``'s scripted
players, each reading only its own side's view) played at a table's pace by lean clients.

Each game gives its next command at Poisson-distributed times (open loop: the times are
drawn in advance and do not wait for the server). A command comes due, its game's player
picks it from its side's view as it stands then and sends it; a command that comes due
while the game's previous one is still unanswered waits for it, in order, and its latency
counts from when it came due, not from when it could be sent: a slow server is not excused
the commands it held back. A command is done once both sides hold the update of its event.

The clients are ``benchmarks/client.py``'s kind: picows, orjson, callbacks on uvloop's loop,
no task or future per command. A game whose chains its pages hold plays the roll protocol
as fairplay.js does: each page gives its chain's anchor and its seat's signing key before
the game starts, signs every order of its side for the roll it is to be ruled at, and gives
its element for each roll the view's ``fairness.request`` waits for. Unlike a page it does
not check the host's signature on each request (about 90 µs of the client's CPU a page and
roll, none of the server's).
"""

from __future__ import annotations

import asyncio
import collections
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any

import client
import load
import mix
import orjson
from picows import WSMsgType, WSTransport, ws_connect

from ghillie.fairness.chains import Chain
from ghillie.fairness.hashlog import HostKey, order_message

REFUSALS_IN_A_ROW = 5  # a due command the player cannot get accepted is given up


@dataclass
class Tally:
    """What one client process measured of the commands that came due in the window."""

    latencies: list[float] = field(default_factory=list)  # seconds, due → both sides updated
    refused: collections.Counter[str] = field(default_factory=collections.Counter)
    accepted: collections.Counter[str] = field(default_factory=collections.Counter)
    dropped: int = 0  # due while the game was over and a new one was being made
    gaps: int = 0  # events a side's log skipped or repeated: none, when all is well
    problems: collections.Counter[str] = field(default_factory=collections.Counter)
    replaced: int = 0  # games over (or stuck) and replaced by a new one
    # game id → its referee's token and the seqs of its first and last measured events
    measured: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    window: tuple[float, float] = (0.0, 0.0)


class Seat(client.Messages):
    """One side's websocket; every message goes to its game."""

    def __init__(self, game: TableGame, side: str, token: str) -> None:
        super().__init__()
        self.game, self.side, self.token = game, side, token
        self.view: mix.View = {}
        self.last = -1  # the last event this side's log holds
        self.updated: list[int] = []  # the events its updates brought, in order
        self.given: set[int] = set()  # rolls this page gave its element for
        self.transport: WSTransport

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport
        self.send({"type": "auth", "token": self.token})

    def send(self, frame: dict[str, Any]) -> None:
        self.transport.send(WSMsgType.TEXT, orjson.dumps(frame))

    def message(self, message: Any) -> None:
        self.game.heard(self, message)

    def logged(self, entries: list[dict[str, Any]], tally: Tally) -> None:
        for entry in entries:
            seq = entry["seq"]
            self.updated.append(seq)
            tally.gaps += seq != self.last + 1
            self.last = max(self.last, seq)


class TableGame:
    """One seat at the table: a game of the mix, its two sides' sockets and players, and
    its commands as they come due; a game that is over is replaced by a new one."""

    def __init__(
        self, port: int, created: dict[str, Any], pages: bool, seed: int, tally: Tally
    ) -> None:
        self.port, self.pages, self.tally = port, pages, tally
        self.rng = random.Random(seed)
        self.every = 10.0
        self.due: collections.deque[float] = collections.deque()
        self.next_due = float("inf")
        self.arrivals_until = 0.0
        self.ahead = 0  # commands still to give at once, before the measured window
        self.ready: asyncio.Future[None] = loop().create_future()
        self.new(created)

    def new(self, created: dict[str, Any]) -> None:
        self.id = str(created["game_id"])
        self.scenario = str(created["scenario"])
        tokens = {link["observer"]: link["url"].split("#")[1] for link in created["links"]}
        self.referee = tokens["referee"]
        self.sides = [o for o in tokens if o not in ("referee", "spectator")][:2]
        self.seats = {side: Seat(self, side, tokens[side]) for side in self.sides}
        self.players = {s: mix.Player(self.scenario, s, self.rng) for s in self.sides}
        self.chains = {s: Chain.fresh()[1] for s in self.sides} if self.pages else {}
        self.keys = {s: HostKey.generate() for s in self.sides} if self.pages else {}
        self.turn = 0
        self.flight: tuple[str, str, float, int | None] | None = None  # id, side, due, seq
        self.done: list[int] = []  # the events of the commands done
        self.refusals = 0
        self.started = False

    async def connect(self) -> None:
        url = f"ws://127.0.0.1:{self.port}/api/games/{self.id}/ws"
        for seat in self.seats.values():
            # A busy server takes its time with thousands of handshakes at once.
            await ws_connect(
                lambda seat=seat: seat, url, max_frame_size=1 << 24, websocket_handshake_timeout=120
            )
        await self.ready

    # --- what the sockets bring ---------------------------------------------------------

    def heard(self, seat: Seat, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "update":
            update = message["view"]
            mix.merge(seat.view, update)
            seat.logged(update.get("log", ()), self.tally)
            if self.pages and "fairness" in update:
                self.contribute(seat)
            answer = message.get("answer")
            if answer and self.flight and answer["command_id"] == self.flight[0]:
                self.flight = (*self.flight[:3], int(answer["seq"]))
            self.check()
        elif kind == "view":
            seat.view = message["view"]
            seat.last = max((e["seq"] for e in seat.view.get("log", ())), default=-1)
            if self.pages:
                self.join(seat)
            self.check()
        elif kind == "answer":
            self.answered(message)
        elif kind in ("problem", "fair") and "problem" in message:
            self.tally.problems[str(message["problem"].get("code"))] += 1

    def join(self, seat: Seat) -> None:
        """A page's anchor and signing key, before the game starts."""
        fairness = seat.view.get("fairness") or {}
        if seat.side in (fairness.get("joining") or ()):
            anchor = self.chains[seat.side].anchor.hex()
            seat.send({"type": "anchor", "anchor": anchor, "key": self.keys[seat.side].public})
        self.contribute(seat)

    def contribute(self, seat: Seat) -> None:
        """The page's element for the roll asked for, if it waits for this side."""
        fairness = seat.view.get("fairness") or {}
        request = fairness.get("request")
        if not request or seat.side not in (fairness.get("waiting") or ()):
            return
        k = int(request["k"])
        if k in seat.given:
            return
        seat.given.add(k)
        element = self.chains[seat.side].element(k).hex()
        seat.send({"type": "contribute", "k": k, "element": element})

    def answered(self, message: dict[str, Any]) -> None:
        if not self.flight or message["command_id"] != self.flight[0]:
            return
        if "problem" not in message:  # answered before (never, unless resent): its seq
            self.flight = (*self.flight[:3], int(message["answer"]["seq"]))
            self.check()
            return
        _, side, due, _ = self.flight
        self.flight = None
        self.players[side].refused()
        command = self.players[side].last[2]
        if self.measures(due):
            self.tally.refused[f"{command['type']}:{message['problem'].get('code')}"] += 1
        self.refusals += 1
        if self.refusals >= REFUSALS_IN_A_ROW:  # given up: the next due command
            self.refusals = 0
            self.due.popleft()
        self.give()

    def check(self) -> None:
        """Both sides' views in (and the game started): ready; both sides hold the event of
        the command in flight: it is done."""
        views = [seat.view for seat in self.seats.values()]
        if not self.started:
            if all(v.get("seq", -1) >= 0 for v in views):
                self.started = True
                if not self.ready.done():
                    self.ready.set_result(None)
                self.give()
            return
        if self.flight is None:
            return
        _, side, due, seq = self.flight
        if seq is None:
            return
        if any(seat.last < seq for seat in self.seats.values()):
            return
        self.flight = None
        self.refusals = 0
        self.due.popleft()
        self.done.append(seq)
        self.players[side].accepted()
        if self.measures(due):
            self.tally.latencies.append(time.monotonic() - due)
            self.tally.accepted[self.players[side].last[2]["type"]] += 1
            first = self.tally.measured.get(self.id, (self.referee, seq, seq))[1]
            self.tally.measured[self.id] = (self.referee, first, seq)
        if self.ahead:
            self.ahead -= 1
            self.due.append(time.monotonic())
        self.give()

    # --- commands as they come due -------------------------------------------------------

    def unfinished(self) -> int:
        """Commands that came due in the window and are not done."""
        return sum(self.measures(d) for d in self.due)

    def measures(self, due: float) -> bool:
        return self.tally.window[0] <= due < self.tally.window[1]

    def paced(self, start: float, every: float, until: float) -> None:
        """From ``start`` on, commands come due at Poisson-distributed times, ``every``
        seconds apart on average, until ``until``."""
        self.every, self.arrivals_until = every, until
        self.next_due = start + self.rng.expovariate(1 / every)
        loop().call_at(self.next_due, self.arrive)

    def arrive(self) -> None:
        self.due.append(self.next_due)
        self.next_due += self.rng.expovariate(1 / self.every)
        if self.next_due < self.arrivals_until:
            loop().call_at(self.next_due, self.arrive)
        self.give()

    def play_ahead(self, commands: int) -> None:
        """Give ``commands`` at once, each as soon as the one before is done (not counted)."""
        if commands:
            self.ahead = commands - 1
            self.due.append(time.monotonic())
            self.give()

    def give(self) -> None:
        """The first due command, if none is in flight and the game is on."""
        if self.flight is not None or not self.due or not self.started:
            return
        decided = self.decide()
        if decided is None:  # the game is over (or its players have run out of ideas)
            self.replace()
            return
        side, command = decided
        seat = self.seats[side]
        command_id = os.urandom(16).hex()
        frame: dict[str, Any] = {"type": "command", "command_id": command_id, "command": command}
        if self.pages:  # signed for the roll it is to be ruled at: the one after the last
            k = seat.last + 1
            frame["k"] = k
            frame["sig"] = self.keys[side].sign(
                order_message(self.id, k, side, command_id, command)
            )
        self.flight = (command_id, side, self.due[0], None)
        seat.send(frame)

    def decide(self) -> tuple[str, mix.Command] | None:
        """The sides take turns at being asked first (in ambush-fields both act)."""
        self.turn += 1
        order = self.sides[self.turn % 2 :] + self.sides[: self.turn % 2]
        for side in order:
            command = self.players[side].next(self.seats[side].view)
            if command is not None:
                return side, command
        return None

    def replace(self) -> None:
        """A new game of the same scenario in this one's place; the commands due meanwhile
        are dropped (a table sets up its next game before giving orders in it)."""
        self.tally.replaced += 1
        self.tally.dropped += self.unfinished()
        self.due.clear()
        self.ahead = 0
        self.close()
        self.started = False
        self.renewing = loop().create_task(self.renew())
        self.renewing.add_done_callback(self.renewed)

    def renewed(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.tally.problems[f"new game: {task.exception()!r}"] += 1

    def close(self) -> None:
        for seat in self.seats.values():
            if hasattr(seat, "transport"):  # not while it connects
                seat.transport.disconnect()

    async def renew(self) -> None:
        body = {"scenario": self.scenario, "chains": "clients" if self.pages else "host"}
        created = await asyncio.to_thread(load.post, self.port, "/api/games", body)
        self.new({**created, "scenario": self.scenario})
        self.ready = loop().create_future()
        await self.connect()


def loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()
