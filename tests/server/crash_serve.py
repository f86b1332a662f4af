"""``ghillie serve`` (the same app, logging and uvicorn settings) with three routes that fail
with a canary in the exception's message: in a request handler, in a websocket handler and
in an asyncio task nobody awaits; and a thread that fails. For the log-policy test only.

    python tests/server/crash_serve.py CANARY --port PORT --db FILE
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import threading

from fastapi import WebSocket

from ghillie.server.limits import Limits
from ghillie.server.logs import configure
from ghillie.server.run import build, serve


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("canary")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    args = parser.parse_args()
    canary = args.canary
    configure()
    limits = Limits()
    app, store = build(args.db, limits)

    def fail() -> None:
        secret = canary  # a local a traceback with locals would show
        raise RuntimeError(f"the secret is {secret}")

    @app.get("/crash/http")
    async def crash_http() -> None:
        fail()

    @app.websocket("/crash/ws")
    async def crash_ws(socket: WebSocket) -> None:
        await socket.accept()
        fail()

    @app.get("/crash/task")
    async def crash_task() -> dict[str, bool]:
        async def failing() -> None:
            fail()

        task = asyncio.get_running_loop().create_task(failing())
        await asyncio.sleep(0.05)
        del task  # never awaited: asyncio logs "Task exception was never retrieved"
        gc.collect()
        return {"ok": True}

    @app.get("/crash/thread")
    async def crash_thread() -> dict[str, bool]:
        thread = threading.Thread(target=fail, name="failing")
        thread.start()
        thread.join()
        return {"ok": True}

    try:
        serve(app, "127.0.0.1", args.port, limits)
    finally:
        app.state.hub.close()
        store.close()


if __name__ == "__main__":
    main()
