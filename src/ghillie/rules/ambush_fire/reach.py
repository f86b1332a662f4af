"""BMF-R15, T08: an Ambush Close Combat reaches only as far as half the attacker's running
distance over the ground its dash crosses (woods slow it), and an attack it cannot reach is
not made: a standing order does not fire where its dash would fall short, and a live one is
refused (``live.check``). Where its dash is blocked by impassable ground within its reach it
is made and fails (T08, R19: left in the open where the dash stopped).

A standing order's trigger (``triggers``) is worked out with the disc its dash could reach on
its fastest ground; this module then finds, along the move, the first point in the trigger
that the dash over the ground really reaches: the mover's path inside that disc is looked at
every :data:`STEP` metres, and the first such point is then found to a hair by looking
finer and finer (every look's dashes cut at the terrain's edges in one go).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shapely.geometry import Point

from . import geometry, triggers
from .geometry import Ground
from .geometry.paths import segments

XY = tuple[float, float]
STEP = 1.0  # metres between the points looked at, inside the disc the dash could reach
SPLITS = 64  # then the metre where it is first reached, in 64 parts, three times over:
ROUNDS = 3  # 1 m / 64**3, about 4 micrometres


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


def _oks(
    order: triggers.Order, path: Sequence[XY], at: list[float], concealed: bool, ground: Ground
) -> list[bool]:
    """At each of these points along the path: is the mover in the order's trigger, and does
    the order's dash reach it? Every point's dash is cut at the terrain's edges at once."""
    points = [geometry.point_along(path, a) for a in at]
    reached = geometry.reaches_all(order.firer, points, dict(order.paces), ground)
    return [
        r and _in_trigger(order, p, concealed, ground) for p, r in zip(points, reached, strict=True)
    ]


def first(
    order: triggers.Order, mover: triggers.Mover, along: float, ground: geometry.Ground
) -> float | None:
    """The first point, ``along`` metres or more down the mover's path, where it is in the
    order's trigger and the order's dash reaches it; None if there is none. The path inside
    the disc the dash could reach is looked at every :data:`STEP` metres, all at once; then
    the metre where it is first reached is looked at :data:`SPLITS` times finer, and again,
    :data:`ROUNDS` times (to well under a millimetre)."""
    path = mover.path
    for lo, hi in _near(path, order.firer, order.running / 2, along):
        steps = max(1, math.ceil((hi - lo) / STEP))
        at = [lo + (hi - lo) * k / steps for k in range(steps + 1)]
        oks = _oks(order, path, at, mover.concealed, ground)
        if not any(oks):
            continue
        k = oks.index(True)
        if k == 0:
            return at[0]
        before, good = at[k - 1], at[k]
        for _ in range(ROUNDS):
            finer = [before + (good - before) * j / SPLITS for j in range(1, SPLITS + 1)]
            found = _oks(order, path, finer, mover.concealed, ground)
            j = found.index(True)  # the last of them is ``good``: one is
            before, good = (finer[j - 1] if j else before), finer[j]
        return good
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
