"""The floor: ghillie's stack serving ghillie's endpoints with nothing of ghillie in them.

    .venv/bin/python benchmarks/floor_server.py --db FILE --port N

uvicorn with httptools and uvloop, Starlette's websockets, orjson, and SQLite written by
group commit: one writer thread takes every command waiting, writes them in one transaction
(WAL, synchronous=FULL) and only then are they acknowledged. No rules, views, proofs or
checks beyond a token: a command is given the game's next seq, written, and pushed to both
sides. ``load.py --server floor`` drives it with the same clients as ghillie, so what
ghillie spends a command above this is what its rules, views and proofs cost.

The endpoints and frames are ghillie's as ``load.py --mix end_phase`` uses them:
``POST /api/games`` (the answer's ``game_id`` and ``links``, each link's token after its
``#``), and ``/api/games/{id}/ws``: the auth frame, then a ``view`` frame, then an
``update`` frame to each side after every command (the giver's with its ``answer``), each
padded to the size ghillie's grid-ambush-table frames had (measured at 228a731; ``load.py
--cpu`` prints the bytes received a command for either server, to compare). An event row
is padded to the size of ghillie's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import queue
import secrets
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

SIDES = ("jungle", "orks")
# Bytes of ghillie's frames and rows for grid-ambush-table (benchmarks/client.py's game).
CREATED = 12_129  # POST /api/games's answer
VIEWS = {"jungle": 7_348, "orks": 6_688}  # the view frame after the auth frame
# The update frames of a game's commands (the giver's, the other side's): its set-up
# (the empty ambush orders, then each side's ready), then end_phase, 3 by each side in turn.
SET_UP = ((1_921, 1_503), (1_680, 1_393), (4_128, 3_529))
ROUND = (
    *((3_197, 1_470), (1_934, 1_465), (1_728, 1_699)),  # the Veterans' three
    *((3_320, 1_407), (1_913, 1_402), (1_813, 1_708)),  # the orks' three
)
EVENT = 2_062  # an event's row


def sizes(seq: int) -> tuple[int, int]:
    """The update frames' sizes for the event ``seq`` (the game's first command is 1)."""
    given = seq - 1
    return SET_UP[given] if given < len(SET_UP) else ROUND[(given - len(SET_UP)) % len(ROUND)]


@functools.cache
def _padding(n: int) -> bytes:
    return b',"pad":"' + b"x" * max(0, n - 9) + b'"}'


def padded(value: dict[str, Any], size: int) -> bytes:
    """``value`` as JSON with a ``pad`` key that brings it to about ``size`` bytes."""
    body = orjson.dumps(value)
    return body[:-1] + _padding(size - len(body))


class Game:
    def __init__(self, game_id: str) -> None:
        self.id = game_id
        self.tokens = {secrets.token_hex(16): side for side in SIDES}
        self.seq = 0
        # A connected side's frames to send, in order (one sending task a connection).
        self.watchers: dict[str, asyncio.Queue[str]] = {}


class Committer:
    """One thread writes every waiting row in one transaction, then acknowledges each on the
    event loop: a row is durable before its command is answered."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS games (game_id TEXT PRIMARY KEY, body TEXT)")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS events (game_id TEXT NOT NULL, seq INTEGER NOT NULL, "
            "body TEXT NOT NULL, PRIMARY KEY (game_id, seq))"
        )
        self.waiting: queue.SimpleQueue[tuple[str, tuple[Any, ...], Callable[[], None]]]
        self.waiting = queue.SimpleQueue()
        self.loop = asyncio.get_running_loop()
        threading.Thread(target=self._run, name="committer", daemon=True).start()

    def write(self, sql: str, row: tuple[Any, ...], done: Callable[[], None]) -> None:
        self.waiting.put((sql, row, done))

    def _run(self) -> None:
        while True:
            batch = [self.waiting.get()]
            with contextlib.suppress(queue.Empty):
                while True:
                    batch.append(self.waiting.get_nowait())
            self.db.execute("BEGIN")
            for sql, row, _ in batch:
                self.db.execute(sql, row)
            self.db.execute("COMMIT")
            self.loop.call_soon_threadsafe(_acknowledge, [done for _, _, done in batch])


