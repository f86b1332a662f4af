"""A tabletop in inches with terrain: ranges, cover, line of sight, "inside a squad".

Map mode's geometry. All polygon work is shapely's (LIBRARIES.md: blocking terrain is looked
up with an STRtree and tested with prepared shapes; ``covers``, not ``contains``, so that a
point on a boundary or a squad standing in a line still counts).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

import shapely
from shapely.geometry import LineString, MultiPoint, Point, Polygon
from shapely.strtree import STRtree

from ghillie.bounds import Coordinate

# A point: inches across from the table's left edge and down from its top edge (or, for a
# ruleset that says so, metres on its ground). Bounded, for the commands and scenarios that
# carry one: a value scaled by any ruleset's unit stays finite (ghillie.bounds).
XY = tuple[Coordinate, Coordinate]


class Cover(StrEnum):
    NONE = "none"
    SOFT = "soft"
    HARD = "hard"

    @property
    def steps(self) -> int:
        """Range-die steps the cover adds (RULES-SPEC SW-R11: soft +1, hard +2)."""
        return {"none": 0, "soft": 1, "hard": 2}[self.value]


@dataclass(frozen=True)
class Terrain:
    """One terrain feature: a wood, a building, a ravine, a patch of jungle."""

    name: str
    kind: str
    outline: tuple[XY, ...]
    cover: Cover = Cover.NONE
    blocks_sight: bool = False

    @cached_property
    def shape(self) -> Polygon:
        return area_shape(self.name, self.outline)


# Bounds on a scenario's terrain (issue 24): what a path meets is worked out against every
# edge of every area, so the terrain has a size, in areas and in points, each area's and
# all together. A 16,004-point area made one refused move hold the server 8.5 s.
MAX_AREAS = 64
MAX_AREA_POINTS = 200
MAX_TERRAIN_POINTS = 1000


def terrain_too_big(outlines: Sequence[Sequence[XY]]) -> str | None:
    """Why terrain of these outlines is too big to measure in bounded time, or None.

    >>> terrain_too_big([[(0, 0), (1, 0), (1, 1)]] * 400)
    'at most 64 terrain areas (400 given)'
    """
    if len(outlines) > MAX_AREAS:
        return f"at most {MAX_AREAS} terrain areas ({len(outlines)} given)"
    for outline in outlines:
        if len(outline) > MAX_AREA_POINTS:
            return f"at most {MAX_AREA_POINTS} points to an area's outline ({len(outline)} given)"
    total = sum(len(outline) for outline in outlines)
    if total > MAX_TERRAIN_POINTS:
        return (
            f"at most {MAX_TERRAIN_POINTS:,} points in all the terrain's outlines ({total:,} given)"
        )
    return None


def area_shape(name: str, outline: Sequence[XY]) -> Polygon:
    """A terrain outline as a prepared polygon; refused unless it is simple with an area."""
    polygon = Polygon(outline)
    if not polygon.is_valid or polygon.area <= 0:
        raise ValueError(f"terrain {name!r} is not a simple polygon with an area")
    shapely.prepare(polygon)
    return polygon


def distance(a: XY, b: XY) -> float:
    return math.dist(a, b)


class Tabletop:
    def __init__(self, width: float, depth: float, terrain: Sequence[Terrain] = ()) -> None:
        if width <= 0 or depth <= 0:
            raise ValueError("a table has a positive width and depth")
        self.width = width
        self.depth = depth
        self.terrain = tuple(terrain)
        self._tree = STRtree([t.shape for t in self.terrain])
        self._blocking = [i for i, t in enumerate(self.terrain) if t.blocks_sight]

    def on_table(self, point: XY) -> bool:
        x, y = point
        return 0 <= x <= self.width and 0 <= y <= self.depth

    def features_at(self, point: XY) -> list[Terrain]:
        hits = self._tree.query(Point(point), predicate="intersects")
        return [self.terrain[int(i)] for i in sorted(hits)]

    def cover_at(self, point: XY) -> Cover:
        """The best cover of any feature the point lies in; open ground is ``Cover.NONE``."""
        order = list(Cover)
        return max((t.cover for t in self.features_at(point)), key=order.index, default=Cover.NONE)

    def in_open(self, point: XY) -> bool:
        """Open terrain: no terrain feature at all at the point."""
        return not self.features_at(point)

    def in_kind(self, point: XY, kinds: frozenset[str]) -> bool:
        return any(t.kind in kinds for t in self.features_at(point))

    def line_of_sight(self, a: XY, b: XY) -> bool:
        """Sight from ``a`` to ``b`` is blocked by a sight-blocking feature the line crosses,
        except a feature that either end stands in: one sees out of and into a wood."""
        line = LineString([a, b]) if a != b else Point(a)
        for i in self._tree.query(line, predicate="intersects"):
            feature = self.terrain[int(i)]
            if not feature.blocks_sight:
                continue
            if feature.shape.covers(Point(a)) or feature.shape.covers(Point(b)):
                continue
            return False
        return True


def group_covers(models: Sequence[XY], base_radius: float, point: XY, *, hull: bool = True) -> bool:
    """Is ``point`` inside a group of models (RULES-SPEC SW-A05)?

    Inside the convex hull of the models' bases, or within base contact of one of them. A
    squad standing in a line has a degenerate hull; growing it by the base radius keeps it.
    """
    shape = group_shape(models, base_radius, hull=hull)
    return shape is not None and bool(shape.covers(Point(point)))


def group_shape(models: Sequence[XY], base_radius: float, *, hull: bool = True) -> Any:
    """The area :func:`group_covers` tests, built (and prepared) once for many points."""
    if not models:
        return None
    shape = MultiPoint(list(models))
    if hull:
        shape = shape.convex_hull
    grown = shape.buffer(base_radius)
    shapely.prepare(grown)
    return grown
