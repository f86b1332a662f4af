"""The route the active trooper has declared in its Order (map mode): where it starts, and
where each move declared so far ends (INF-R12, INF-T01). Every AROs' point lies on it, and
the map draws it for every side: Infinity declares each skill aloud and measures the move on
the table, so the route is as public as the marker that takes it. A second skill's move is
part of it only once declared."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghillie.measure.tabletop import XY

from .board import OrderState, Stage

ROUTE = "route"  # the map line an ARO's point snaps to (forms.Ask.snap)


def _xy(point: Any) -> XY:
    return (float(point[0]), float(point[1]))


def route(order: OrderState, second: bool = True) -> list[XY]:
    """The points of the route: its start, then the end of the first skill's move and, with
    ``second`` (and once declared), of the second's. A trooper that does not move has a
    route of one point, where it stands. Empty at a real table, where nothing has a place."""
    start = order.first.get("from")
    if start is None:
        return []
    skills: list[Mapping[str, Any] | None] = [order.first, order.second if second else None]
    return [_xy(start), *(_xy(s["to"]) for s in skills if s and s.get("to"))]


def shown(order: OrderState | None) -> list[XY]:
    """The route a map shows now: while the Order is being declared and rolled, not once
    its move is carried out (its saving rolls)."""
    if order is None or order.stage is Stage.SAVES:
        return []
    return route(order)