def _acknowledge(callbacks: list[Callable[[], None]]) -> None:
    for done in callbacks:
        done()


class Floor:
    def __init__(self, db: str) -> None:
        self.db = db
        self.games: dict[str, Game] = {}

    def start(self) -> None:
        self.committer = Committer(self.db)

    async def create(self, request: Request) -> Response:
        game = Game(secrets.token_hex(16))
        written = asyncio.get_running_loop().create_future()
        row = (game.id, orjson.dumps(list(game.tokens)).decode())
        self.committer.write("INSERT INTO games VALUES (?, ?)", row, lambda: written.set_result(1))
        await written
        self.games[game.id] = game
        base = f"{request.base_url}play/{game.id}#"
        links = [{"observer": side, "url": base + token} for token, side in game.tokens.items()]
        body = padded({"game_id": game.id, "links": links}, CREATED)
        return Response(body, media_type="application/json")

    async def socket(self, socket: WebSocket) -> None:
        await socket.accept()
        game = self.games.get(socket.path_params["game_id"])
        try:
            hello = orjson.loads(await socket.receive_text())
        except (WebSocketDisconnect, orjson.JSONDecodeError):
            return
        token = hello.get("token") if isinstance(hello, dict) else None
        side = game.tokens.get(token) if game and isinstance(token, str) else None
        if game is None or side is None:
            await socket.close(code=4404)
            return
        view = padded({"type": "view", "view": {"seq": game.seq}}, VIEWS[side])
        await socket.send_text(view.decode())
        frames: asyncio.Queue[str] = asyncio.Queue()
        game.watchers[side] = frames
        sender = asyncio.create_task(_pump(socket, frames))
        try:
            while True:
                self.command(game, side, await socket.receive_text())
        except WebSocketDisconnect:
            pass
        finally:
            game.watchers.pop(side, None)
            sender.cancel()

    def command(self, game: Game, side: str, text: str) -> None:
        """Write the command as the game's next event; once durable, push it to both sides.
        A frame that is no command is dropped (ghillie would answer it with a problem)."""
        frame = orjson.loads(text)
        if not isinstance(frame, dict) or frame.get("type") != "command":
            return
        command, command_id = frame.get("command"), frame.get("command_id")
        if not isinstance(command, dict) or not isinstance(command_id, str):
            return
        game.seq += 1
        seq = game.seq
        event = {"seq": seq, "side": side, "command_id": command_id, "command": command}
        row = (game.id, seq, padded(event, EVENT).decode())
        done = functools.partial(self.push, game, side, seq, command_id)
        self.committer.write("INSERT INTO events VALUES (?, ?, ?)", row, done)

    def push(self, game: Game, giver: str, seq: int, command_id: str) -> None:
        mine, theirs = sizes(seq)
        view = {"seq": seq, "log": [{"seq": seq}]}
        for side, frames in game.watchers.items():
            if side == giver:
                answer = {"command_id": command_id, "seq": seq}
                frame = padded({"type": "update", "view": view, "answer": answer}, mine)
            else:
                frame = padded({"type": "update", "view": view}, theirs)
            frames.put_nowait(frame.decode())


async def _pump(socket: WebSocket, frames: asyncio.Queue[str]) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await socket.send_text(await frames.get())


async def health(_: Request) -> Response:
    return Response(b'{"ok":true}', media_type="application/json")


def app(db: str) -> Starlette:
    floor = Floor(db)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        floor.start()  # the committer hands acknowledgements to this loop
        yield

    routes = [
        Route("/api/health", health, methods=["GET"]),
        Route("/api/games", floor.create, methods=["POST"]),
        WebSocketRoute("/api/games/{game_id}/ws", floor.socket),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, required=True)
    # load.py lifts ghillie's creation meters; the floor has none.
    args, _ = parser.parse_known_args()
    uvicorn.run(
        app(args.db),
        host="127.0.0.1",
        port=args.port,
        loop="uvloop",
        http="httptools",
        access_log=False,
        log_config=None,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,
    )


if __name__ == "__main__":
    main()
