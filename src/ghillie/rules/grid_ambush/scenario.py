"""The grid-ambush scenario: armies, the table and its grid, deployment zones, terrain, units.

Every DEFAULT of RULES-SPEC §4.3 is a switch here, named as RULES-SPEC suggests.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cached_property
from typing import Any, Literal

from pydantic import Field, model_validator

from ghillie.measure.grid import Grid
from ghillie.measure.tabletop import XY, Tabletop
from ghillie.scenario import SIDE_ID, Scenario, Strict, Switches, TerrainSpec, tabletop

KEY = r"^[a-z][a-z0-9_]{0,39}$"
# RULES-SPEC DWV-R08: "jungle or woodland terrain".
WOODED = frozenset({"jungle", "woods"})
# RULES-SPEC DWV-A10: only what a profile literally carries. The source's list of other
# races' scanning models is missing from the text; scenarios add it (dwv.scanning_models).
SCANNING_WARGEAR = frozenset({"auspex", "scanner"})


class ArmyList(StrEnum):
    DEATHWORLD_VETERANS = "deathworld_veterans"
    IMPERIAL_GUARD = "imperial_guard"  # a standard list: its veterans may not ambush (R01)
    OTHER = "other"


class DzOverlap(StrEnum):
    ANY = "any"  # DEFAULT (DWV-A01): any overlap with the enemy deployment zone forbids
    ALL = "all"  # only a square wholly inside the zone is forbidden


class Along(StrEnum):
    LONG = "long"  # DEFAULT (DWV-A03): columns A, B, … along the long edge
    SHORT = "short"


class RowsFrom(StrEnum):
    AMBUSHER = "ambusher"  # DEFAULT (DWV-A03): row 1 at the ambushing player's edge
    OPPONENT = "opponent"


class SquareBy(StrEnum):
    BASE_CENTRE = "base_centre"  # DEFAULT (DWV-A04): a model is where its base centre is
    WHOLE_BASE = "whole_base"  # in a square only if its whole base is inside


class ScanPhase(StrEnum):
    OWN = "own"  # DEFAULT (DWV-A05): the scanning model's own shooting phase
    EITHER = "either"  # any shooting phase


class EnemyTurnReveal(StrEnum):
    NO_VOLUNTARY_MOVE = "no_voluntary_move"  # DEFAULT (DWV-A07): only that enemy turn
    NO_MOVE_NEXT_OWN_TURN = "no_move_next_own_turn"  # also its next own turn


class Rounding(StrEnum):
    UP = "up"  # DEFAULT (DWV-A08): at least ceil(n/2) in the recorded square
    DOWN = "down"


class FirstModel(StrEnum):
    CASUALTIES = "casualties"  # DEFAULT (DWV-A09): no first model → the whole unit is lost
    ANY_TERRAIN = "any_terrain"  # drop the jungle/woods requirement for that unit instead


class AtEnd(StrEnum):
    IGNORE = "ignore"  # DEFAULT (DWV-A11)
    REVEAL = "reveal"
    DESTROYED = "destroyed"


class ExtraScans(StrEnum):
    NO_EFFECT = "no_effect"  # DEFAULT (DWV-A14): allowed, nothing more happens
    REFUSED = "refused"


class GridAmbushSwitches(Switches):
    dz_overlap: DzOverlap = Field(DzOverlap.ANY, alias="dwv.dz_overlap")
    partial_squares: bool = Field(True, alias="dwv.partial_squares")  # DWV-A02
    columns_along: Along = Field(Along.LONG, alias="dwv.columns_along")
    rows_from: RowsFrom = Field(RowsFrom.AMBUSHER, alias="dwv.rows_from")
    square_by: SquareBy = Field(SquareBy.BASE_CENTRE, alias="dwv.square_by")
    scan_phase: ScanPhase = Field(ScanPhase.OWN, alias="dwv.scan_phase")
    report_empty_scan: bool = Field(True, alias="dwv.report_empty_scan")  # DWV-A06
    enemy_turn_reveal: EnemyTurnReveal = Field(
        EnemyTurnReveal.NO_VOLUNTARY_MOVE, alias="dwv.enemy_turn_reveal"
    )
    half_rounding: Rounding = Field(Rounding.UP, alias="dwv.half_rounding")
    first_model: FirstModel = Field(FirstModel.CASUALTIES, alias="dwv.first_model")
    # DWV-A10: race -> model names that count as carrying a scanning device.
    scanning_models: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, alias="dwv.scanning_models"
    )
    unrevealed_at_end: AtEnd = Field(AtEnd.IGNORE, alias="dwv.unrevealed_at_end")
    roster_public: bool = Field(True, alias="dwv.roster_public")  # DWV-A12
    reveal_turn_one: bool = Field(True, alias="dwv.reveal_turn_one")  # DWV-A13
    extra_scans: ExtraScans = Field(ExtraScans.NO_EFFECT, alias="dwv.extra_scans")


class Army(Strict):
    side: str = Field(pattern=SIDE_ID)
    army_list: ArmyList = Field(ArmyList.OTHER, alias="list")
    race: str = ""


class ModelSpec(Strict):
    name: str = Field("trooper", min_length=1, max_length=60)
    wargear: tuple[str, ...] = ()
    scanner: bool = False  # DWV-A10: the player-editable "counts as a scanning device" flag
    at: XY | None = None  # map mode: where the model is deployed


class UnitSpec(Strict):
    key: str = Field(pattern=KEY)
    side: str = Field(pattern=SIDE_ID)
    name: str = Field(min_length=1, max_length=80)
    leader: str = ""  # lets an order say "Patrol led by Sgt. Graw"
    ambush: bool = False  # marked ambush-capable by the army list (DWV-R01)
    models: tuple[ModelSpec, ...] = Field(min_length=1, max_length=60)
    base_radius: float = Field(0.5, gt=0, le=6)


class TableSpec(Strict):
    width: float = Field(gt=0, le=240)
    depth: float = Field(gt=0, le=240)
    # The side whose table edge is y = 0; by default the ambushing side.
    near_side: str | None = None


class ZoneSpec(Strict):
    side: str = Field(pattern=SIDE_ID)
    outline: tuple[XY, ...] = Field(min_length=3)


class GridAmbushScenario(Scenario):
    ruleset: Literal["grid-ambush"] = "grid-ambush"
    switches: GridAmbushSwitches = Field(default_factory=GridAmbushSwitches)
    armies: tuple[Army, ...]
    table: TableSpec
    deployment_zones: tuple[ZoneSpec, ...] = ()
    terrain: tuple[TerrainSpec, ...] = ()
    units: tuple[UnitSpec, ...] = Field(min_length=1)
    first_turn: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> GridAmbushScenario:
        sides = set(self.side_ids())
        named = [a.side for a in self.armies] + [u.side for u in self.units]
        named += [z.side for z in self.deployment_zones]
        named += [s for s in (self.table.near_side, self.first_turn) if s]
        for side in named:
            if side not in sides:
                raise ValueError(f"{side!r} is not one of the sides")
        for unit in self.units:
            placed = [m.at is not None for m in unit.models]
            if any(placed) and not all(placed):
                raise ValueError(f"unit {unit.key}: give every model a position, or none")
        keys = [u.key for u in self.units]
        if len(set(keys)) != len(keys):
            raise ValueError("unit keys must be unique")
        for unit in self.units:
            if unit.ambush and self.army_list(unit.side) is not ArmyList.DEATHWORLD_VETERANS:
                raise ValueError(
                    f"unit {unit.key}: only units in a Deathworld Veterans army may set up "
                    "ambushes (DWV-R01)"
                )
        return self

    def army_list(self, side: str) -> ArmyList:
        return next((a.army_list for a in self.armies if a.side == side), ArmyList.OTHER)

    def race(self, side: str) -> str:
        return next((a.race for a in self.armies if a.side == side), "")

    def ambusher(self) -> str | None:
        return next(
            (a.side for a in self.armies if a.army_list is ArmyList.DEATHWORLD_VETERANS), None
        )

    def near_side(self) -> str:
        return self.table.near_side or self.ambusher() or self.side_ids()[0]

    @cached_property
    def tabletop(self) -> Tabletop:
        return tabletop(self.table.width, self.table.depth, self.terrain)

    @cached_property
    def table_view(self) -> dict[str, Any]:
        """The table as every side sees it; made once (a view is built after every event)."""
        return {
            "table": {"width": self.table.width, "depth": self.table.depth},
            "grid": dict(self.grid.squares),
            "terrain": [t.model_dump(mode="json") for t in self.terrain],
            "deployment_zones": [z.model_dump(mode="json") for z in self.deployment_zones],
            # RULES-SPEC DWV-R02: the opponent is told the Ambush rules are in use.
            "ambush_rules_in_use": self.ambusher() is not None,
        }

    @cached_property
    def grid(self) -> Grid:
        sw = self.switches
        wide = self.table.width >= self.table.depth
        along_x = wide if sw.columns_along is Along.LONG else not wide
        rows_side = self.ambusher() if sw.rows_from is RowsFrom.AMBUSHER else self._opponent()
        return Grid(
            self.table.width,
            self.table.depth,
            along_x=along_x,
            rows_from_near=rows_side in (None, self.near_side()),
            partial=sw.partial_squares,
        )

    def in_enemy_zone(self, side: str, square: str) -> bool:
        """May ``side`` not set an ambush in ``square`` (RULES-SPEC DWV-R05, DWV-A01)?"""
        from shapely.geometry import Polygon

        cell = self.grid.polygon(square)
        for zone in self.deployment_zones:
            if zone.side == side:
                continue
            shape = Polygon(zone.outline)
            if self.switches.dz_overlap is DzOverlap.ANY:
                # A square that only touches the zone along an edge has no part inside it.
                if cell.intersection(shape).area > 1e-9:
                    return True
            elif shape.covers(cell):
                return True
        return False

    def _opponent(self) -> str | None:
        ambusher = self.ambusher()
        return next((s for s in self.side_ids() if s != ambusher), None)


__all__ = ["KEY", "SCANNING_WARGEAR", "WOODED", "GridAmbushScenario", "GridAmbushSwitches"]
