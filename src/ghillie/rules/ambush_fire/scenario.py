"""The ambush-fire scenario: two sides, their units, the ground in metres, the switches.

A unit's class, diet, running distance, weapon facing and turret are what the text leans on
(RULES-SPEC §2.6: the roster); its base chance to hit is the host's, given with each shot.
At a real table the players measure in inches and ghillie converts with the ground scale;
on ghillie's map positions are in metres. Every DEFAULT of RULES-SPEC §2.3 is a switch,
named as RULES-SPEC suggests. Where a concealed unit waits is never in a scenario given to
both sides: its owner records it during set-up.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field, model_validator

from ghillie.measure.tabletop import terrain_too_big
from ghillie.scenario import SIDE_ID, Scenario, Strict, Switches

from .checks import CloseCombatReading, PenaltyMode, Rounding
from .geometry import Area, Ground

KEY = r"^[a-z][a-z0-9_]{0,39}$"
# Metres, finite, within 100 km of the ground's corner (the ground is at most 20 km).
Metres = Annotated[float, Field(ge=-100_000, le=100_000, allow_inf_nan=False)]
XY = tuple[Metres, Metres]
KIND = Annotated[str, Field(min_length=1, max_length=30)]  # a terrain kind, a running class


class UnitClass(StrEnum):
    INFANTRY = "infantry"
    AT_GUN = "at_gun"
    ATGM = "atgm"
    VEHICLE = "vehicle"
    ARTILLERY = "artillery"
    ANIMAL = "animal"


class Diet(StrEnum):
    CARNIVORE = "carnivore"
    OMNIVORE = "omnivore"  # people included (BMF-R14)
    HERBIVORE = "herbivore"
    NONE = "none"  # a vehicle or a gun eats nothing (BMF-A15)


class AmbushTiming(StrEnum):
    MOVEMENT_OR_FIRE = "movement_or_fire"  # DEFAULT (BMF-A17)
    FIRE_PHASE = "fire_phase"  # only at the start of the fire phase


class AtgmRevealAt(StrEnum):
    LAUNCH = "launch"  # DEFAULT (BMF-A23)
    ARRIVAL = "arrival"


class AmbushFireSwitches(Switches):
    # BMF-A01: "10% lower" is ten percentage points (60 becomes 50), floored at 0.
    penalty_mode: PenaltyMode = Field(PenaltyMode.ADDITIVE, alias="bmf.penalty_mode")
    # BMF-A04: Challenge Fire only at a declared challenge zone.
    challenge_requires_zone: bool = Field(True, alias="bmf.challenge_requires_zone")
    # BMF-A07: vehicles' and artillery's guns reveal 1250 m like AT guns and ATGMs.
    reveal_width_by_class: bool = Field(True, alias="bmf.reveal_width_by_class")
    # BMF-A09: an ATGM in ambush still rolls to hit ("immediately" is a timing word).
    atgm_ambush_autohit: bool = Field(False, alias="bmf.atgm_ambush_autohit")
    # BMF-A12: return fire is a free reaction.
    return_fire_consumes: bool = Field(False, alias="bmf.return_fire_consumes")
    ambush_timing: AmbushTiming = Field(AmbushTiming.MOVEMENT_OR_FIRE, alias="bmf.ambush_timing")
    # BMF-A21: "away from the enemy" counts only the enemy the retreating side can see.
    retreat_counts_concealed: bool = Field(False, alias="bmf.retreat_counts_concealed")
    # BMF-A22: fire other than Ambush Fire reveals a concealed firer to those it fired at.
    fire_reveals: bool = Field(True, alias="bmf.fire_reveals")
    atgm_reveal_at: AtgmRevealAt = Field(AtgmRevealAt.LAUNCH, alias="bmf.atgm_reveal_at")
    # BMF-A02: the host's close combat rolls a percent chance (the defence 10 points lower),
    # or a strength number (the defence × 0.9, rounded with the host's rule).
    close_combat: CloseCombatReading = Field(CloseCombatReading.PERCENT, alias="bmf.close_combat")
    strength_rounding: Rounding = Field(Rounding.HALF_UP, alias="bmf.strength_rounding")


class TerrainArea(Strict):
    """Ground that conceals, stops movement, or slows running (metres)."""

    name: str = Field(min_length=1, max_length=60)
    kind: KIND  # "woods", "marsh", "town", "open"
    outline: tuple[XY, ...] = Field(min_length=3)  # at most 200 points (``terrain_too_big``)
    conceals: bool = False
    impassable: bool = False


class UnitSpec(Strict):
    key: str = Field(pattern=KEY)
    side: str = Field(pattern=SIDE_ID)
    name: str = Field(min_length=1, max_length=60)
    unit_class: UnitClass = Field(alias="class")
    diet: Diet = Diet.NONE
    # Running distance by terrain kind, in metres per turn; "open" is smooth, open, dry
    # ground (BMF-T01: a human, 100 m).
    running: dict[KIND, Annotated[float, Field(ge=0, le=10_000, allow_inf_nan=False)]] = Field(
        default_factory=lambda: {"open": 100.0}, max_length=16
    )
    facing: float = Field(0, ge=0, lt=360)  # degrees, clockwise from the top edge
    arc: float = Field(180, gt=0, le=360)  # its weapon's (or turret's) arc (BMF-A18)
    turret: bool = False
    # Where its turret points at the start, in degrees like ``facing`` (default: the hull's
    # way); its arc is then the turret's, centred on it (BMF-A18).
    turret_facing: float | None = Field(None, ge=0, lt=360)
    column: str = Field("", max_length=60)  # the formation it moves nose to tail with (A19)
    concealed: bool = False  # it begins concealed (its owner records where)
    # A unit that begins in view: where it stands, in metres on the ground in both modes (a
    # table scenario draws the table at its ground scale; players then enter inches).
    at: XY | None = None

    @model_validator(mode="after")
    def _diet_fits(self) -> UnitSpec:
        machine = self.unit_class in (
            UnitClass.VEHICLE,
            UnitClass.AT_GUN,
            UnitClass.ARTILLERY,
        )
        if machine and self.diet is not Diet.NONE:
            raise ValueError(f"{self.name}: a vehicle or a gun has no diet (BMF-A15)")
        if self.turret_facing is not None and not self.turret:
            raise ValueError(f"{self.name}: only a unit with a turret has a turret facing")
        if "open" not in self.running:
            raise ValueError(f"{self.name}: give its running distance on open ground")
        return self


class AmbushFireScenario(Scenario):
    ruleset: Literal["ambush-fire"] = "ambush-fire"
    first: str = Field(pattern=SIDE_ID)  # the side that moves first each turn
    turns: int = Field(4, ge=1, le=20)
    width: float = Field(2000, gt=0, le=20000)  # the ground, in metres
    depth: float = Field(1500, gt=0, le=20000)
    # Metres of ground per inch of table: places are given in inches, on a real table or on
    # ghillie's map (which draws the same table), and held in metres.
    ground_scale: float = Field(25, gt=0, le=1000)
    terrain: tuple[TerrainArea, ...] = ()
    units: tuple[UnitSpec, ...] = Field(min_length=1, max_length=120)
    # Sides that decide their reactions live: each is asked at every step of every enemy
    # move, whatever it could do, within the same time limit (issue 14).
    live: tuple[str, ...] = Field((), max_length=2)
    prompt_seconds: int = Field(30, ge=5, le=600)
    # Every move is walked in this many equal legs, and a live side is asked after each
    # (public: the number of prompts a move brings says nothing).
    legs: int = Field(2, ge=1, le=6)
    switches: AmbushFireSwitches = Field(default_factory=AmbushFireSwitches)

    @model_validator(mode="after")
    def _the_rules_allow_it(self) -> AmbushFireScenario:
        sides = {s.id for s in self.sides}
        if self.first not in sides or not set(self.live) <= sides:
            raise ValueError("first and live name sides of this scenario")
        too_big = terrain_too_big([t.outline for t in self.terrain])
        if too_big is not None:
            raise ValueError(f"the terrain is too big to measure: {too_big}")
        _ = self.ground  # every outline a simple polygon, now rather than at the first move
        keys = Counter(u.key for u in self.units)
        if any(n > 1 for n in keys.values()):
            raise ValueError("unit keys must be unique")
        for u in self.units:
            if u.side not in sides:
                raise ValueError(f"unit {u.key}: {u.side!r} is not one of the sides")
            if not u.concealed and u.at is None:
                raise ValueError(f"{u.name}: give where it stands on the ground")
            if u.at is not None and not (0 <= u.at[0] <= self.width and 0 <= u.at[1] <= self.depth):
                raise ValueError(f"{u.name}: its position is off the ground")
        return self

    @cached_property
    def ground(self) -> Ground:
        """The battlefield in metres, with its terrain (made once per scenario)."""
        areas = [
            Area(t.name, t.kind, tuple(t.outline), t.conceals, t.impassable) for t in self.terrain
        ]
        return Ground(self.width, self.depth, areas)
