"""The commands of ambush-fields, as typed models (the API, CLI and forms derive from these).

A ship is named by its piece id, or — one's own — by its scenario key.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from ghillie.bounds import Bounded
from ghillie.ruleset import Command
from ghillie.state import Phase

ShipRef = str
PLAY = frozenset({Phase.PLAY})


class Ready(Command):
    """Setup is done for this side."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP})
    type: Literal["ready"] = "ready"


class Placement(Bounded):
    ship: ShipRef = Field(max_length=64)
    at: str = Field(max_length=4, description="the hex it starts in, e.g. '0412'")
    heading: str = Field("A", pattern=r"^[A-F]$")


class Deploy(Command):
    """Give the starting hex of your ships, as set up at the table, when the scenario leaves
    that to the players. Secret: when both sides are ready, a ship inside one of its side's
    fields stays hidden and every other ship appears, identified, where it was put (BSG-R05).
    A ship deployed again keeps the later hex."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP})
    secret_fields: ClassVar[frozenset[str]] = frozenset({"ships"})
    type: Literal["deploy"] = "deploy"
    ships: tuple[Placement, ...] = Field(min_length=1, max_length=200)


class Move(Bounded):
    ship: ShipRef = Field(max_length=64)
    to: str = Field(max_length=4, description="the hex it ends the phase in, e.g. '0412'")
    heading: str = Field("A", pattern=r"^[A-F]$")
    speed: int = Field(0, ge=0, le=99)
    note: str = Field("", max_length=500, description="private to the owner")
    leave: bool = Field(
        False, description="it leaves the board across the map edge at 'to', an edge hex"
    )


class Plot(Command):
    """Plot this turn's movement ("plotted on a scrap of paper", BSG-R05). Secret: plots are
    carried out together when both sides have ended the Movement Phase (BSG-R06).

    A move with ``leave`` takes the ship to ``to``, an edge hex, and off the board; a ship
    that is off the board comes back with a move to an edge hex, where it enters."""

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
    field: str = Field(max_length=64, description="the field's id (or its scenario key)")


class Launch(Command):
    """A carrier launches one of the fighter flights aboard onto its own hex (Movement
    Phase). Inside one of its side's fields this gives nothing away, and the flight is
    hidden too (BSG-R07); a carrier outside them launches in plain sight."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    secret_fields: ClassVar[frozenset[str]] = frozenset({"carrier"})
    type: Literal["launch"] = "launch"
    carrier: ShipRef = Field(max_length=64)


class Recover(Command):
    """A carrier takes one of its side's fighter flights aboard: the flight must be in the
    carrier's hex, and the bays must have room (Movement Phase). It gives the carrier
    nothing away (BSG-R07); a flight the enemy could see is seen to leave the board."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    secret_fields: ClassVar[frozenset[str]] = frozenset({"carrier"})
    type: Literal["recover"] = "recover"
    flight: ShipRef = Field(max_length=64)
    carrier: ShipRef = Field(max_length=64)


class Hide(Command):
    """A fugitive that has shaken off its pursuers hides in its side's field (BSG-R27,
    A19): it goes dark, and the enemy loses it. Any phase."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    type: Literal["hide"] = "hide"
    anytime: ClassVar[bool] = True
    ship: ShipRef = Field(max_length=64)


class EndPhase(Command):
    """This side is done with the current phase; the phase ends when both sides are."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    type: Literal["end_phase"] = "end_phase"


class EndGame(Command):
    """Either side may end the game; before play begins, both sides must ask."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP, Phase.PLAY})
    type: Literal["end_game"] = "end_game"
    anytime: ClassVar[bool] = True


MOVEMENT_COMMANDS: tuple[type[Command], ...] = (Plot, Scan, Launch, Recover)


class AssignEW(Command):
    """A scout spends points of EW on one of its own side's ships (BSG-R07, R08)."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    secret_fields: ClassVar[frozenset[str]] = frozenset({"scout", "target", "points"})
    type: Literal["assign_ew"] = "assign_ew"
    scout: ShipRef = Field(max_length=64)
    target: ShipRef = Field(max_length=64)
    points: int = Field(ge=1, le=99)


class Fire(Command):
    """A ship fires at a detected or identified enemy (BSG-R20); firing gives a hidden ship
    away (R09). ghillie says the field's modifier as the rules apply it (R21, R22); the shot
    itself is the host game's."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    type: Literal["fire"] = "fire"
    ship: ShipRef = Field(max_length=64)
    target: ShipRef = Field(max_length=64)
    modifiers: int = Field(0, ge=-20, le=20, description="the host game's other modifiers")
    # BSG-R23: a scout's counter-EW (ECCM) against this target cancels field penalties.
    eccm_scout: ShipRef | None = Field(None, max_length=64)
    eccm: int = Field(0, ge=0, le=99)


class Identify(Command):
    """BSG-R24: a scout spends points to identify a detected ship within 20 hexes."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    type: Literal["identify"] = "identify"
    scout: ShipRef = Field(max_length=64)
    target: ShipRef = Field(max_length=64)
    points: int = Field(ge=1, le=99)


class MassIdentify(Command):
    """BSG-R25: scouts pool points against a located field."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    type: Literal["mass_identify"] = "mass_identify"
    scouts: tuple[ShipRef, ...] = Field(min_length=1, max_length=20)
    field: str = Field(max_length=64, description="the located field's id")
    points: int = Field(ge=1, le=99)


class Destroyed(Command):
    """The host game's combat destroyed one of this side's ships; losses are applied at
    Combat segment 10, where a controller's field drops (BSG-R28)."""

    phases: ClassVar[frozenset[Phase]] = PLAY
    type: Literal["destroyed"] = "destroyed"
    ship: ShipRef = Field(max_length=64)


COMBAT_COMMANDS: tuple[type[Command], ...] = (AssignEW, Fire, Identify, MassIdentify, Destroyed)
