"""Where things are and how far apart: entered at a real table, computed on the map.

At a real table the players measure and enter the range and the cover with the skill that
needs them, and the event records who asserted them (RULES-SPEC §6.5). On ghillie's map the
range is the distance between the points the skills were declared at, and the cover is the
terrain's at the target's point (§5.6); entered values are refused there. Line of fire is
asserted by the player who declares a skill or an ARO, in both modes: the map has no
heights (§5.6).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, Point

from ghillie.errors import MEASURED_BY_MAP, MEASUREMENT_REQUIRED, Refusal
from ghillie.measure.tabletop import XY, Cover
from ghillie.measuring import Measured
from ghillie.state import Piece
from ghillie.words import N_

from .codes import NO_LINE_OF_SIGHT, NOT_ON_ROUTE
from .scenario import CamouflageScenario

ON_ROUTE = 0.25  # inches: a point this close to a route lies on it


@dataclass(frozen=True)
class Measurement:
    range: float
    cover: bool  # the target is in (partial) cover
    asserted: dict[str, Any]


def measure(
    scenario: CamouflageScenario,
    side: str,
    entered: Measured | None,
    source: XY | None,
    target: XY | None,
    field: str = "measured",
) -> Measurement:
    if scenario.mode.value == "map":
        if entered is not None and entered.any():
            raise Refusal(
                MEASURED_BY_MAP,
                "This game is on a map: ghillie measures, nothing is entered.",
                field=field,
            )
        assert source is not None
        assert target is not None
        cover = scenario.table.cover_at(target) is not Cover.NONE
        return Measurement(round(math.dist(source, target), 2), cover, {"measured_by": "map"})
    if entered is None or entered.range is None:
        raise Refusal(
            MEASUREMENT_REQUIRED, N_("Measure the range at the table and enter it."), field=field
        )
    if entered.line_of_sight is False:
        # Every skill and ARO measured here aims at a target, and needs LoF to it (Discover
        # and every Attack: RULES-SPEC §5.1); the players at the table say there is none.
        raise Refusal(
            NO_LINE_OF_SIGHT,
            N_("With no line of fire to its target, the trooper cannot declare this."),
            field=f"{field}.line_of_sight",
        )
    cover = entered.cover not in (None, Cover.NONE)
    return Measurement(entered.range, cover, {"asserted_by": side})


def at(piece: Piece) -> XY | None:
    where = piece.public.get("at")
    return (float(where[0]), float(where[1])) if where is not None else None


def on_route(start: XY, stops: list[XY], point: XY, field: str) -> None:
    """Refuse ``point`` unless it lies on the route from ``start`` through ``stops``."""
    route = [start, *stops]
    shape = Point(start) if len(route) == 1 else LineString(route)
    if shape.distance(Point(point)) > ON_ROUTE:
        raise Refusal(
            NOT_ON_ROUTE, "Choose a point on the route the active trooper takes.", field=field
        )
