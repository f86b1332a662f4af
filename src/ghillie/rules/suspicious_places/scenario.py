"""The suspicious-places scenario: sides, units with their dice, the table, and switches.

Every DEFAULT of RULES-SPEC §3.4 (SW-A01..A17) is a switch here with the DEFAULT as its
default, named ``sw.*``.
"""

from __future__ import annotations

import math
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ghillie.dice.steps import STEP_DICE, Die, Overflow, StepDie, StepDieName, game_die, in_words
from ghillie.measure.tabletop import XY, Tabletop
from ghillie.scenario import SIDE_ID, Scenario, Strict, Switches, TerrainSpec, tabletop

KEY = r"^[a-z][a-z0-9_]{0,39}$"

# RULES-SPEC SW-R13: observation means and their dice.
MEANS = {"eyes": Die(4), "binoculars": Die(6), "stereo": Die(8), "electronic": Die(10)}

# SW-A11: a leadership is a number or a die. A quality die rolls at most 12, so no number
# above 12 could ever be beaten, and a leadership of 1 is already beaten by every roll but
# the 1 that betrays a sniper.
LEADERSHIP_NUMBERS = (1, 12)


def leadership(value: Any) -> int | str:
    """A leadership as a scenario or a player writes it: a number 1..12 or a step die.

    >>> leadership(4), leadership("4"), leadership("к6")
    (4, 4, 'd6')
    """
    low, high = LEADERSHIP_NUMBERS
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        if low <= value <= high:
            return value
        raise PydanticCustomError(
            "out_of_range",
            "a leadership number runs from {low} to {high} (the most a quality die rolls), "
            "not {value}",
            {"low": low, "high": high, "value": value},
        )
    try:
        return game_die(value)
    except PydanticCustomError:
        shown = value if isinstance(value, str) else repr(value)
        raise PydanticCustomError(
            "not_a_die",
            "{value} is not a leadership in this game: give a number from {low} to {high} "
            "or a die, {dice}",
            {"value": shown, "low": low, "high": high, "dice": in_words(STEP_DICE)},
        ) from None


# A number from 1 to 12, or one of the game's dice (SW-A11).
Leadership = Annotated[int | StepDieName, BeforeValidator(leadership)]


class Situation(StrEnum):
    """RULES-SPEC SW-R01: camouflage applies only in these scenarios."""

    AMBUSH = "ambush"
    PREPARED_DEFENCE = "prepared_defence"
    OTHER = "other"


class UnitKind(StrEnum):
    SQUAD = "squad"
    VEHICLE = "vehicle"
    LONE = "lone"  # SW-R18: officers, medics and the like
    SNIPER = "sniper"  # SW-R30..R37: real snipers, not riflemen in squads


class CamouflageSide(StrEnum):
    AMBUSHER = "ambusher"  # DEFAULT (SW-A02): the side lying in wait, as the scenario names it
    AMBUSHED = "ambushed"  # the literal "defending side" read as the side being ambushed


class ZoneBoundary(StrEnum):
    CEIL = "ceil"  # DEFAULT (SW-A03): exactly 12" is zone 1
    FLOOR_PLUS_ONE = "floor_plus_one"  # exactly 12" is zone 2


class InsideSquad(StrEnum):
    HULL_OR_CONTACT = "hull_or_contact"  # DEFAULT (SW-A05)
    CONTACT_ONLY = "contact_only"


class FullOnMine(StrEnum):
    REVEAL = "reveal"  # DEFAULT (SW-A07): a known minefield marker replaces it
    NO_CHANGE = "no_change"


class PartialFire(StrEnum):
    NO_EFFECT = "no_effect"  # DEFAULT (SW-A08)
    HIDDEN_SUPPRESSION = "hidden_suppression"  # the unit underneath takes one, unseen


class LeadershipDie(StrEnum):
    OPPOSED = "opposed"  # DEFAULT (SW-A11): a leadership die is rolled against the quality die
    FACES = "faces"  # a leadership die counts as its number of faces


class RangeDie(StrEnum):
    SECRET = "secret"  # DEFAULT (SW-A13, §6): ghillie rolls a marker's range die unseen
    OPEN = "open"  # shown to the observer as at a table where the owner rolls openly


