"""The server's log names an error's class and place, never its message or traceback.

An exception's message and the locals a traceback shows can carry the data that caused it —
a secret, a token, a SQL parameter (TRUST.md §3.5, CWE-209 and CWE-532). ghillie's own code
logs :func:`ghillie.server.problems.where` only; this module holds everything else to the
same policy: uvicorn's "Exception in ASGI application" with its traceback, asyncio's "Task
exception was never retrieved" with the task's repr (which shows the exception's message),
websockets' handler errors, and exceptions that escape a thread or the main program.
"""

from __future__ import annotations

import logging
import sys
import threading
from types import TracebackType

from ghillie.server.problems import where

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Loggers whose messages may carry more after their first line: asyncio appends the reprs of
# the failed future, handle or task (their arguments and exceptions included).
FIRST_LINE_ONLY = ("asyncio",)


class Redact(logging.Filter):
    """Rewrite a record to its first line and, if it carries an exception, that exception's
    class and place; drop the traceback and stack. Arguments that are exceptions become
    their class and place too."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "uvicorn.error" and '"WebSocket %s"' in str(record.msg):
            # uvicorn logs each websocket's client address and concrete path with its query:
            # the access log's allow-list (middleware.AccessLog) has neither.
            record.msg, record.args = "websocket " + str(record.msg).rsplit(" ", 1)[-1], None
        if isinstance(record.args, tuple):
            record.args = tuple(
                where(a) if isinstance(a, BaseException) else a for a in record.args
            )
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None or record.name.split(".")[0] in FIRST_LINE_ONLY or record.stack_info:
            try:
                text = record.getMessage()
            except Exception:  # a bad format string: keep the template's first line
                text = str(record.msg)
            first = text.strip().splitlines()[0].rstrip(":") if text.strip() else "error"
            record.msg = f"{first}: {where(exc)}" if exc is not None else first
            record.args = None
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


def configure(level: int = logging.INFO) -> None:
    """Log to stderr through :class:`Redact`, and route exceptions that escape a thread or
    the program through the log instead of printing their tracebacks."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler.addFilter(Redact())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    sys.excepthook = _uncaught
    threading.excepthook = _uncaught_in_thread


def _uncaught(
    kind: type[BaseException], exc: BaseException, traceback: TracebackType | None
) -> None:
    logging.getLogger("ghillie").error("uncaught error: %s", where(exc.with_traceback(traceback)))


def _uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is not None:
        name = args.thread.name if args.thread is not None else "?"
        logging.getLogger("ghillie").error(
            "uncaught error in thread %s: %s", name, where(args.exc_value)
        )
