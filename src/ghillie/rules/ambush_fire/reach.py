"""BMF-R15, T08: an Ambush Close Combat reaches only as far as half the attacker's running
distance over the ground its dash crosses (woods slow it), and an attack it cannot reach is
not made: a standing order does not fire where its dash would fall short, and a live one is
refused (``live.check``). Where its dash is blocked by impassable ground within its reach it
is made and fails (T08, R19: left in the open where the dash stopped).

A standing order's trigger (``triggers``) is worked out with the disc its dash could reach on
its fastest ground; this module then finds, along the move, the first point in the trigger
that the dash over the ground really reaches: the mover's path inside that disc is looked at
every :data:`STEP` metres, and the first such point is then found to a hair by halving.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shapely.geometry import Point

from . import geometry, triggers
from .geometry.paths import segments

XY = tuple[float, float]
STEP = 1.0  # metres between the points looked at, inside the disc the dash could reach
HALVINGS = 40  # then the first point to well under a millimetre


def disc(running: dict[str, float]) -> float:
    """The farthest any dash of this unit could reach: half its fastest running distance."""
    return geometry.reach(max(running.values(), default=0.0))


def reached(order: triggers.Order, point: XY, ground: geometry.Ground) -> bool:
    """Does the order's dash reach ``point`` over the ground (BMF-R15)?"""
    return geometry.reaches(order.firer, point, dict(order.paces), ground)


def _in_trigger(order: triggers.Order, point: XY, concealed: bool, ground: geometry.Ground) -> bool:
    """Is a mover at ``point`` in the order's trigger (its zone or its distance; with
    neither, its reach), where the order can see it (a concealed mover: out of cover)?"""
    if concealed and ground.is_concealing(point):
        return False
    far = math.dist(point, order.firer)
    zone = triggers.zone(order.zone, order.radius)
    if zone is not None and zone.shape.distance(Point(point)) <= geometry.EPS:
        return True
    if order.within is not None:
        return far <= order.within + geometry.EPS
    return zone is None and far <= order.running / 2 + geometry.EPS


def _near(path: Sequence[XY], centre: XY, radius: float, start: float) -> list[tuple[float, float]]:
    """The stretches of ``path`` (metres along it, from ``start`` on) within ``radius`` of
    ``centre``: one interval a segment at most, met by its quadratic."""
    out: list[tuple[float, float]] = []
    if geometry.path_length(path) == 0:  # a unit standing still (the fire phase's turn)
        return [(0.0, 0.0)] if math.dist(path[0], centre) <= radius + geometry.EPS else []
    for offset, p, q, length in segments(path):
        ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
        wx, wy = p[0] - centre[0], p[1] - centre[1]
        half = ux * wx + uy * wy
        c = wx * wx + wy * wy - (radius + geometry.EPS) ** 2
        root = half * half - c
        if root < 0:
            continue
        lo, hi = max(0.0, -half - math.sqrt(root)), min(length, -half + math.sqrt(root))
        lo, hi = max(lo + offset, start), hi + offset
        if lo <= hi:
            out.append((lo, hi))
    return out


def first(
    order: triggers.Order, mover: triggers.Mover, along: float, ground: geometry.Ground
) -> float | None:
    """The first point, ``along`` metres or more down the mover's path, where it is in the
    order's trigger and the order's dash reaches it; None if there is none."""
    path = mover.path

    def ok(at: float) -> bool:
        point = geometry.point_along(path, at)
        return _in_trigger(order, point, mover.concealed, ground) and reached(order, point, ground)

    for lo, hi in _near(path, order.firer, order.running / 2, along):
        steps = max(1, math.ceil((hi - lo) / STEP))
        before = None
        for k in range(steps + 1):
            at = lo + (hi - lo) * k / steps
            if ok(at):
                if before is None:
                    return at
                good = at
                for _ in range(HALVINGS):
                    middle = (before + good) / 2
                    before, good = (before, middle) if ok(middle) else (middle, good)
                return good
            before = at
    return None


def reached_first(
    swept: triggers.Sweep, ground: geometry.Ground, ready: Sequence[str] | None = None
) -> tuple[triggers.Sweep, triggers.Fired | None]:
    """The order that fires first (``Sweep.first``), an Ambush Close Combat only where its
    dash reaches: one whose trigger came where it does not is looked at again from there on,
    and the first order is chosen again. Returns the sweep so amended, and the order."""
    while True:
        fired = swept.first(ready)
        if fired is None:
            return swept, None
        order = next(o for o in swept.orders if o.id == fired.order)
        if order.reaction != "close_combat":
            return swept, fired
        mover = next(m for m in swept.movers if m.id == fired.target)
        if reached(order, fired.point, ground):
            return swept, fired
        swept = swept.later(order.id, mover.id, first(order, mover, fired.along, ground))
