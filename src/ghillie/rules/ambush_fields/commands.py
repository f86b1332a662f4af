"""The commands of ambush-fields, as typed models (the API, CLI and forms derive from these).

A ship is named by its piece id, or — one's own — by its scenario key.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ghillie.ruleset import Command
from ghillie.state import Phase

ShipRef = str
PLAY = frozenset({Phase.PLAY})


class Ready(Command):
    """Setup is done for this side."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP})
    type: Literal["ready"] = "ready"


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ship: ShipRef = Field(max_length=64)
    to: str = Field(max_length=4, description="the hex it ends the phase in, e.g. '0412'")
    heading: str = Field("A", pattern=r"^[A-F]$")
    speed: int = Field(0, ge=0, le=99)


class Plot(Command):
    """Plot this turn's movement ("plotted on a scrap of paper", BSG-R05). Secret: plots are
    carried out together when both sides have ended the Movement Phase (BSG-R06)."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    secret_fields: ClassVar[frozenset[str]] = frozenset({"moves"})
    type: Literal["plot"] = "plot"
    moves: tuple[Move, ...] = Field(min_length=1, max_length=200)


class Scan(Command):
    """Declare the ships that scan actively this turn (BSG-A06); ghillie rolls for each of
    them against every enemy field at segment 7, in secret (BSG-R12, R13, R18)."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    secret_fields: ClassVar[frozenset[str]] = frozenset({"ships"})
    type: Literal["scan"] = "scan"
    ships: tuple[ShipRef, ...] = Field(max_length=200)


class DropField(Command):
    """BSG-R29: the controller drops its field in the Initiative Phase, for good."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    type: Literal["drop_field"] = "drop_field"
    field: str = Field(max_length=64, description="the field's scenario key")


class EndPhase(Command):
    """This side is done with the current phase; the phase ends when both sides are."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    type: Literal["end_phase"] = "end_phase"


class EndGame(Command):
    """Either side may end the game."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP, Phase.PLAY})
    type: Literal["end_game"] = "end_game"


COMMANDS: dict[str, type[Command]] = {
    c.model_fields["type"].default: c for c in (Ready, Plot, Scan, DropField, EndPhase, EndGame)
}
