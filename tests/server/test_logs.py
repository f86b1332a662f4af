"""The log policy (issue 10, finding 7): logs name an error's class and place, never its
message or traceback, whoever writes them — ghillie, uvicorn, asyncio or a thread. A real
server fails with a canary in the exception's message, in a request handler, a websocket
handler, an unawaited asyncio task and a thread; its captured log holds no canary and no
traceback, but does name each error."""

from __future__ import annotations

import contextlib
import logging
import secrets
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import websockets.sync.client

from ghillie.server.logs import Redact

from .test_browser import serving

HERE = Path(__file__).parent


def test_a_real_server_logs_no_exception_message_and_no_traceback(tmp_path: Path) -> None:
    canary = "CANARY" + secrets.token_hex(8)
    command = [sys.executable, str(HERE / "crash_serve.py"), canary]
    with serving(tmp_path, command) as base:
        with contextlib.suppress(urllib.error.HTTPError):
            urllib.request.urlopen(f"{base}/crash/http", timeout=10)
        with (
            contextlib.suppress(Exception),
            websockets.sync.client.connect(base.replace("http", "ws") + "/crash/ws") as ws,
        ):
            ws.recv(timeout=10)
        for route in ("task", "thread"):
            with urllib.request.urlopen(f"{base}/crash/{route}", timeout=10) as answer:
                assert answer.status == 200
        deadline = time.monotonic() + 10
        log = ""
        while log.count("RuntimeError at ") < 5 and time.monotonic() < deadline:
            time.sleep(0.1)
            log = (tmp_path / "server.log").read_text()
    log = (tmp_path / "server.log").read_text()
    assert canary not in log
    assert "Traceback" not in log
    assert "the secret is" not in log
    # Each failure is still logged, by class and place: the handler's own log line and
    # uvicorn's for the request, uvicorn's for the websocket, asyncio's, the thread's.
    assert log.count("RuntimeError at ") >= 5, log
    assert "Task exception was never retrieved: RuntimeError at " in log
    assert "uncaught error in thread failing: RuntimeError at " in log


def test_the_filter_keeps_first_lines_and_turns_exceptions_into_class_and_place() -> None:
    try:
        raise ValueError("token=SECRET")
    except ValueError as exc:
        caught = exc
    record = logging.LogRecord(
        "uvicorn.error",
        logging.ERROR,
        __file__,
        1,
        "Exception in ASGI application\n",
        None,
        (ValueError, caught, caught.__traceback__),
    )
    assert Redact().filter(record)
    assert record.exc_info is None
    assert record.getMessage().startswith("Exception in ASGI application: ValueError at ")
    assert "SECRET" not in record.getMessage()
    task = logging.LogRecord(
        "asyncio",
        logging.ERROR,
        __file__,
        1,
        "Task was destroyed\ntask: <Task coro=f('SECRET')>",
        None,
        None,
    )
    Redact().filter(task)
    assert task.getMessage() == "Task was destroyed"
    argument = logging.LogRecord(
        "websockets.server", logging.INFO, __file__, 1, "closed: %s", (caught,), None
    )
    Redact().filter(argument)
    assert argument.getMessage().startswith("closed: ValueError at ")
