"""The commands of grid-ambush, as typed models (the API, CLI and forms derive from these)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, ClassVar, Literal

from pydantic import Field

from ghillie.bounds import Bounded
from ghillie.measure.tabletop import XY
from ghillie.ruleset import Command
from ghillie.state import Phase

UnitRef = str  # a unit's piece id, or its scenario key for one's own units
Square = str
ModelIndex = Annotated[int, Field(ge=0, le=59)]  # a model's place in its unit, from 0


class OrderEntry(Bounded):
    """One written order: a unit and a square, or the order's text as the rules write it."""

    unit: UnitRef | None = Field(None, max_length=64)
    square: Square | None = Field(None, max_length=4)
    text: str | None = Field(None, max_length=200)
    note: str = Field("", max_length=500, description="private to the owner")


class RecordAmbushes(Command):
    """RULES-SPEC DWV-R04: write down the squares the ambushing units hide in. Secret."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP})
    secret_fields: ClassVar[frozenset[str]] = frozenset({"orders"})
    type: Literal["record_ambushes"] = "record_ambushes"
    orders: tuple[OrderEntry, ...] = Field(max_length=60)


class Ready(Command):
    """Setup is done for this side (ambushes recorded, army set up)."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP})
    type: Literal["ready"] = "ready"


class Reveal(Command):
    """RULES-SPEC DWV-R06: reveal an ambush at the beginning of one's own turn."""

    type: Literal["reveal"] = "reveal"
    unit: UnitRef = Field(max_length=64)


class SetUp(Command):
    """RULES-SPEC DWV-R08: set up a revealed unit.

    Map mode: ``models`` gives a position for every model of the unit, or null for a model
    that cannot be set up anywhere legal. Table mode: set the models up on the table and enter
    ``in_square``, how many of those set up stand in the recorded square. In both modes
    ``casualties`` lists the models that cannot be set up, which the owner accepts losing. On a
    map it must be exactly the models given no position, and none of them may have room to
    be set up. At a table it is the players' word. A model not listed is never removed: a
    set-up that breaks a rule is refused, never trimmed."""

    type: Literal["set_up"] = "set_up"
    unit: UnitRef = Field(max_length=64)
    models: tuple[XY | None, ...] | None = Field(
        None,
        max_length=60,
        description="map mode: each model's position, null if it cannot be set up",
    )
    in_square: int | None = Field(
        None, ge=0, le=60, description="table mode: how many of the models set up are in the square"
    )
    casualties: tuple[ModelIndex, ...] = Field(
        (),
        max_length=60,
        description="the models that cannot be set up and are removed, by number in the unit "
        "(the first is 0)",
    )


class Move(Command):
    """Move a unit in its own Movement phase (map mode: the models' new positions)."""

    type: Literal["move"] = "move"
    unit: UnitRef = Field(max_length=64)
    models: tuple[XY, ...] | None = Field(None, max_length=60)


class EndPhase(Command):
    """Movement → Shooting → Assault → the other player's turn."""

    type: Literal["end_phase"] = "end_phase"


class Scan(Command):
    """RULES-SPEC DWV-R07: a model with an auspex or scanner scans its square at the start of
    the shooting phase. Table mode: enter the square the model stands in."""

    type: Literal["scan"] = "scan"
    unit: UnitRef = Field(max_length=64)
    model: int = Field(0, ge=0, le=59)
    square: Square | None = Field(None, max_length=4)


class Weapon(StrEnum):
    HEAVY = "heavy"
    RAPID_FIRE = "rapid_fire"
    ASSAULT = "assault"
    PISTOL = "pistol"
    OTHER = "other"


class Fire(Command):
    """A unit fires in its Shooting phase (targets and results are the host game's)."""

    type: Literal["fire"] = "fire"
    unit: UnitRef = Field(max_length=64)
    weapon: Weapon
    models: tuple[ModelIndex, ...] | None = Field(None, max_length=60)


class Assault(Command):
    """A unit makes an assault move in its Assault phase."""

    type: Literal["assault"] = "assault"
    unit: UnitRef = Field(max_length=64)


class EndGame(Command):
    """The game ends (RULES-SPEC DWV-A11 decides what happens to unrevealed ambushes)."""

    type: Literal["end_game"] = "end_game"
    anytime: ClassVar[bool] = True