class FireZone(StrEnum):
    QUALITY_DIE = "quality_die"  # DEFAULT (SW-A17): zone = the shooter's quality die in inches
    TWELVE = "twelve"  # 12" zones, as for observation


class SniperHit(StrEnum):
    DOUBLED = "doubled"  # DEFAULT (SW-A16): a sniper's hit also brings doubled suppression
    HIT_ONLY = "hit_only"


class SuspiciousPlacesSwitches(Switches):
    overflow: Overflow = Field(Overflow.D12_PLUS, alias="sw.overflow")  # SW-A01
    camouflage_side: CamouflageSide = Field(CamouflageSide.AMBUSHER, alias="sw.camouflage_side")
    zone_boundary: ZoneBoundary = Field(ZoneBoundary.CEIL, alias="sw.zone_boundary")  # SW-A03
    # SW-A04: d6 markers per camouflaged unit, all placed, one pool, one squad per marker.
    markers_per_unit: StepDie = Field("d6", alias="sw.markers_per_unit")
    place_all_markers: bool = Field(True, alias="sw.place_all_markers")
    pooled_markers: bool = Field(True, alias="sw.pooled_markers")
    inside_squad: InsideSquad = Field(InsideSquad.HULL_OR_CONTACT, alias="sw.inside_squad")
    observe_needs_los: bool = Field(True, alias="sw.observe_needs_los")  # SW-A06
    full_observation_on_mine: FullOnMine = Field(
        FullOnMine.REVEAL, alias="sw.full_observation_on_mine"
    )
    partial_fire_on_marker: PartialFire = Field(
        PartialFire.NO_EFFECT, alias="sw.partial_fire_on_marker"
    )
    lone_bonus_on_observation: bool = Field(False, alias="sw.lone_bonus_on_observation")  # A09
    sniper_false_marker_removable: bool = Field(True, alias="sw.sniper_false_marker_removable")
    leadership_die: LeadershipDie = Field(LeadershipDie.OPPOSED, alias="sw.leadership_die")
    covert_move_costs_action: bool = Field(True, alias="sw.covert_move_costs_action")  # A12
    range_die: RangeDie = Field(RangeDie.SECRET, alias="sw.range_die")  # SW-A13
    activation_reveals: bool = Field(True, alias="sw.activation_reveals")  # SW-A14
    open_sight_reveals_snipers: bool = Field(False, alias="sw.open_sight_reveals_snipers")  # A15
    sniper_hit: SniperHit = Field(SniperHit.DOUBLED, alias="sw.sniper_hit")  # SW-A16
    fire_zone: FireZone = Field(FireZone.QUALITY_DIE, alias="sw.fire_zone")  # SW-A17
    sniper_spread: float = Field(6.0, gt=0, alias="sw.sniper_spread")  # SW-R33: 6" apart


class UnitSpec(Strict):
    key: str = Field(pattern=KEY)
    side: str = Field(pattern=SIDE_ID)
    name: str = Field(min_length=1, max_length=80)
    kind: UnitKind = UnitKind.SQUAD
    quality: StepDie = "d8"  # SW-R13: "regular" is d8
    leadership: Leadership | None = None  # SW-A11: a number or a die
    officer: bool = False  # SW-R19: a direct superior may give the squad its actions
    models: int = Field(1, ge=1, le=60)
    means: tuple[Literal["eyes", "binoculars", "stereo", "electronic"], ...] = ("eyes",)
    weapon: StepDie = "d6"
    camouflaged: bool = False  # SW-R01 (squads, vehicles) / SW-R33 (snipers)
    at: XY | None = None  # map mode: the unit's centre on the table
    spacing: float = Field(1.5, gt=0, le=6)  # map mode: inches between models in formation

    def formation(self) -> list[XY]:
        """Model offsets from the centre: rows of up to five, ``spacing`` apart."""
        per_row = min(self.models, 5)
        rows = math.ceil(self.models / per_row)
        offsets = []
        for i in range(self.models):
            r, c = divmod(i, per_row)
            width = min(per_row, self.models - r * per_row)
            offsets.append(
                ((c - (width - 1) / 2) * self.spacing, (r - (rows - 1) / 2) * self.spacing)
            )
        return offsets


