"""Playing: a side's commands and their answers, its page's part in the roll protocol (its
chain's anchor, its element for each roll), and the websocket that carries all of it live."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, WebSocket
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ghillie.bounds import MAGNITUDE
from ghillie.server.frames import COMMAND_ID_LENGTH
from ghillie.server.routes.depends import ASeat, TheHub
from ghillie.server.socket import serve_socket

router = APIRouter()

ROLL_WAIT = 30.0  # seconds an API call waits for the sides' contributions before answering

# The public key a device signs its side's orders with (docs/fairness.md, "Orders").
Signing = Annotated[
    str | None,
    Field(
        min_length=64,
        max_length=64,
        description="the public Ed25519 key this device signs the side's orders with, hex",
    ),
]


class CommandRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command_id: str = Field(
        min_length=1,
        max_length=COMMAND_ID_LENGTH,
        description="chosen by the client; a retry with the same id gets the first answer",
    )
    command: dict[str, Any] = Field(description="one of the ruleset's commands, with its type")
    k: int | None = Field(
        None,
        ge=0,
        le=MAGNITUDE,
        description="the roll the side's seat key signed the command for (its page's next "
        "roll: one after the last event it holds)",
    )
    sig: str | None = Field(
        None,
        min_length=128,
        max_length=128,
        description="the seat key's Ed25519 signature of the order (docs/fairness.md, Orders)",
    )


class Anchor(BaseModel):
    model_config = ConfigDict(extra="forbid")

    anchor: str = Field(min_length=64, max_length=64, description="x_0 of the side's chain, hex")
    key: Signing = None


class Contribution(BaseModel):
    model_config = ConfigDict(extra="forbid")

    k: int = Field(
        ge=0, le=MAGNITUDE, description="the roll asked for (fairness.request.k in the view)"
    )
    element: str = Field(min_length=64, max_length=64, description="x_{k+1} of the chain, hex")


class CommandAnswer(BaseModel):
    command_id: str
    seq: int
    lines: list[dict[str, Any]] = Field(description="what the acting side was told, as recorded")
    said: list[dict[str, Any]] = Field(
        default_factory=list, description="the same lines in the reader's words: text, rules"
    )


class CommandWaiting(BaseModel):
    """A command taken but not answered yet: its roll waits for a side's page (202)."""

    command_id: str
    status: Literal["waiting"] = "waiting"
    detail: str
    poll: str = Field(description="GET it for the answer once the roll is through")


WAITING: dict[int | str, dict[str, Any]] = {
    202: {"model": CommandWaiting, "description": "taken; its roll still waits"}
}


@router.post("/api/games/{game_id}/commands", response_model=CommandAnswer, responses=WAITING)
async def command(game_id: str, body: CommandRequest, caller: ASeat) -> Any:
    """Give a command as the link's side. Acknowledged only once it is durably saved. If
    its roll still waits for a side's page after a while, the answer is 202 with where to
    poll for it (the command goes on: it is never answered 503 and then carried out)."""
    observer = await caller.seated()
    lang = await caller.lang()
    given = caller.hub.commands.command(
        game_id,
        observer,
        body.command_id,
        body.command,
        lang=lang,
        signed=None if body.sig is None else (body.k, body.sig),
    )
    try:
        answer = await asyncio.wait_for(given, ROLL_WAIT)
    except TimeoutError:
        return _waiting(game_id, body.command_id)
    return CommandAnswer(**answer)


@router.get(
    "/api/games/{game_id}/commands/{command_id}", response_model=CommandAnswer, responses=WAITING
)
async def command_answer(game_id: str, command_id: str, caller: ASeat) -> Any:
    """The answer to a command this side gave (200), or 202 while its roll still waits;
    404 for a command id this side never gave."""
    observer = await caller.seated()
    lang = await caller.lang()
    answer = await caller.hub.commands.answer_of(game_id, observer, command_id, lang)
    if answer is None:
        return _waiting(game_id, command_id)
    return CommandAnswer(**answer)


def _waiting(game_id: str, command_id: str) -> JSONResponse:
    body = CommandWaiting(
        command_id=command_id,
        detail="The roll is waiting for a side's page; the command goes on. Poll for its "
        "answer, or send it again with the same command_id.",
        poll=f"/api/games/{game_id}/commands/{quote(command_id, safe='')}",
    )
    return JSONResponse(body.model_dump(), status_code=202)


@router.post("/api/games/{game_id}/anchor")
async def anchor(game_id: str, body: Anchor, caller: ASeat) -> dict[str, Any]:
    """A side's page gives the anchor of the roll chain it holds, before the game starts
    (games created with ``chains: clients``). Answers the roll protocol's status."""
    observer = await caller.seated()
    return await caller.hub.commands.anchor(game_id, observer, body.anchor, body.key)


@router.post("/api/games/{game_id}/contributions")
async def contribute(game_id: str, body: Contribution, caller: ASeat) -> dict[str, Any]:
    """A side's page gives its chain element for the roll the view says is asked for."""
    observer = await caller.seated()
    return await caller.hub.commands.contribute(game_id, observer, body.k, body.element)


@router.websocket("/api/games/{game_id}/ws")
async def websocket(socket: WebSocket, game_id: str, hub: TheHub) -> None:
    await serve_socket(hub, socket, game_id)
