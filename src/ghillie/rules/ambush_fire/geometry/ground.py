"""The terrain: areas, the battlefield they lie on (:class:`Ground`), and what a path meets
on it — cover, open stretches, impassable ground, the running distance."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import NamedTuple

import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from ghillie.measure.tabletop import XY, area_shape

from .measures import EPS, OPEN
from .paths import Path, coords, lerp, path_length, segments, shape_of

# --- terrain ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Area:
    """One terrain area: a wood, a marsh, a town block, a field of dragons' teeth.

    ``kind`` is also its running class: a unit's running distances are given by kind
    (``{"open": 100, "woods": 50}``), and ground no area covers is :data:`OPEN`.
    ``conceals``: a unit in it is in a concealed position (BMF-R01). ``impassable``: no
    path may enter it (BMF-R13, R18, A11, A16).
    """

    name: str
    kind: str
    outline: tuple[XY, ...]
    conceals: bool = False
    impassable: bool = False

    @cached_property
    def shape(self) -> Polygon:
        return area_shape(self.name, self.outline)

    @cached_property
    def edge(self) -> BaseGeometry:
        return self.shape.boundary


class Stretch(NamedTuple):
    """A part of a path, from ``start`` to ``end`` metres along it (both included)."""

    start: float
    end: float

    @property
    def length(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class Piece:
    """A part of a path that crosses no area's edge: the same ground all along."""

    start: float
    end: float
    areas: tuple[Area, ...]  # the areas it lies in (or along the edge of)
    blocked: bool  # it is inside an impassable area


class Ground:
    """The battlefield: ``width`` × ``depth`` metres, with terrain areas (which may overlap).

    Where areas overlap, a point conceals if any of them conceals, is impassable if it is
    inside any impassable one, and runs at the slowest of their running distances.
    """

    def __init__(self, width: float, depth: float, areas: Sequence[Area] = ()) -> None:
        if not (width > 0 and depth > 0):
            raise ValueError("the ground has a positive width and depth")
        self.width = float(width)
        self.depth = float(depth)
        self.areas = tuple(areas)
        self._tree = STRtree([a.shape for a in self.areas])
        self._bounds = box(0, 0, self.width, self.depth)
        shapely.prepare(self._bounds)

    def on_ground(self, point: XY) -> bool:
        x, y = point
        return 0 <= x <= self.width and 0 <= y <= self.depth

    def leaves_ground(self, path: Path) -> bool:
        """Does any part of the path lie off the battlefield? (Its edge is on it.)"""
        return not self._bounds.covers(shape_of(coords(path)))

    def terrain_at(self, point: XY) -> tuple[Area, ...]:
        """Every area the point lies in, its edge included, in the order given; ``()`` is
        open ground."""
        hits = self._tree.query(Point(point), predicate="intersects")
        return tuple(self.areas[int(i)] for i in sorted(hits))

    def is_concealing(self, point: XY) -> bool:
        """Is a unit at ``point`` in a concealed position (in, or on the edge of, an area
        that conceals)?"""
        return any(a.conceals for a in self.terrain_at(point))

    def is_impassable(self, point: XY) -> bool:
        """Is ``point`` inside (not on the edge of) an impassable area?"""
        return any(a.impassable and a.shape.contains(Point(point)) for a in self.terrain_at(point))

    def running_at(self, point: XY, running: Mapping[str, float]) -> float:
        """A unit's running distance (metres per turn) at ``point``, from its distances by
        terrain kind (the slowest of the areas there; a kind its table leaves out runs like
        open ground; 0 inside impassable terrain)."""
        if self.is_impassable(point):
            return 0.0
        return running_on(self.terrain_at(point), running)

    def moves_between_cover(self, path: Path) -> bool:
        """BMF-R01: does the path start and end in concealed positions?"""
        points = coords(path)
        return self.is_concealing(points[0]) and self.is_concealing(points[-1])

    def crosses_impassable(self, path: Path) -> bool:
        """Does the path enter impassable terrain? Running along or stopping on a marsh's
        edge does not."""
        return self.first_impassable(path) is not None

    def first_impassable(self, path: Path) -> float | None:
        """How far along the path it first enters impassable terrain: the point on the
        area's edge where it would step in (``0`` if it starts inside); None if never."""
        points = coords(path)
        if len(points) == 1 or path_length(points) == 0:
            return 0.0 if self.is_impassable(points[0]) else None
        return next((p.start for p in self.pieces(points) if p.blocked), None)

    def exposed_stretches(self, path: Path) -> list[Stretch]:
        """BMF-R01: the parts of the path outside concealment, in order along it — where a
        unit moving between concealed positions is open to Challenge Fire (S2). Each
        stretch runs from the point where the path leaves cover to the point where it is
        back in cover (an area's edge counts as cover). A path of no length at an exposed
        point is one stretch of no length."""
        points = coords(path)
        if path_length(points) == 0:
            return [] if self.is_concealing(points[0]) else [Stretch(0.0, 0.0)]
        stretches: list[Stretch] = []
        for piece in self.pieces(points):
            if any(a.conceals for a in piece.areas):
                continue
            if stretches and abs(stretches[-1].end - piece.start) <= EPS:
                stretches[-1] = Stretch(stretches[-1].start, piece.end)
            else:
                stretches.append(Stretch(piece.start, piece.end))
        return stretches

    def pieces(self, points: Sequence[XY]) -> list[Piece]:
        """The path cut at every area edge it meets, each piece told by its middle."""
        pieces: list[Piece] = []
        for start, p, q, length in segments(points):
            segment = LineString([p, q])
            cuts = {0.0, length}
            for i in self._tree.query(segment):
                met = segment.intersection(self.areas[int(i)].edge)
                if met.is_empty:
                    continue
                for x, y in shapely.get_coordinates(met):
                    cuts.add(min(length, max(0.0, math.dist(p, (x, y)))))
            ordered = sorted(cuts)
            for a, b in pairwise(ordered):
                if b - a <= 1e-9:  # two cuts at one edge, a float apart
                    continue
                middle = lerp(p, q, (a + b) / 2 / length)
                areas = self.terrain_at(middle)
                blocked = any(x.impassable and x.shape.contains(Point(middle)) for x in areas)
                pieces.append(Piece(start + a, start + b, areas, blocked))
        return pieces


def running_on(areas: Sequence[Area], running: Mapping[str, float]) -> float:
    """The slowest running distance of the areas (impassable ones only skirted here, so
    left out), or the open-ground distance where no area is. A kind the unit's table does
    not list is run like open ground."""
    if OPEN not in running:
        raise ValueError(f"give the running distance on open ground ({OPEN!r})")
    kinds = [a.kind for a in areas if not a.impassable]
    return min((running.get(k, running[OPEN]) for k in kinds), default=running[OPEN])
