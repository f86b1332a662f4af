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

A connection that drops is opened again, as a page does: it sends ``after`` (the last event
it holds) and takes the whole view with the log after it, gives its element again for a
roll still waiting for it, and sends the command in flight again with its id (answered
once, whichever connection it reached). A connection that has heard nothing for ``STALL``
seconds while its game waits for a command is pinged, and closed and opened again if no
pong comes within ``PONG`` seconds. Every opening (handshake and view) holds one of the
process's ``opening`` permits and has ``READY`` seconds; a side not in after ``TRIES`` of
them gives its game up (at set-up, the game is dropped and counted; in the window, its
commands are never done and count as infinitely late).
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
from picows import WSError, WSMsgType, WSTransport, ws_connect

from ghillie.fairness.chains import Chain
from ghillie.fairness.hashlog import HostKey, order_message

REFUSALS_IN_A_ROW = 5  # a due command the player cannot get accepted is given up
READY = 60.0  # seconds for a websocket's handshake and view, under a loaded server
TRIES = 3  # openings of a side's websocket before its game is given up
# A connection silent for STALL seconds while its game waits for a command is pinged, and
# taken for dead if no pong comes within PONG. Generous on purpose: a saturated server
# answers pings more than 10 s late (5,000 games, FIGURES.md 2026-12-04), and opening its
# connections again would only add whole views to its backlog.
STALL = 30.0
PONG = 30.0


@dataclass
class Tally:
    """What one client process measured of the commands that came due in the window."""

    latencies: list[float] = field(default_factory=list)  # seconds, due → both sides updated
    # The same, by who holds the game's chains and the command's type ("pages plot"): where
    # a tail comes from (a page-held roll waits for the pages' elements, each written first).
    kinds: dict[str, list[float]] = field(default_factory=dict)
    refused: collections.Counter[str] = field(default_factory=collections.Counter)
    accepted: collections.Counter[str] = field(default_factory=collections.Counter)
    dropped: int = 0  # due while the game was over and a new one was being made
    gaps: int = 0  # events a side's log skipped: none, when all is well
    repeated: int = 0  # updates a whole view already held (ignored, as a page does)
    problems: collections.Counter[str] = field(default_factory=collections.Counter)
    replaced: int = 0  # games over (or stuck) and replaced by a new one
    reconnects: int = 0  # connections that dropped (or stalled) and were opened again
    retries: int = 0  # openings tried again (a handshake or view not in within READY)
    stalls: int = 0  # connections silent past STALL, unanswered ping: closed and reopened
    lost: int = 0  # games given up after TRIES openings of one of their sides
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
        self.transport: WSTransport | None = None  # None while (re)connecting
        self.viewed: asyncio.Future[None] | None = None  # the opening's view, while opening
        self.heard_at = time.monotonic()
        self.pinged = 0.0

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport, self.parts = transport, []
        auth: dict[str, Any] = {"type": "auth", "token": self.token}
        if self.last >= 0:  # a page resuming: the log after what it holds
            auth["after"] = self.last
        self.send(auth)

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        if transport is self.transport:  # not one this side closed or replaced
            self.transport = None
            self.game.lost(self)

    def send(self, frame: dict[str, Any]) -> None:
        if self.transport is not None:  # else sent again once open (TableGame.heard)
            self.transport.send(WSMsgType.TEXT, orjson.dumps(frame))

    def close(self) -> None:
        transport, self.transport = self.transport, None
        if transport is not None:
            transport.disconnect()

    def message(self, message: Any) -> None:
        self.heard_at = time.monotonic()
        self.game.heard(self, message)

    def viewing(self, view: mix.View, tally: Tally) -> None:
        """A whole view: the first, or a resumed one whose log follows what this side holds."""
        if self.last < 0:
            self.view = view
            self.last = max((e["seq"] for e in view.get("log", ())), default=-1)
        else:
            log = view.get("log", [])
            self.view = {**view, "log": [*self.view.get("log", ()), *log]}
            self.logged(log, tally)
        if self.viewed is not None and not self.viewed.done():
            self.viewed.set_result(None)

    def logged(self, entries: list[dict[str, Any]], tally: Tally) -> None:
        for entry in entries:
            seq = entry["seq"]
            if seq <= self.last:
                continue  # held already (see TableGame.heard)
            self.updated.append(seq)
            tally.gaps += seq != self.last + 1
            self.last = seq

    def stale(self, update: mix.View) -> bool:
        """An update whose events this side's whole view already holds: one queued for it
        while that view was made (the server registers a connection before it builds its
        view). A page drops it (static/socket.js, ``accept``), its other keys older than
        the view's."""
        log = update.get("log") or ()
        return bool(log) and log[-1]["seq"] <= self.last


