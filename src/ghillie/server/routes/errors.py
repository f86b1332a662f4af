"""Every answer that is not a success: a problem document (RFC 9457) with a fixed detail."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from ghillie.errors import Refusal
from ghillie.server.problems import (
    BAD_REQUEST,
    NOT_FOUND,
    PROBLEM_JSON,
    Problem,
    internal_error,
    where,
)
from ghillie.server.routes.depends import accepted, the_hub
from ghillie.words import speaker
from ghillie.words.catalog import negotiate

log = logging.getLogger("ghillie.server")


class ProblemBody(BaseModel):
    type: str
    title: str
    status: int
    code: str
    detail: str
    field: str | None = Field(None, description="the command field the refusal concerns")


# Every API answer that is not a success is one of these problem documents.
PROBLEMS: dict[int | str, dict[str, Any]] = {
    status: {"model": ProblemBody, "content": {PROBLEM_JSON: {}}, "description": title}
    for status, title in (
        (400, "the request is not well-formed"),
        (404, "unknown game, or a link that is not valid"),
        (409, "refused by the rules"),
        (413, "too large"),
        (422, "malformed command or scenario"),
        (429, "too many games created: wait for the Retry-After header's seconds"),
        (503, "the game could not be saved"),
    )
}


def add_problems(app: FastAPI) -> None:
    """Answer every error ``app`` meets with a problem document."""
    app.add_exception_handler(Problem, _problem)  # type: ignore[arg-type]
    app.add_exception_handler(Refusal, _refusal)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _crash)


async def _problem(_request: Request, exc: Problem) -> Response:
    return JSONResponse(exc.body(), status_code=exc.status, media_type=PROBLEM_JSON)


async def _refusal(request: Request, exc: Refusal) -> Response:
    # A rule's fixed sentence, in the reader's language for that game's ruleset.
    game_id = str(request.path_params.get("game_id", ""))
    ruleset = the_hub(request).games.ruleset_of(game_id)
    words = speaker(ruleset, negotiate(accepted(request), ruleset)) if ruleset else None
    return await _problem(request, Problem.of(exc, words))


async def _invalid(request: Request, _exc: Exception) -> Response:
    # Never the validator's own report: it would echo the input (TRUST.md §3.5).
    return await _problem(request, Problem(BAD_REQUEST, "The request is not well-formed."))


async def _http(request: Request, exc: StarletteHTTPException) -> Response:
    if exc.status_code == 404:
        return await _problem(request, Problem(NOT_FOUND, "There is nothing here."))
    problem = Problem(BAD_REQUEST, "The request cannot be served.", exc.status_code)
    return JSONResponse(problem.body(), status_code=exc.status_code, media_type=PROBLEM_JSON)


async def _crash(_request: Request, exc: Exception) -> Response:
    log.error("unhandled error: %s", where(exc))
    problem = internal_error()
    return JSONResponse(problem.body(), status_code=500, media_type=PROBLEM_JSON)
