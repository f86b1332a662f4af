"""Seats: which device plays a side (ghillie.server.seats), taken, moved with a one-time
code, or taken again with a new dice chain when its device is lost."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from ghillie.server import seats
from ghillie.server.routes.depends import AnyLink, ASeat, base_url
from ghillie.server.routes.games import qr
from ghillie.server.routes.play import Signing

router = APIRouter()


class TakeSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: str = Field(
        max_length=64, description="the seat key this device keeps: 32 to 64 lowercase hex"
    )
    signing: Signing = None


class MoveSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(max_length=40, description="the code the seat's device shows")
    seat: str = Field(max_length=64, description="the new device's own seat key")
    anchor: str | None = Field(
        None, max_length=64, description="its new dice chain's anchor (page-held chains)"
    )
    signing: Signing = None


class NewChain(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: str = Field(max_length=64, description="the new device's own seat key")
    anchor: str = Field(min_length=64, max_length=64, description="its new chain's x_0, hex")
    signing: Signing = None


@router.get("/api/games/{game_id}/seats")
async def seats_taken(game_id: str, caller: AnyLink) -> dict[str, Any]:
    """Which sides' seats a device has taken, and since when (any link of the game)."""
    await caller.observer()
    game = await caller.hub.games.live(game_id)
    await caller.hub.seats.refresh(game)
    return {"seats": seats.public(game)}


@router.post("/api/games/{game_id}/seat")
async def take_seat(game_id: str, body: TakeSeat, caller: AnyLink) -> dict[str, Any]:
    """Take the link's seat for this device (its seat key); taken already, it stays
    with the device that holds it, and the answer says so."""
    observer = await caller.observer()
    seat, _ = await caller.hub.seats.take(game_id, observer, body.seat, signing=body.signing)
    return seat


@router.post("/api/games/{game_id}/seat/offer")
async def offer_move(game_id: str, caller: ASeat) -> dict[str, Any]:
    """The device holding the seat: a one-time code that moves it to another device,
    with a link (and its QR code) that opens the seat there and types the code in."""
    observer = await caller.observer()
    offered = await caller.hub.seats.offer(game_id, observer, caller.device())
    url = f"{base_url(caller.request)}/play/{game_id}#{caller.token}&seat-code={offered['code']}"
    return {**offered, "url": url, "qr_svg": await asyncio.to_thread(qr, url)}


@router.post("/api/games/{game_id}/seat/move")
async def move_seat(game_id: str, body: MoveSeat, caller: AnyLink) -> dict[str, Any]:
    """Take the seat over with the code its device shows, and this device's new chain."""
    observer = await caller.observer()
    seat, _ = await caller.hub.seats.move(
        game_id, observer, body.code, body.seat, body.anchor, body.signing
    )
    return seat


@router.post("/api/games/{game_id}/seat/chain")
async def new_chain(game_id: str, body: NewChain, caller: AnyLink) -> dict[str, Any]:
    """The seat's device is lost: take the seat with a new dice chain, from the next
    roll on (refused while that device is online; every page is told)."""
    observer = await caller.observer()
    seat, _ = await caller.hub.seats.new_chain(
        game_id, observer, body.seat, body.anchor, body.signing
    )
    return seat
