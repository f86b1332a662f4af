"""Errors as RFC 9457 problem documents with stable codes.

A problem never echoes the request or a validator's internals, and never depends on hidden
state: its status, code and detail come from the refusal's code and fixed detail alone (and
its field, when the rule names the command field it concerns).
"""

from __future__ import annotations

from typing import Any

import orjson
from starlette.types import Send

from ghillie import errors
from ghillie.errors import Refusal
from ghillie.words import Speaker

UNKNOWN_GAME = "unknown_game"  # also a wrong or missing token: the same answer
BAD_REQUEST = "bad_request"
TOO_LARGE = "too_large"
UNAVAILABLE = "unavailable"
BAD_SCENARIO = "bad_scenario"
NOT_FOUND = "not_found"
TOO_MANY = "too_many_requests"  # game creation beyond its rate (server/limits.py)
BUSY = "busy"  # every game in memory is in use: none can make room for a new one

# Status by code; every other refusal is a rule saying no: 409 (the game's state forbids it).
STATUS = {
    UNKNOWN_GAME: 404,
    NOT_FOUND: 404,
    BAD_REQUEST: 400,
    TOO_LARGE: 413,
    UNAVAILABLE: 503,
    TOO_MANY: 429,
    BUSY: 503,
    BAD_SCENARIO: 422,
    errors.MALFORMED_COMMAND: 422,
    errors.BAD_DIE: 422,
    errors.UNKNOWN_COMMAND: 422,
    errors.UNKNOWN_SIDE: 403,
}
TITLES = {
    404: "Not found",
    400: "Bad request",
    403: "Forbidden",
    409: "Refused",
    405: "Not allowed",
    413: "Too large",
    422: "Unprocessable",
    429: "Too many requests",
    500: "Internal error",
    503: "Unavailable",
}


class Problem(Exception):
    def __init__(
        self, code: str, detail: str, status: int | None = None, *, field: str | None = None
    ) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail
        self.status = status or STATUS.get(code, 409)
        self.field = field  # the command field the refusal concerns, if the rule said

    @classmethod
    def of(cls, refusal: Refusal, words: Speaker | None = None) -> Problem:
        """The refusal as a problem; with ``words``, its fixed detail in the reader's
        language (a catalogue entry: the same sentence whatever the refusal touched)."""
        detail = refusal.spoken(words) if words is not None else refusal.detail
        return cls(refusal.code, detail, field=refusal.field)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "type": f"/problems/{self.code}",
            "title": TITLES.get(self.status, "Error"),
            "status": self.status,
            "code": self.code,
            "detail": self.detail,
        }
        if self.field is not None:
            body["field"] = self.field  # an RFC 9457 extension member
        return body


def where(exc: BaseException) -> str:
    """An exception for the log: its class and where it was raised, never its message (a
    message can carry the data that caused it: a secret, a token, a SQL parameter)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    place = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb else "?"
    return f"{exc.__class__.__name__} at {place}"


INTERNAL_ERROR = "internal_error"


def internal_error() -> Problem:
    """What a request or a websocket message is answered when the server itself failed:
    the same fixed words whatever happened (the log names the error's class and place)."""
    return Problem(INTERNAL_ERROR, "Something went wrong on the server.", 500)


def unknown_game() -> Problem:
    return Problem(UNKNOWN_GAME, "There is no such game, or the link is not valid.")


PROBLEM_JSON = "application/problem+json"


async def send_problem(send: Send, problem: Problem, *headers: tuple[bytes, bytes]) -> None:
    """Answer with ``problem`` from ASGI middleware, before or instead of the app (with
    ``headers`` besides its type and length, such as ``retry-after``)."""
    body = orjson.dumps(problem.body())
    await send(
        {
            "type": "http.response.start",
            "status": problem.status,
            "headers": [
                (b"content-type", PROBLEM_JSON.encode()),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