class TableSpec(Strict):
    width: float = Field(72, gt=0, le=240)
    depth: float = Field(48, gt=0, le=240)
    base_radius: float = Field(0.5, gt=0, le=6)


class SuspiciousPlacesScenario(Scenario):
    ruleset: Literal["suspicious-places"] = "suspicious-places"
    switches: SuspiciousPlacesSwitches = Field(default_factory=SuspiciousPlacesSwitches)
    situation: Situation = Situation.AMBUSH
    ambusher: str | None = None  # SW-A02: the side that sets the ambush
    first: str | None = None  # the side that activates first
    extra_markers: int = Field(0, ge=0, le=30)  # markers the scenario grants beyond the d6 rolls
    # How a sniper's three markers are labelled: "laid", S1 the first laid (as a table sees
    # them laid); "ids", by their random ids, as every game before issue 26 did. Absent from
    # a record made then, so its default keeps such a record replaying (and auditing) exactly;
    # the bundled scenarios, and every game made from them, say "laid".
    sniper_labels: Literal["laid", "ids"] = "ids"
    table: TableSpec = Field(default_factory=TableSpec)
    terrain: tuple[TerrainSpec, ...] = ()
    units: tuple[UnitSpec, ...] = Field(min_length=1)

    @model_serializer(mode="wrap")
    def _written(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """The scenario as ghillie writes it: without ``sniper_labels`` when it is "ids",
        so that a record made before it existed reads back in the very form it was written."""
        data: dict[str, Any] = handler(self)
        if data.get("sniper_labels") == "ids":
            del data["sniper_labels"]
        return data

    @model_validator(mode="after")
    def _consistent(self) -> SuspiciousPlacesScenario:
        sides = set(self.side_ids())
        for side in [u.side for u in self.units] + [s for s in (self.ambusher, self.first) if s]:
            if side not in sides:
                raise ValueError(f"{side!r} is not one of the sides")
        keys = [u.key for u in self.units]
        if len(set(keys)) != len(keys):
            raise ValueError("unit keys must be unique")
        hider = self.camouflage_side()
        for unit in self.units:
            if unit.kind in (UnitKind.LONE, UnitKind.SNIPER) and unit.models != 1:
                # SW-R18: "группами, состоящими из одного человека"; snipers act alone (R30).
                raise ValueError(f"unit {unit.key}: a lone figure or sniper is one model")
            if unit.kind is UnitKind.SNIPER:
                if unit.leadership is None:
                    raise ValueError(f"unit {unit.key}: a sniper needs a leadership (SW-R36)")
                continue
            if not unit.camouflaged:
                continue
            if self.situation is Situation.OTHER or hider is None:
                raise ValueError(
                    f"unit {unit.key}: camouflage needs an ambush or prepared-defence scenario "
                    "with an ambusher (SW-R01)"
                )
            if unit.side != hider:
                raise ValueError(
                    f"unit {unit.key}: only the {hider!r} side may camouflage (SW-A02)"
                )
            if unit.kind is UnitKind.LONE:
                raise ValueError(f"unit {unit.key}: lone figures do not hide under markers")
        return self

    def camouflage_side(self) -> str | None:
        """The side whose units may hide under suspicious-place markers (SW-R01, SW-A02)."""
        if self.ambusher is None:
            return None
        if self.switches.camouflage_side is CamouflageSide.AMBUSHER:
            return self.ambusher
        return next(s for s in self.side_ids() if s != self.ambusher)

    @cached_property
    def table_view(self) -> dict[str, Any]:
        """The table as every side sees it; made once (a view is built after every event)."""
        return {
            "table": self.table.model_dump(mode="json"),
            "terrain": [t.model_dump(mode="json") for t in self.terrain],
            "situation": self.situation.value,
            "camouflage_side": self.camouflage_side(),
        }

    @cached_property
    def tabletop(self) -> Tabletop:
        return tabletop(self.table.width, self.table.depth, self.terrain)
