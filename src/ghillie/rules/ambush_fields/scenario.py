"""An ambush-fields scenario: the hex map, the fleets, and the fields that exist at the start.

"Any ambush fields that are operating at the game start, will be specified in the scenario,
as will the ship controlling the field, and the strength of the field" (BSG-R01): fields
come only from here, never from a command. The scenario is the host's to keep: its fields,
and which ships start inside them, are never shown to the other side (BSG-R05) — a view
holds only the map and what that side may see.

Host-game details the rule text does not give (RULES-SPEC §1.1: scout-point allotments, the
normal EW range, the fire-arc scheme) are parameters here, not guesses.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cached_property
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from ghillie.measure.arcs import DEFAULT_ARCS, ArcScheme
from ghillie.measure.hexes import Hex, HexMap
from ghillie.rules.ambush_fields.detection import DetectionSwitches
from ghillie.scenario import SIDE_ID, Scenario, Strict

KEY = r"^[a-z][a-z0-9_-]{0,31}$"
HEXSIDE = r"^[A-F]$"


class ShipClass(StrEnum):
    """The kinds of unit the text distinguishes (RULES-SPEC §1.2)."""

    CAPITAL = "capital"
    SCOUT = "scout"
    PATROL_BOAT = "patrol_boat"
    CIVILIAN = "civilian"
    FIGHTER_FLIGHT = "fighter_flight"
    SHUTTLE = "shuttle"

    @property
    def small(self) -> bool:
        """Fighters and shuttles: the second row of the detection table (BSG-A10)."""
        return self in (ShipClass.FIGHTER_FLIGHT, ShipClass.SHUTTLE)

    @property
    def category(self) -> str:
        """What a detected unit shows: ship, fighter flight or shuttle (BSG-R10)."""
        if self is ShipClass.FIGHTER_FLIGHT:
            return "fighter flight"
        if self is ShipClass.SHUTTLE:
            return "shuttle"
        return "ship"


class RangeTo(StrEnum):
    NEAREST_HEX = "nearest_hex"  # BSG-A01 DEFAULT
    CONTROLLER = "controller"


class ScanGating(StrEnum):
    PLAYER = "player"  # BSG-A06 DEFAULT: the side declares which ships scan
    REFEREE = "referee"


class ArcReport(StrEnum):
    CENTRE = "centre"  # BSG-A07 DEFAULT: the arc holding the field's centre
    EVERY = "every"  # option: every arc the field overlaps


class EnterTrigger(StrEnum):
    END_OF_PHASE = "end_of_phase"  # BSG-A15 DEFAULT
    IMMEDIATE = "immediate"


class AmbushFieldsSwitches(DetectionSwitches):
    """Every BSG DEFAULT that has a switch, named as RULES-SPEC names it."""

    range_to: RangeTo = Field(RangeTo.NEAREST_HEX, alias="bsg.range_to")  # BSG-A01
    count_emitted_points: bool = Field(False, alias="bsg.count_emitted_points")  # BSG-A03
    scan_gating: ScanGating = Field(ScanGating.PLAYER, alias="bsg.scan_gating")  # BSG-A06
    arc_report: ArcReport = Field(ArcReport.CENTRE, alias="bsg.arc_report")  # BSG-A07
    enter_trigger: EnterTrigger = Field(EnterTrigger.END_OF_PHASE, alias="bsg.enter_trigger")

    @field_validator("scan_gating")
    @classmethod
    def _gated_by_the_players(cls, value: ScanGating) -> ScanGating:
        # The other reading has a referee judge whether there is "cause to suspect"; ghillie
        # takes no orders from the referee's page, so a game set to it would quietly play
        # the DEFAULT. Refused at creation rather than ignored.
        if value is ScanGating.REFEREE:
            raise ValueError(
                "a referee deciding who scans is not offered: ghillie takes no orders from "
                "the referee, so each side declares its own scanners ('player')"
            )
        return value


class MapSpec(Strict):
    columns: int = Field(42, ge=1, le=99)
    rows: int = Field(30, ge=1, le=99)
    shifted: Literal["even", "odd"] = "even"  # which printed columns sit half a hex lower


class HostSpec(Strict):
    """Host-game parameters the text leans on but does not give (RULES-SPEC §1.1)."""

    normal_ewe: int = Field(15, ge=1, le=99, description="range of ordinary EW, in hexes")
    identify_ewe: int = Field(20, ge=1, le=99, description="BSG-R24: 'the EWE ... is 20'")
    scout_points: int = Field(6, ge=0, le=99, description="points per scout per turn")
    # Fire arcs relative to a ship's heading, as ghillie.measure.arcs reads them; empty: the
    # six 60° arcs F, RF, RR, R, LR, LF.
    arcs: dict[str, list[list[Any]]] = Field(default_factory=dict)

    @field_validator("arcs")
    @classmethod
    def _arcs_cover_the_circle(cls, value: dict[str, list[list[Any]]]) -> dict[str, Any]:
        if value:
            ArcScheme.from_data(value)  # raises ValueError naming the gap or overlap
        return value

    @cached_property
    def arc_scheme(self) -> ArcScheme:
        return ArcScheme.from_data(self.arcs) if self.arcs else DEFAULT_ARCS


class FighterSpec(Strict):
    """A carrier's fighters (BSG-R07: "launching and recovering fighters"): the flights
    aboard at the start, all of one profile, and how many its bays hold. The flights are
    numbered: ``name = "Viper flight"`` gives Viper flight 1, Viper flight 2, ... with the keys
    ``<key>-1``, ``<key>-2``, ..."""

    flights: int = Field(ge=0, le=20, description="fighter flights aboard at the start")
    capacity: int | None = Field(
        None, ge=1, le=20, description="how many flights its bays hold (default: flights)"
    )
    name: str = Field("Fighter flight", min_length=1, max_length=60)
    type: str = Field("", max_length=40, description="the host game's fighter type")
    key: str | None = Field(
        None, pattern=KEY, description="the flights' keys begin so (default: '<carrier>-flight')"
    )

    @model_validator(mode="after")
    def _fits(self) -> FighterSpec:
        if self.capacity is not None and self.capacity < self.flights:
            raise ValueError(f"{self.flights} flights do not fit in bays for {self.capacity}")
        if self.capacity is None and self.flights == 0:
            raise ValueError("a carrier with no flights aboard needs a capacity")
        return self

    @property
    def bays(self) -> int:
        return self.capacity if self.capacity is not None else self.flights


class ShipSpec(Strict):
    key: str = Field(pattern=KEY)
    side: str = Field(pattern=SIDE_ID)
    name: str = Field(min_length=1, max_length=80)
    type: str = Field("", max_length=40, description="the host game's ship type, e.g. 'CL'")
    ship_class: ShipClass = Field(ShipClass.CAPITAL, alias="class")
    flag: bool = Field(False, description="has a Flag rating (-1 on its detection rolls)")
    at: str | None = Field(
        None, description="its starting hex, e.g. '0412'; none: the players deploy it"
    )
    heading: str = Field("A", pattern=HEXSIDE)
    fighters: FighterSpec | None = Field(None, description="a carrier's fighter flights")

    def flights(self) -> list[dict[str, str]]:
        """The fighter flights aboard at the start, as a hangar lists them."""
        if self.fighters is None:
            return []
        prefix = self.fighters.key or f"{self.key}-flight"
        return [
            {
                "key": f"{prefix}-{i}",
                "name": f"{self.fighters.name} {i}",
                "type": self.fighters.type,
            }
            for i in range(1, self.fighters.flights + 1)
        ]


class FieldSpec(Strict):
    key: str = Field(pattern=KEY)
    controller: str = Field(pattern=KEY, description="the key of the ship generating it")
    radius: int = Field(ge=0, le=20, description="in hexes (BSG-R04)")
    rating: int = Field(ge=1, le=3, description="+1 to +3 (BSG-R03)")


class AmbushFieldsScenario(Scenario):
    ruleset: Literal["ambush-fields"] = "ambush-fields"
    switches: AmbushFieldsSwitches = Field(default_factory=AmbushFieldsSwitches)
    map: MapSpec = Field(default_factory=MapSpec)
    host: HostSpec = Field(default_factory=HostSpec)
    ships: tuple[ShipSpec, ...] = Field(min_length=1)
    fields: tuple[FieldSpec, ...] = ()

    @model_validator(mode="after")
    def _by_the_rules(self) -> AmbushFieldsScenario:
        sides = set(self.side_ids())
        keys = [s.key for s in self.ships]
        if len(set(keys)) != len(keys):
            raise ValueError("ship keys must be unique")
        ships = {s.key: s for s in self.ships}
        for ship in self.ships:
            if ship.side not in sides:
                raise ValueError(f"ship {ship.key}: {ship.side!r} is not one of the sides")
            if ship.at is not None:
                self.hex_map.from_label(ship.at)  # ValueError naming a label off the map
            if ship.fighters is not None and ship.ship_class.small:
                raise ValueError(
                    f"ship {ship.key}: a {ship.ship_class.category} carries no fighters"
                )
        flight_keys = [f["key"] for ship in self.ships for f in ship.flights()]
        if len(set(flight_keys)) != len(flight_keys) or set(flight_keys) & set(keys):
            raise ValueError("every fighter flight's key must differ from every other key")
        if len({f.key for f in self.fields}) != len(self.fields):
            raise ValueError("field keys must be unique")
        controllers = [f.controller for f in self.fields]
        if len(set(controllers)) != len(controllers):
            raise ValueError("a ship controls one ambush field at most")
        for spec in self.fields:
            controller = ships.get(spec.controller)
            if controller is None:
                raise ValueError(f"field {spec.key}: no ship {spec.controller!r}")
            problem = controller_problem(controller.ship_class, spec.rating)
            if problem:
                raise ValueError(f"field {spec.key}: {controller.name} {problem}")
        return self

    @cached_property
    def hex_map(self) -> HexMap:
        return HexMap(self.map.columns, self.map.rows, self.map.shifted)

    def ship(self, key: str) -> ShipSpec:
        return next(s for s in self.ships if s.key == key)

    def start(self, ship: ShipSpec) -> Hex | None:
        return self.hex_map.from_label(ship.at) if ship.at is not None else None


def controller_problem(ship_class: ShipClass, rating: int) -> str | None:
    """Why a ship of this class may not generate a field of this rating, or None.

    BSG-R02: "all civilian ships, fighters and shuttles ... cannot create ambush fields".
    BSG-R03: "Only scout ships may generate +3 rating ambush fields, patrol boats are
    limited to +1, while other ships may generate +1 to +2 fields."
    """
    if ship_class in (ShipClass.CIVILIAN, ShipClass.FIGHTER_FLIGHT, ShipClass.SHUTTLE):
        return (
            f"is a {ship_class.value.replace('_', ' ')} and cannot create an ambush field (BSG-R02)"
        )
    if ship_class is ShipClass.PATROL_BOAT and rating > 1:
        return "is a patrol boat: its fields are limited to +1 (BSG-R03)"
    if ship_class is not ShipClass.SCOUT and rating > 2:
        return "is not a scout: only scouts generate +3 fields (BSG-R03)"
    return None
