"""The websocket of one side: the whole view, then an update after every event, and
commands in the other direction (protocol: docs/api.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from ghillie.errors import SEAT_TAKEN, Refusal
from ghillie.server import seats
from ghillie.server.hub import COMMAND_ID_LENGTH, Hub, LiveGame, Watcher
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


async def serve_socket(hub: Hub, socket: WebSocket, game_id: str) -> None:
    """One side's live connection. The first message must be ``{"type": "auth", "token":
    …}`` (with ``after``, the last seq a reconnecting page holds); then the server sends the
    whole view (its log after ``after``), pushes an update after every event, answers
    commands sent as ``{"type": "command", "command_id": …, "command": {…}}``, and answers
    ``{"type": "ping"}`` with ``{"type": "pong"}``."""
    await socket.accept()
    try:
        hello = json.loads(await asyncio.wait_for(socket.receive_text(), AUTH_TIMEOUT))
        token = (
            hello.get("token") if isinstance(hello, dict) and hello.get("type") == "auth" else None
        )
        observer = await hub.observer(game_id, token if isinstance(token, str) else None)
        game = await hub.live(game_id)
    except (Problem, ValueError, TimeoutError, WebSocketDisconnect, KeyError):
        await _close(socket, unknown_game().body())
        return
    # The page says which languages its reader reads (navigator.languages).
    wanted = hello.get("lang") if isinstance(hello.get("lang"), list) else []
    lang = negotiate([w for w in wanted[:8] if isinstance(w, str)], game.scenario.ruleset)
    try:
        device = await _seated(hub, socket, game, observer, hello.get("seat"), lang)
    except WebSocketDisconnect:
        return
    watcher = hub.watch(game, observer, lang)
    watcher.device = device
    try:
        whole = await hub.watch_view(game, watcher, _after(hello.get("after"), game.state.seq))
        seat = seats.state(game, observer, device)
        await socket.send_text(_dumps({"type": "view", "view": whole, "seat": seat}))
        sender = asyncio.create_task(_pump(socket, watcher.queue))
        try:
            await _receive_commands(hub, socket, game_id, watcher)
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
    except WebSocketDisconnect:
        pass
    finally:
        hub.unwatch(game, watcher)


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
        await seats.check(hub, game, observer, device)
    except Refusal:
        pass
    else:
        return device  # its seat rides in the view's frame: a client of old reads on
    # The language too: a device shown no view still reads the taken seat in its own.
    seat = seats.state(game, observer, device)
    await socket.send_text(_dumps({"type": "seat", "seat": seat, "lang": lang}))
    words = speaker(game.scenario.ruleset, lang)
    while True:
        message = _parsed(await socket.receive_text()) or {}
        kind = message.get("type")
        if kind == "ping":  # the page's heartbeat, also while it waits at a taken seat
            await socket.send_text(_dumps({"type": "pong"}))
            continue
        try:
            if kind == "move_seat":
                seat, device = await seats.move(
                    hub,
                    game.game_id,
                    observer,
                    message.get("code"),
                    message.get("seat"),
                    message.get("anchor"),
                    message.get("signing"),
                )
            elif kind == "new_chain":
                seat, device = await seats.new_chain(
                    hub,
                    game.game_id,
                    observer,
                    message.get("seat"),
                    message.get("anchor"),
                    message.get("signing"),
                )
            else:
                seats.visited(hub, game, observer)
                raise Refusal(
                    SEAT_TAKEN,
                    "Another device has taken this seat. Move it here with the code that "
                    "device shows, or, if that device is lost, start a new dice chain on this one.",
                )
        except Refusal as refusal:
            problem = Problem.of(refusal, words).body()
            await socket.send_text(_dumps({"type": "seat", "problem": problem}))
            continue
        except Problem as problem:
            await socket.send_text(_dumps({"type": "seat", "problem": problem.body()}))
            continue
        await socket.send_text(_dumps({"type": "seat", "seat": seat}))
        return device


def _parsed(text: str) -> dict[str, Any] | None:
    if len(text) > MAX_MESSAGE:
        return None
    try:
        message = json.loads(text)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


def _after(after: Any, last: int) -> int:
    """The seq a reconnecting page holds the log up to (the auth message's ``after``): its
    first view's log starts after it. A page that says it holds more than this game has
    (another server's copy, say) is sent the whole log, which replaces what it holds."""
    if isinstance(after, bool) or not isinstance(after, int) or after < -1 or after > last:
        return -1
    return after


async def _pump(socket: WebSocket, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
    while True:
        message = await queue.get()
        if message is None:  # fell too far behind: let the client reconnect and resync
            await socket.close(code=4008)
            return
        await socket.send_text(_dumps(message))


# Commands whose connection has closed, still being ruled on or waiting for their dice.
_ORPHANS: set[asyncio.Task[None]] = set()


async def _receive_commands(hub: Hub, socket: WebSocket, game_id: str, watcher: Watcher) -> None:
    # A command's answer may wait for this very page's roll contribution, so commands are
    # answered by tasks of their own while this loop keeps reading.
    running: set[asyncio.Task[None]] = set()
    try:
        await _read(hub, socket, game_id, watcher, running)
    finally:
        # Not cancelled when the connection goes: a command cut off in the middle of its
        # write would leave the store ahead of the hub's copy of the game (a page that
        # gives an order and drops at once is common now that orders go by the socket).
        # One waiting for the dice waits on, cheaply, until its roll is through; its
        # answer goes nowhere then, and the page's resend on its next connection gets it.
        for task in running:
            _ORPHANS.add(task)
            task.add_done_callback(_ORPHANS.discard)


async def _read(
    hub: Hub, socket: WebSocket, game_id: str, watcher: Watcher, running: set[asyncio.Task[None]]
) -> None:
    observer = watcher.observer
    while True:
        text = await socket.receive_text()
        if len(text) > MAX_MESSAGE:
            await socket.send_text(
                _dumps(
                    {
                        "type": "problem",
                        "problem": Problem(TOO_LARGE, "That message is too large.").body(),
                    }
                )
            )
            continue
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            problem = Problem(BAD_REQUEST, "The message is not well-formed.")
            await socket.send_text(_dumps({"type": "problem", "problem": problem.body()}))
            continue
        kind = message.get("type")
        if kind == "ping":  # the page's heartbeat: this connection still carries messages
            await socket.send_text(_dumps({"type": "pong"}))
            continue
        if kind == "resync":
            after = message.get("after")
            after = after if isinstance(after, int) and after >= -1 else -1
            await socket.send_text(
                _dumps(
                    {
                        "type": "view",
                        "view": await hub.view(game_id, observer, after, watcher.lang),
                    }
                )
            )
            continue
        if kind in ("anchor", "contribute", "renew"):
            await socket.send_text(_dumps(await _fair(hub, game_id, watcher, message)))
            continue
        if kind in ("take_seat", "new_chain"):
            await socket.send_text(_dumps(await _seat(hub, game_id, watcher, message)))
            continue
        command_id, command = message.get("command_id"), message.get("command")
        if (
            kind != "command"
            or not isinstance(command_id, str)
            or not 0 < len(command_id) <= COMMAND_ID_LENGTH
            or not isinstance(command, dict)
        ):
            problem = Problem(BAD_REQUEST, "The message is not well-formed.")
            await socket.send_text(_dumps({"type": "problem", "problem": problem.body()}))
            continue
        signed = (message.get("k"), message.get("sig")) if "sig" in message else None
        task = asyncio.create_task(
            _answer(hub, socket, game_id, watcher, command_id, command, signed)
        )
        running.add(task)
        task.add_done_callback(running.discard)


async def _answer(
    hub: Hub,
    socket: WebSocket,
    game_id: str,
    watcher: Watcher,
    command_id: str,
    command: dict[str, Any],
    signed: tuple[Any, Any] | None = None,
) -> None:
    try:
        game = await hub.live(game_id)
        await seats.check(hub, game, watcher.observer, watcher.device, exact=False)
        try:
            answer = await hub.command(
                game_id, watcher.observer, command_id, command, watcher, watcher.lang, signed
            )
        except (Refusal, Problem):
            # A refusal tells of the game: only to a device that holds the seat (or may take
            # it), which the store, read now, says (ghillie.server.seats.check).
            await seats.check(hub, game, watcher.observer, watcher.device)
            raise
        if command_id in watcher.answered:
            watcher.answered.discard(command_id)
            return  # the answer went out with the update it made
        reply: dict[str, Any] = {"type": "answer", "command_id": command_id, "answer": answer}
    except Refusal as refusal:
        words = speaker(hub.ruleset_of(game_id) or "", watcher.lang)
        problem = Problem.of(refusal, words).body()
        reply = {"type": "answer", "command_id": command_id, "problem": problem}
    except Problem as problem:
        reply = {"type": "answer", "command_id": command_id, "problem": problem.body()}
    except Exception as exc:  # a bug: the page is still told, as over HTTP (issue 10)
        log.error("unhandled error answering a command: %s", where(exc))
        reply = {"type": "answer", "command_id": command_id, "problem": internal_error().body()}
    with contextlib.suppress(Exception):  # the page may have gone meanwhile
        await socket.send_text(_dumps(reply))


async def _seat(
    hub: Hub, game_id: str, watcher: Watcher, message: dict[str, Any]
) -> dict[str, Any]:
    """Take the free seat for this page's device, or give the seat it holds a new dice
    chain (its own was lost: the browser's storage cleared)."""
    words = speaker(hub.ruleset_of(game_id) or "", watcher.lang)
    observer, key = watcher.observer, message.get("seat")
    try:
        if message["type"] == "take_seat":
            seat, _ = await seats.take(hub, game_id, observer, key, watcher, message.get("signing"))
        elif seats.device_of(key) != watcher.device:
            raise Refusal(SEAT_TAKEN, "Another device has taken this seat.")
        else:
            seat, _ = await seats.new_chain(
                hub, game_id, observer, key, message.get("anchor"), message.get("signing")
            )
    except Refusal as refusal:
        return {"type": "seat", "problem": Problem.of(refusal, words).body()}
    except Problem as problem:
        return {"type": "seat", "problem": problem.body()}
    return {"type": "seat", "seat": seat}


async def _fair(
    hub: Hub, game_id: str, watcher: Watcher, message: dict[str, Any]
) -> dict[str, Any]:
    """A page's part in the roll protocol: its chain's anchor, or its element for a roll."""
    observer = watcher.observer
    try:
        await seats.check(hub, await hub.live(game_id), observer, watcher.device)
        if message["type"] == "anchor":
            await hub.anchor(game_id, observer, message.get("anchor"), message.get("key"))
        elif message["type"] == "renew":
            await hub.renew(game_id, observer, message.get("anchor"))
        else:
            await hub.contribute(game_id, observer, message.get("k"), message.get("element"))
    except Refusal as refusal:
        return {"type": "fair", "problem": Problem.of(refusal).body()}
    except Problem as problem:
        return {"type": "fair", "problem": problem.body()}
    except Exception as exc:
        log.error("unhandled error in the roll protocol: %s", where(exc))
        return {"type": "fair", "problem": internal_error().body()}
    return {"type": "fair", "ok": True}


async def _close(socket: WebSocket, problem: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):
        await socket.send_text(_dumps({"type": "problem", "problem": problem}))
        await socket.close(code=4404)


def _dumps(value: Any) -> str:
    # orjson: a view is encoded after every event, for every side watching.
    return orjson.dumps(value).decode()
