"""Challenge zones, declared in advance; where a path first meets one (and where it is
there in the open, for Challenge Fire); the order a column's units reach it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, NamedTuple

import numpy as np
import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from ghillie.measure.tabletop import XY

from .capsules import Capsules, Segments, meet
from .ground import Ground
from .measures import EPS
from .paths import Path, coords, part_of, path_length, point_along, segments

# --- challenge zones (BMF-A04, R06, A19) --------------------------------------------------

ZoneKind = Literal["point", "gap", "street"]


@dataclass(frozen=True)
class ChallengeZone:
    """The place a Challenge Fire covers, declared in advance (BMF-A04).

    * ``point``: one point and a ``radius`` > 0 round it (a crossroads, a bridge's end).
    * ``gap``: the line across a gap, from one side to the other (the gap in the dragons'
      teeth); a unit crosses it where its path meets the line.
    * ``street``: the centre line of a street segment (two or more points) and, optionally,
      a ``radius``: how far either side of the line the zone reaches (half its width).
    """

    kind: ZoneKind
    points: tuple[XY, ...]
    radius: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.radius) and self.radius >= 0):
            raise ValueError(
                f"a zone's radius is a non-negative number of metres, not {self.radius}"
            )
        if self.kind == "point":
            if len(self.points) != 1 or self.radius <= 0:
                raise ValueError("a point zone is one point and a radius greater than 0")
        elif self.kind == "gap":
            if len(self.points) != 2 or self.points[0] == self.points[1]:
                raise ValueError("a gap zone is a line between two different points")
        elif self.kind == "street":
            if len(self.points) < 2 or path_length(self.points) == 0:
                raise ValueError("a street zone is a line through two or more points")
        else:
            raise ValueError(f"a zone is a point, a gap or a street, not {self.kind!r}")

    @classmethod
    def point(cls, at: XY, radius: float) -> ChallengeZone:
        return cls("point", (at,), radius)

    @classmethod
    def gap(cls, a: XY, b: XY) -> ChallengeZone:
        return cls("gap", (a, b))

    @classmethod
    def street(cls, points: Sequence[XY], radius: float = 0.0) -> ChallengeZone:
        return cls("street", tuple(points), radius)

    @cached_property
    def shape(self) -> BaseGeometry:
        """The zone as a shapely shape, for maps (a circle drawn with 64 sides a quarter;
        :func:`first_crossing` meets a zone's capsules exactly: ``capsules_of``)."""
        if self.kind == "point":
            return Point(self.points[0]).buffer(self.radius, quad_segs=64)
        line = LineString(self.points)
        return line.buffer(self.radius, quad_segs=64) if self.radius > 0 else line


class Crossing(NamedTuple):
    """Where a path first meets a zone: ``distance`` metres along it, at ``point``."""

    distance: float
    point: XY


def _shape_hit(p: XY, q: XY, length: float, shape: BaseGeometry) -> float | None:
    met = LineString([p, q]).intersection(shape)
    if met.is_empty:
        return None
    return min(min(length, math.dist(p, (x, y))) for x, y in shapely.get_coordinates(met))


def capsules_of(zone: ChallengeZone) -> Capsules:
    """The zone as capsules (``capsules``): a point's circle, a gap's line (radius 0), or a
    street's centre line, a capsule a stretch."""
    if zone.kind == "point":
        return Capsules.of([(zone.points[0], zone.points[0], zone.radius)])
    pairs = zip(zone.points, zone.points[1:], strict=False)
    return Capsules.of([(a, b, zone.radius) for a, b in pairs])


def _first_hit(points: Sequence[XY], zone: ChallengeZone | BaseGeometry) -> float | None:
    """How far along the path it first meets the zone, or None."""
    if isinstance(zone, ChallengeZone):
        lines = Segments.of(list(points))
        first, _, met = meet(lines, capsules_of(zone)).entries(lines.length)
        along = np.where(met, lines.along[None, :] + first, np.inf)
        best = float(along.min())
        return best if np.isfinite(best) else None
    if len(points) == 1 or path_length(points) == 0:
        return 0.0 if zone.distance(Point(points[0])) <= EPS else None
    for start, p, q, length in segments(points):
        hit = _shape_hit(p, q, length, zone)
        if hit is not None:
            return start + hit
    return None


def first_crossing(path: Path, zone: ChallengeZone | BaseGeometry) -> Crossing | None:
    """Where along a moving unit's path it first enters the zone (its edge, or the gap's
    line, included), or None if it never does. ``zone`` is a :class:`ChallengeZone` or any
    shapely shape in metres."""
    points = coords(path)
    hit = _first_hit(points, zone)
    return None if hit is None else Crossing(hit, point_along(points, hit))


def challenge_point(
    path: Path, zone: ChallengeZone | BaseGeometry, ground: Ground
) -> Crossing | None:
    """BMF-R01 with A04: the first point where the path is both in the zone and exposed
    (outside concealment), where a Challenge Fire can take it; None if there is none."""
    points = coords(path)
    for stretch in ground.exposed_stretches(points):
        part = part_of(points, stretch.start, stretch.end)
        hit = _first_hit(part, zone)
        if hit is not None:
            along = stretch.start + hit
            return Crossing(along, point_along(points, along))
    return None


def column_order(
    paths: Mapping[str, Path], zone: ChallengeZone | BaseGeometry
) -> list[tuple[str, Crossing]]:
    """BMF-R06, A19: the units of a column in the order they reach the zone — the one with
    the least way to go first (they move together, nose to tail, at one pace) — each with
    its crossing. Units whose paths never meet the zone are not in the column. A tie keeps
    the order ``paths`` gives."""
    crossings = [(key, first_crossing(path, zone)) for key, path in paths.items()]
    found = [(key, c) for key, c in crossings if c is not None]
    return sorted(found, key=lambda kc: kc[1].distance)
