"""Paths: sequences of waypoints, their lengths, the points along them and their parts."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import pairwise

from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from ghillie.measure.tabletop import XY

Path = Sequence[XY]


# --- paths --------------------------------------------------------------------------------


def coords(path: Path) -> list[XY]:
    points = [(float(x), float(y)) for x, y in path]
    if not points:
        raise ValueError("a path has at least one point")
    if not all(math.isfinite(c) for p in points for c in p):
        raise ValueError("a path's points are finite numbers")
    return points


def segments(points: Sequence[XY]) -> Iterable[tuple[float, XY, XY, float]]:
    """(distance along the path at its start, start, end, length) of each segment with a
    length; repeated waypoints are skipped."""
    along = 0.0
    for p, q in pairwise(points):
        length = math.dist(p, q)
        if length > 0:
            yield along, p, q, length
            along += length


def lerp(p: XY, q: XY, t: float) -> XY:
    # The ends exactly (p + (q - p) t can miss q by a float at t = 1, and put a waypoint on
    # a wood's edge just outside the wood); between them p + (q - p) t, which keeps a
    # coordinate the segment does not change exactly as it is.
    if t >= 1:
        return q
    if t <= 0:
        return p
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


def path_length(path: Path) -> float:
    """The length of a path in metres."""
    points = coords(path)
    return sum(math.dist(p, q) for p, q in pairwise(points))


def point_along(path: Path, along: float) -> XY:
    """The point ``along`` metres along the path (clamped to its ends)."""
    points = coords(path)
    if along <= 0:
        return points[0]
    for start, p, q, length in segments(points):
        if along <= start + length:
            return lerp(p, q, (along - start) / length)
    return points[-1]


def path_until(path: Path, along: float) -> list[XY]:
    """The path's waypoints as far as ``along`` metres, ending at :func:`point_along`: where a
    unit that stops after ``along`` metres has been (a column that halts, A19)."""
    return part_of(coords(path), 0.0, along)


def between(path: Path, first: float, last: float) -> list[XY]:
    """The part of a path from ``first`` to ``last`` metres along it (a stretch of it)."""
    return part_of(coords(path), first, last)


def part_of(points: Sequence[XY], first: float, last: float) -> list[XY]:
    """The part of a path from ``first`` to ``last`` metres along it."""
    out = [point_along(points, first)]
    for start, _, q, length in segments(points):
        if first < start + length < last:
            out.append(q)
    end = point_along(points, last)
    if end != out[-1] or len(out) == 1:
        out.append(end)
    return out


def shape_of(points: Sequence[XY]) -> BaseGeometry:
    distinct = list(dict.fromkeys(points))
    return Point(distinct[0]) if len(distinct) == 1 else LineString(points)