class TableGame:
    """One seat at the table: a game of the mix, its two sides' sockets and players, and
    its commands as they come due; a game that is over is replaced by a new one."""

    def __init__(
        self,
        port: int,
        created: dict[str, Any],
        pages: bool,
        seed: int,
        tally: Tally,
        opening: asyncio.Semaphore,
    ) -> None:
        self.port, self.pages, self.tally, self.opening = port, pages, tally, opening
        self.rng = random.Random(seed)
        self.every = 10.0
        self.due: collections.deque[float] = collections.deque()
        self.next_due = float("inf")
        self.arrivals_until = 0.0
        self.ahead = 0  # commands still to give at once, before the measured window
        self.frame: dict[str, Any] = {}  # the command in flight's, to send again
        self.closed = False
        self.given_up = False  # a side not opened again after TRIES: never played again
        self.redialing: set[asyncio.Task[bool]] = set()
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

    # --- connections ----------------------------------------------------------------------

    async def connect(self) -> bool:
        """Both sides' websockets open and their views in; False (and closed) if a side's
        is not after TRIES openings."""
        ok = all(await asyncio.gather(*(self.keep(seat) for seat in self.seats.values())))
        if not ok:
            self.give_up()
        return ok

    async def keep(self, seat: Seat) -> bool:
        for attempt in range(TRIES):
            if attempt:
                self.tally.retries += 1
                await asyncio.sleep(self.rng.uniform(1.0, 5.0))  # not all at once again
            if await self.dial(seat):
                return True
        return False

    async def dial(self, seat: Seat) -> bool:
        """Open ``seat``'s websocket and wait for its view, within READY seconds, holding one
        of the openings: a loaded server is not sent more handshakes than it can answer."""
        url = f"ws://127.0.0.1:{self.port}/api/games/{self.id}/ws"
        seat.viewed = loop().create_future()
        async with self.opening:
            try:
                async with asyncio.timeout(READY):
                    await ws_connect(
                        lambda: seat, url, max_frame_size=1 << 24, websocket_handshake_timeout=READY
                    )
                    await seat.viewed
            except (TimeoutError, OSError, WSError):
                seat.close()
                return False
            finally:
                seat.viewed = None
        return not self.closed

    def lost(self, seat: Seat) -> None:
        """A side's websocket dropped: opened again, unless it was opening (its dial tries
        again) or the game is no longer played."""
        if seat.viewed is not None and not seat.viewed.done():
            seat.viewed.set_exception(ConnectionResetError())
            return
        if self.closed or self.seats.get(seat.side) is not seat:
            return
        self.tally.reconnects += 1
        task = loop().create_task(self.keep(seat))
        self.redialing.add(task)
        task.add_done_callback(self.redialed)

    def redialed(self, task: asyncio.Task[bool]) -> None:
        self.redialing.discard(task)
        if not task.cancelled() and not task.result() and not self.closed:
            self.give_up()  # its commands are never done: infinitely late

    def give_up(self) -> None:
        self.tally.lost += 1
        self.given_up = True
        self.close()

    def watch(self, now: float) -> None:
        """A side silent for STALL seconds while a command is in flight is pinged; one that
        has not answered PONG seconds later is closed, and so opened again."""
        if self.flight is None:
            return
        for seat in self.seats.values():
            if seat.transport is None or now - seat.heard_at < STALL:
                continue
            if seat.pinged <= seat.heard_at:
                seat.pinged = now
                seat.send({"type": "ping"})
            elif now - seat.pinged > PONG:
                self.tally.stalls += 1
                seat.transport.disconnect(graceful=False)  # no close frame to wait on

    # --- what the sockets bring ---------------------------------------------------------

    def heard(self, seat: Seat, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "update":
            update = message["view"]
            if seat.stale(update):
                self.tally.repeated += 1
            else:
                mix.merge(seat.view, update)
                seat.logged(update.get("log", ()), self.tally)
                if self.pages and "fairness" in update:
                    self.contribute(seat)
            answer = message.get("answer")
            if answer and self.flight and answer["command_id"] == self.flight[0]:
                self.flight = (*self.flight[:3], int(answer["seq"]))
            self.check()
        elif kind == "view":
            seat.viewing(message["view"], self.tally)
            if self.pages:
                seat.given.clear()  # an element sent on a connection that dropped: again
                self.join(seat)
            if self.flight and self.flight[1] == seat.side and self.flight[3] is None:
                seat.send(self.frame)  # its answer may have gone with the old connection
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
            took, kind = time.monotonic() - due, self.players[side].last[2]["type"]
            self.tally.latencies.append(took)
            self.tally.accepted[kind] += 1
            holder = "pages" if self.pages else "host"
            self.tally.kinds.setdefault(f"{holder} {kind}", []).append(took)
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
        self.frame = frame
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
            seat.close()

    def end(self) -> None:
        """Closed for good: no connection is opened again."""
        self.closed = True
        self.close()

    async def renew(self) -> None:
        body = {"scenario": self.scenario, "chains": "clients" if self.pages else "host"}
        created = await asyncio.to_thread(load.post, self.port, "/api/games", body)
        self.new({**created, "scenario": self.scenario})
        await self.connect()  # if not, its commands are never done


def loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()
