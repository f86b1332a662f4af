"""The exact odds of the check a command would roll, as far as its side may know them."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from ghillie.errors import UNKNOWN_SIDE, Refusal
from ghillie.server.odds import odds_for
from ghillie.server.routes.depends import ASeat
from ghillie.words import speaker

router = APIRouter()


class OddsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command: dict[str, Any]


class OddsAnswer(BaseModel):
    check: str | None = None
    dice: dict[str, str] = Field(default_factory=dict)
    outcomes: list[dict[str, Any]] = Field(default_factory=list)
    refused: dict[str, str] | None = Field(
        None, description="the refusal the command would get now: code, detail, field"
    )


@router.post("/api/games/{game_id}/odds")
async def odds(game_id: str, body: OddsRequest, caller: ASeat) -> OddsAnswer:
    """The exact odds of the check a command would roll, as far as this side may know
    them before giving it; empty when the command rolls no dice."""
    observer = await caller.seated()
    game = await caller.hub.games.live(game_id)
    if observer not in game.state.sides:
        # Odds are a side's, built from what it may know: the referee and the table
        # screen give no orders to weigh.
        raise Refusal(UNKNOWN_SIDE, "There is no such side in this game.")
    words = speaker(game.scenario.ruleset, await caller.lang())
    return OddsAnswer(**odds_for(game.state, observer, body.command, words))
