"""The websocket of one side: the whole view, then an update after every event, and
commands in the other direction (protocol: docs/api.md; the frames: ghillie.server.frames)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any, assert_never

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from ghillie.errors import SEAT_TAKEN, Refusal
from ghillie.server import seats
from ghillie.server.frames import (
    AUTH,
    INCOMING,
    AnswerFrame,
    Auth,
    Command,
    Contribute,
    FairFrame,
    FrameIn,
    GiveAnchor,
    MoveSeat,
    NewChain,
    Ping,
    Pong,
    ProblemFrame,
    Renew,
    Resync,
    SeatFrame,
    TakeSeat,
    ViewFrame,
)
from ghillie.server.hub import Hub, LiveGame, Watcher
from ghillie.server.outbox import Outbox
from ghillie.server.problems import (
    BAD_REQUEST,
    TOO_LARGE,
    Problem,
    internal_error,
    unknown_game,
    where,
)
from ghillie.words import speaker
from ghillie.words.catalog import negotiate

log = logging.getLogger("ghillie.socket")

MAX_MESSAGE = 1 << 20

AUTH_TIMEOUT = 10.0

_TAKEN = (
    "Another device has taken this seat. Move it here with the code that device shows, or, "
    "if that device is lost, start a new dice chain on this one."
)


async def serve_socket(hub: Hub, socket: WebSocket, game_id: str) -> None:
    """One side's live connection. The first message must be ``{"type": "auth", "token":
    …}`` (with ``after``, the last seq a reconnecting page holds); then the server sends the
    whole view (its log after ``after``), pushes an update after every event, answers
    commands sent as ``{"type": "command", "command_id": …, "command": {…}}``, and answers
    ``{"type": "ping"}`` with ``{"type": "pong"}``."""
    await socket.accept()
    try:
        hello = AUTH.validate_python(
            json.loads(await asyncio.wait_for(socket.receive_text(), AUTH_TIMEOUT))
        )
        token = hello.token if isinstance(hello.token, str) else None
        observer = await hub.games.observer(game_id, token)
        game = await hub.games.live(game_id)
    except (Problem, ValueError, TimeoutError, WebSocketDisconnect, KeyError):
        # ValueError: not JSON, or not an auth frame (pydantic's ValidationError is one).
        await _close(socket, unknown_game().body())
        return
    # The page says which languages its reader reads (navigator.languages).
    wanted = hello.lang if isinstance(hello.lang, list) else []
    lang = negotiate([w for w in wanted[:8] if isinstance(w, str)], game.scenario.ruleset)
    try:
        device = await _seated(hub, socket, game, observer, hello.seat, lang)
    except WebSocketDisconnect:
        return
    watcher = hub.fanout.watch(game, observer, lang)
    watcher.device = device
    try:
        await _play(Connection(hub, socket, game_id, watcher), game, hello)
    except WebSocketDisconnect:
        pass
    finally:
        hub.fanout.unwatch(game, watcher)


async def _play(connection: Connection, game: LiveGame, hello: Auth) -> None:
    """The whole view, then updates pushed and frames answered until the page goes."""
    hub, socket, watcher = connection.hub, connection.socket, connection.watcher
    whole = await hub.fanout.watch_view(game, watcher, _after(hello.after, game.state.seq))
    seat = seats.state(game, watcher.observer, watcher.device)
    await socket.send_text(ViewFrame(view=whole, seat=seat).wire())
    sender = asyncio.create_task(_pump(socket, watcher.queue))
    try:
        await connection.receive()
    finally:
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _seated(
    hub: Hub, socket: WebSocket, game: LiveGame, observer: str, key: Any, lang: str
) -> str | None:
    """The device of a connection, once it may see the side (ghillie.server.seats). A device
    that does not hold a taken seat is told so and shown nothing of the game: it may only
    take the seat over (with the holder's code, or with a new chain) until it goes."""
    try:
        device = seats.device_of(key)
    except Refusal:
        device = None
    try:
        await hub.seats.check(game, observer, device)
    except Refusal:
        pass
    else:
        return device  # its seat rides in the view's frame: a client of old reads on
    # The language too: a device shown no view still reads the taken seat in its own.
    seat = seats.state(game, observer, device)
    await socket.send_text(SeatFrame(seat=seat, lang=lang).wire())
    words = speaker(game.scenario.ruleset, lang)
    while True:
        frame = _parsed(await socket.receive_text())
        if isinstance(frame, Ping):  # the heartbeat, also while it waits at a taken seat
            await socket.send_text(Pong().wire())
            continue
        try:
            seat, device = await _take_over(hub, game, observer, frame)
        except Refusal as refusal:
            problem = Problem.of(refusal, words).body()
            await socket.send_text(SeatFrame(problem=problem).wire())
            continue
        except Problem as problem:
            await socket.send_text(SeatFrame(problem=problem.body()).wire())
            continue
        await socket.send_text(SeatFrame(seat=seat).wire())
        return device


async def _take_over(
    hub: Hub, game: LiveGame, observer: str, frame: FrameIn | None
) -> tuple[dict[str, Any], str]:
    """A device at a taken seat moves it here or takes it with a new chain; anything else
    it sends is refused (and the holder told it tried)."""
    match frame:
        case MoveSeat():
            return await hub.seats.move(
                game.game_id, observer, frame.code, frame.seat, frame.anchor, frame.signing
            )
        case NewChain():
            return await hub.seats.new_chain(
                game.game_id, observer, frame.seat, frame.anchor, frame.signing
            )
    hub.seats.visited(game, observer)
    raise Refusal(SEAT_TAKEN, _TAKEN)


def _parsed(text: str) -> FrameIn | None:
    """The frame a page sent, None if it is too large or not a well-formed frame."""
    if len(text) > MAX_MESSAGE:
        return None
    try:
        return INCOMING.validate_python(json.loads(text))
    except ValueError:  # not JSON, or no frame (pydantic's ValidationError is a ValueError)
        return None


def _after(after: Any, last: int) -> int:
    """The seq a reconnecting page holds the log up to (the auth message's ``after``): its
    first view's log starts after it. A page that says it holds more than this game has
    (another server's copy, say) is sent the whole log, which replaces what it holds."""
    if isinstance(after, bool) or not isinstance(after, int) or after < -1 or after > last:
        return -1
    return after


async def _pump(socket: WebSocket, queue: Outbox[dict[str, Any] | None]) -> None:
    while True:
        message = await queue.get()
        if message is None:  # fell too far behind: let the client reconnect and resync
            await socket.close(code=4008)
            return
        await socket.send_text(_dumps(message))


# Commands whose connection has closed, still being ruled on or waiting for their dice.
_ORPHANS: set[asyncio.Task[None]] = set()


@dataclass
class Connection:
    """A side's page connected to its game: the frames it sends, answered by their class."""

    hub: Hub
    socket: WebSocket
    game_id: str
    watcher: Watcher
    # A command's answer may wait for this very page's roll contribution, so commands are
    # answered by tasks of their own while the connection keeps reading.
    running: set[asyncio.Task[None]] = field(default_factory=set)

    async def receive(self) -> None:
        try:
            while True:
                await self.answer(await self.socket.receive_text())
        finally:
            # Not cancelled when the connection goes: a command cut off in the middle of
            # its write would leave the store ahead of the hub's copy of the game (a page
            # that gives an order and drops at once is common now that orders go by the
            # socket). One waiting for the dice waits on, cheaply, until its roll is
            # through; its answer goes nowhere then, and the page's resend on its next
            # connection gets it.
            for task in self.running:
                _ORPHANS.add(task)
                task.add_done_callback(_ORPHANS.discard)

    async def answer(self, text: str) -> None:
        """Answer one frame, by its class."""
        if len(text) > MAX_MESSAGE:
            await self.refuse(Problem(TOO_LARGE, "That message is too large."))
            return
        try:
            frame = INCOMING.validate_python(json.loads(text))
        except ValueError:  # not JSON, or no frame (pydantic's ValidationError is one)
            await self.refuse(Problem(BAD_REQUEST, "The message is not well-formed."))
            return
        match frame:
            case Ping():  # the page's heartbeat: this connection still carries messages
                await self.socket.send_text(Pong().wire())
            case Resync():
                await self.socket.send_text(await self.resync(frame))
            case GiveAnchor() | Contribute() | Renew():
                await self.socket.send_text((await self.fair(frame)).wire())
            case TakeSeat() | NewChain():
                await self.socket.send_text((await self.seat(frame)).wire())
            case MoveSeat():  # only a device at a seat another holds moves it (_seated)
                await self.refuse(Problem(BAD_REQUEST, "The message is not well-formed."))
            case Command():
                task = asyncio.create_task(self.command(frame))
                self.running.add(task)
                task.add_done_callback(self.running.discard)
            case _:
                assert_never(frame)

    async def refuse(self, problem: Problem) -> None:
        await self.socket.send_text(ProblemFrame(problem=problem.body()).wire())

    async def resync(self, frame: Resync) -> str:
        after = frame.after if isinstance(frame.after, int) and frame.after >= -1 else -1
        watcher = self.watcher
        view = await self.hub.view(self.game_id, watcher.observer, after, watcher.lang)
        return ViewFrame(view=view).wire()

    async def command(self, frame: Command) -> None:
        reply = await _answered(self.hub, self.game_id, self.watcher, frame)
        if reply is None:
            return  # the answer went out with the update it made
        with contextlib.suppress(Exception):  # the page may have gone meanwhile
            await self.socket.send_text(reply.wire())

    async def seat(self, frame: TakeSeat | NewChain) -> SeatFrame:
        """Take the free seat for this page's device, or give the seat it holds a new dice
        chain (its own was lost: the browser's storage cleared)."""
        hub, watcher = self.hub, self.watcher
        words = speaker(hub.games.ruleset_of(self.game_id) or "", watcher.lang)
        try:
            seat = await _seat(hub, self.game_id, watcher, frame)
        except Refusal as refusal:
            return SeatFrame(problem=Problem.of(refusal, words).body())
        except Problem as problem:
            return SeatFrame(problem=problem.body())
        return SeatFrame(seat=seat)

    async def fair(self, frame: GiveAnchor | Contribute | Renew) -> FairFrame:
        """A page's part in the roll protocol: its chain's anchor, or its element for a roll."""
        try:
            await _fair(self.hub, self.game_id, self.watcher, frame)
        except Refusal as refusal:
            return FairFrame(problem=Problem.of(refusal).body())
        except Problem as problem:
            return FairFrame(problem=problem.body())
        except Exception as exc:
            log.error("unhandled error in the roll protocol: %s", where(exc))
            return FairFrame(problem=internal_error().body())
        return FairFrame(ok=True)


async def _answered(hub: Hub, game_id: str, watcher: Watcher, frame: Command) -> AnswerFrame | None:
    """A command's answer for the page that gave it; None if its update carried it."""
    command_id = frame.command_id
    try:
        answer = await _command(hub, game_id, watcher, frame)
        if command_id in watcher.answered:
            watcher.answered.discard(command_id)
            return None
        return AnswerFrame(command_id=command_id, answer=answer)
    except Refusal as refusal:
        words = speaker(hub.games.ruleset_of(game_id) or "", watcher.lang)
        return AnswerFrame(command_id=command_id, problem=Problem.of(refusal, words).body())
    except Problem as problem:
        return AnswerFrame(command_id=command_id, problem=problem.body())
    except Exception as exc:  # a bug: the page is still told, as over HTTP (issue 10)
        log.error("unhandled error answering a command: %s", where(exc))
        return AnswerFrame(command_id=command_id, problem=internal_error().body())


async def _command(hub: Hub, game_id: str, watcher: Watcher, frame: Command) -> dict[str, Any]:
    game = await hub.games.live(game_id)
    await hub.seats.check(game, watcher.observer, watcher.device, exact=False)
    try:
        return await hub.commands.command(
            game_id,
            watcher.observer,
            frame.command_id,
            frame.command,
            watcher,
            watcher.lang,
            frame.signed,
        )
    except (Refusal, Problem):
        # A refusal tells of the game: only to a device that holds the seat (or may take
        # it), which the store, read now, says (ghillie.server.seats.check).
        await hub.seats.check(game, watcher.observer, watcher.device)
        raise


async def _seat(
    hub: Hub, game_id: str, watcher: Watcher, frame: TakeSeat | NewChain
) -> dict[str, Any]:
    observer = watcher.observer
    if isinstance(frame, TakeSeat):
        seat, _ = await hub.seats.take(game_id, observer, frame.seat, watcher, frame.signing)
        return seat
    if seats.device_of(frame.seat) != watcher.device:
        raise Refusal(SEAT_TAKEN, "Another device has taken this seat.")
    seat, _ = await hub.seats.new_chain(game_id, observer, frame.seat, frame.anchor, frame.signing)
    return seat


async def _fair(
    hub: Hub, game_id: str, watcher: Watcher, frame: GiveAnchor | Contribute | Renew
) -> None:
    observer = watcher.observer
    await hub.seats.check(await hub.games.live(game_id), observer, watcher.device)
    match frame:
        case GiveAnchor():
            await hub.commands.anchor(game_id, observer, frame.anchor, frame.key)
        case Renew():
            await hub.commands.renew(game_id, observer, frame.anchor)
        case Contribute():
            await hub.commands.contribute(game_id, observer, frame.k, frame.element)


async def _close(socket: WebSocket, problem: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):
        await socket.send_text(ProblemFrame(problem=problem).wire())
        await socket.close(code=4404)


def _dumps(value: Any) -> str:
    # orjson: a view is encoded after every event, for every side watching.
    return orjson.dumps(value).decode()
