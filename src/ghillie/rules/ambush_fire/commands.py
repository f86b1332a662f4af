"""The commands of an ambush-fire game. A concealed unit's place and a standing order are
their owner's secrets."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ghillie.measure.tabletop import XY
from ghillie.ruleset import Command
from ghillie.state import Phase

from .board import MAX_ORDERS
from .scenario import UnitClass

PLAY = frozenset({Phase.PLAY})
# A unit named by its id (32 hex digits) or its scenario key (at most 40 characters).
Ref = Annotated[str, Field(min_length=1, max_length=64)]
# A place: inches from the table's top-left corner, no more than a million in size (past any
# table: malformed, as in every ruleset); a place off the ground is refused by the rules.
ZONE_POINTS = 20  # a standing order's zone: a point, a gap or a street of up to 20 points
# A move: up to 12 units (a column), each with up to 40 waypoints, and 80 in all (the rules
# refuse more: ``movement``), so that working out its triggers has a bound (issue 24).
MOVERS = 12
WAYPOINTS = 40
MOVE_WAYPOINTS = 80


# A facing: degrees clockwise from the table's top edge (0 toward the top, 90 toward the
# right), as the scenario gives it.
Degrees = Annotated[float, Field(ge=0, lt=360, allow_inf_nan=False)]


class Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hidden(Part):
    unit: Ref
    # Where it waits: inches from the table's top-left corner (measured on a real table or
    # tapped on ghillie's map), which ghillie converts with the ground scale (§2.6).
    at: XY
    # Which way it faces there, and its turret, if given (degrees from the top edge): as
    # secret as the place, and written with it, in the one command that hides the units.
    facing: Degrees | None = None
    turret: Degrees | None = None
    note: str = Field("", max_length=200)


class Conceal(Command):
    """Record, in secret, where each of the side's concealed units waits."""

    type: Literal["conceal"] = "conceal"
    phases = frozenset({Phase.SETUP})
    secret_fields = frozenset({"units"})
    units: list[Hidden] = Field(default_factory=list, max_length=60)


class Reaction(StrEnum):
    CHALLENGE = "challenge"  # Challenge Fire at a zone (BMF-R01..R06, A04)
    AMBUSH = "ambush"  # Ambush Fire (BMF-R07..R13)
    CLOSE_COMBAT = "close_combat"  # Ambush Close Combat (BMF-R14..R19)


class Trigger(Part):
    """When a standing order fires: the first enemy unit (of a class, if given) that enters
    the zone — a point with a radius, a gap or a street segment, in the ground's units —
    or, with no zone, that comes within ``within`` metres of the unit."""

    zone: list[XY] = Field(default_factory=list, max_length=ZONE_POINTS)
    radius: float = Field(0, ge=0, le=2000)
    within: float | None = Field(None, gt=0, le=1250)
    # One of the scenario's unit classes, or None for any (issue 24: a free string had no
    # limit, and 8 orders of 4 MiB made a 33.5 MB view).
    target_class: UnitClass | None = None


class StandingOrder(Part):
    """A reaction given ahead of time, in secret, and carried out by ghillie at the exact
    moment its trigger happens, with no prompt (issue 14). It is opened when it fires, and
    the proof shows it was written before the trigger."""

    unit: Ref
    reaction: Reaction
    trigger: Trigger
    chance: int = Field(ge=0, le=100)  # the base chance to hit, from the host's tables
    note: str = Field("", max_length=200)


class Moving(Part):
    unit: Ref
    # Waypoints after where it stands: inches from the table's top-left corner (converted
    # with the ground scale).
    path: list[XY] = Field(min_length=1, max_length=WAYPOINTS)


class Move(Command):
    """Move a unit, or a column nose to tail (BMF-A19), along its path. A concealed unit's
    path is its owner's secret."""

    type: Literal["move"] = "move"
    phases = PLAY
    secret_fields = frozenset({"units"})
    units: list[Moving] = Field(min_length=1, max_length=MOVERS)


class ReturnFire(Command):
    """The answer to the reaction window a Challenge Fire opens: fire back, or not, with the
    unit's base chance from the host's tables (BMF-R04)."""

    type: Literal["return_fire"] = "return_fire"
    phases = PLAY
    fire: bool = False
    chance: int = Field(0, ge=0, le=100)


class Retreat(Command):
    """The answer to the window after an ambush: the surviving ambusher withdraws up to
    50 m away from the enemy (BMF-R13, A11), or stays (no path)."""

    type: Literal["retreat"] = "retreat"
    phases = PLAY
    path: list[XY] = Field(default_factory=list, max_length=10)


class Live(StrEnum):
    HOLD = "hold"
    AMBUSH = "ambush"
    CLOSE_COMBAT = "close_combat"
    CHALLENGE = "challenge"


class React(Command):
    """The answer to the prompt a live side gets after every leg of every enemy move: hold,
    or react now with one of its units at an enemy unit in view, with the base chance from
    the host's tables. Carried out exactly as a standing order that fires at the target
    where it stands (issue 14)."""

    type: Literal["react"] = "react"
    phases = PLAY
    # No secret fields: a reaction given is carried out in the open, and a hold names none.
    reaction: Live = Live.HOLD
    unit: Ref | None = None
    target: Ref | None = None
    chance: int = Field(0, ge=0, le=100)


class Fire(Command):
    """Normal fire in the fire phase, at an enemy unit in view, with the base chance from
    the host's tables."""

    type: Literal["fire"] = "fire"
    phases = PLAY
    unit: Ref
    target: Ref
    chance: int = Field(ge=0, le=100)


class Facing(Part):
    unit: Ref
    facing: Degrees | None = None  # the hull's (a vehicle) or the front's (infantry)
    turret: Degrees | None = None  # its turret's, if it has one


class Turn(Command):
    """Turn units, their turrets, or both: at set-up, free (the facing each starts with);
    in the side's movement, a hull turn is movement and a turret turn breaks "stationary"
    (BMF-R02, R07, A20). A concealed unit's facing is as secret as the unit."""

    type: Literal["turn"] = "turn"
    phases = frozenset({Phase.SETUP, Phase.PLAY})
    secret_fields = frozenset({"units"})
    units: list[Facing] = Field(min_length=1, max_length=60)


class EndStep(Command):
    """End this side's movement, or its part of the fire phase."""

    type: Literal["end_step"] = "end_step"
    phases = PLAY


class Ready(Command):
    """The side's set-up is done, and with it come all its standing orders, in secret.
    They come in this one command, whatever their number, so that the other side, told
    only that the side is ready, cannot count them (issue 24)."""

    type: Literal["ready"] = "ready"
    phases = frozenset({Phase.SETUP})
    secret_fields = frozenset({"orders"})
    orders: list[StandingOrder] = Field(default_factory=list, max_length=MAX_ORDERS)


class EndGame(Command):
    type: Literal["end_game"] = "end_game"
    anytime: ClassVar[bool] = True
    phases = frozenset({Phase.SETUP, Phase.PLAY})
