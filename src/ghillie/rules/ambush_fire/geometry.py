"""The ground of ambush-fire, in metres: terrain, ranges, reveal areas, challenge zones,
exposure between cover, retreats, close-combat dashes and weapon facing.

Pure functions over shapely and plain numbers; no game state. The ruleset decides who
is where, what each side may see and whether a rule applies; this module only measures.

Conventions:

* **Metres.** Every length is ground scale, in metres (RULES-SPEC §2.1). At a real table
  players measure in inches and ghillie converts with the scenario's ground scale
  (:func:`inches_to_metres`, §2.6).
* **Coordinates** are ``(x, y)``: x across from the left edge, y *down* from the top edge,
  as ghillie's maps draw them.
* **Angles** are degrees clockwise from "up" (toward the top edge): 0° points to the top
  edge, 90° to the right edge, 180° to the bottom edge, 270° to the left edge.
* **Paths** are sequences of waypoints, the first where the unit starts; a path of one
  point goes nowhere. Distances along a path are metres from its first point.
* **Edges are inclusive** unless a rule says "less than": a unit exactly on the edge of a
  reveal circle is revealed, a point on the edge of a wood is in the wood, a target at
  exactly the maximum range is in range. Two lengths within :data:`EPS` (a micrometre) of
  each other count as equal, so that a sum of float segments does not move a unit across
  a limit.
* **Impassable** means the *interior* of an impassable area: a path may run along a
  marsh's edge or stop on it, but not enter it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from types import MappingProxyType
from typing import Final, Literal, NamedTuple

import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from ghillie.measure.tabletop import XY

__all__ = [
    "AMBUSH_FIRE_RANGE",
    "BLOCKED",
    "EPS",
    "IMPASSABLE",
    "INFANTRY_ARC",
    "LISTED_REVEAL_WIDTH",
    "NOT_AWAY",
    "OFF_GROUND",
    "OPEN",
    "RETREAT_LIMIT",
    "REVEAL_WIDTH",
    "TOO_FAR",
    "TOO_LONG",
    "XY",
    "Area",
    "ChallengeZone",
    "Crossing",
    "Dash",
    "Ground",
    "Stretch",
    "Verdict",
    "atgm_immediate",
    "bearing",
    "between",
    "challenge_point",
    "column_order",
    "dash",
    "distance",
    "faces",
    "first_crossing",
    "in_ambush_range",
    "inches_to_metres",
    "metres_to_inches",
    "path_length",
    "path_until",
    "point_along",
    "point_to_metres",
    "reach",
    "retreat_ok",
    "reveal_radius",
    "revealed",
    "within_reach",
]

EPS: Final = 1e-6  # metres: lengths this close count as equal (see the module's notes)
_ANGLE_EPS: Final = 1e-9  # degrees

# BMF-R08, A10: "The maximum range of Ambush Fire is 1250m" (inclusive). BMF-R10: "ATGMs
# firing in AMBUSH hit immediately, if range is less than 1250m" (strictly less).
AMBUSH_FIRE_RANGE: Final = 1250.0

# BMF-R13, R18, A11: the ambushers "may immediately retreat, up to 50m away from the enemy".
RETREAT_LIMIT: Final = 50.0

# BMF-A18: an infantry figure's weapon faces what is in its front 180°.
INFANTRY_ARC: Final = 180.0

# The running class of ground no area covers: smooth, open, dry (BMF-T01: a human, 100 m).
OPEN: Final = "open"

# BMF-R09, A06, A07 (``bmf.reveal_width_by_class`` on, the DEFAULT): the *width* (diameter)
# of the area Ambush Fire reveals, by the firer's class. "a 250m wide area centered on the
# firer, for infantry and a 1250m wide area centered on the firer for AT guns, and ATGM";
# by A07 any vehicle's or artillery gun's too. Infantry-carried weapons other than ATGMs
# (rifles, MG teams) are infantry.
REVEAL_WIDTH: Final[Mapping[str, float]] = MappingProxyType(
    {"infantry": 250.0, "at_gun": 1250.0, "atgm": 1250.0, "vehicle": 1250.0, "artillery": 1250.0}
)
# The two classes the text names and nothing else (the switch off): a vehicle's or a gun's
# reveal is then the ruleset's to decide, and :func:`reveal_radius` refuses to guess.
LISTED_REVEAL_WIDTH: Final[Mapping[str, float]] = MappingProxyType(
    {"infantry": 250.0, "at_gun": 1250.0, "atgm": 1250.0}
)

# Why a retreat or a dash falls short (stable codes for the ruleset's refusals and lines).
IMPASSABLE: Final = "impassable"  # the retreat's path enters impassable terrain
OFF_GROUND: Final = "off_ground"  # it leaves the battlefield
TOO_LONG: Final = "too_long"  # its path is longer than the limit (50 m)
NOT_AWAY: Final = "not_away"  # it does not end farther from the nearest enemy
BLOCKED: Final = "blocked"  # a dash runs into impassable terrain before the target
TOO_FAR: Final = "too_far"  # a dash runs out of reach before the target

Path = Sequence[XY]


# --- table mode: inches to metres (RULES-SPEC §2.6) -------------------------------------------


def _scale(metres_per_inch: float) -> float:
    if not (math.isfinite(metres_per_inch) and metres_per_inch > 0):
        raise ValueError(
            f"a ground scale is a positive number of metres per inch, not {metres_per_inch}"
        )
    return metres_per_inch


def inches_to_metres(inches: float, metres_per_inch: float) -> float:
    """A length measured at the table, in metres of ground.

    >>> inches_to_metres(50, 25)
    1250.0
    """
    if not (math.isfinite(inches) and inches >= 0):
        raise ValueError(f"a measured length is a non-negative number of inches, not {inches}")
    return float(inches) * _scale(metres_per_inch)


def metres_to_inches(metres: float, metres_per_inch: float) -> float:
    """A length of ground, in inches at the table (to tell players how far to measure)."""
    if not (math.isfinite(metres) and metres >= 0):
        raise ValueError(f"a length is a non-negative number of metres, not {metres}")
    return float(metres) / _scale(metres_per_inch)


def point_to_metres(point: XY, metres_per_inch: float) -> XY:
    """A point given in inches from the table's top-left corner, in metres of ground."""
    scale = _scale(metres_per_inch)
    return (point[0] * scale, point[1] * scale)


# --- ranges (BMF-R08, R10, A10) -----------------------------------------------------------


def distance(a: XY, b: XY) -> float:
    """Straight-line distance in metres."""
    return math.dist(a, b)


def _range(range_m: float) -> float:
    if not (math.isfinite(range_m) and range_m >= 0):
        raise ValueError(f"a range is a non-negative number of metres, not {range_m}")
    return range_m


def in_ambush_range(range_m: float) -> bool:
    """BMF-R08, A10: Ambush Fire reaches 1250 m, and exactly 1250 m is in range.

    >>> in_ambush_range(1250), in_ambush_range(1300)
    (True, False)
    """
    return _range(range_m) <= AMBUSH_FIRE_RANGE + EPS


def atgm_immediate(range_m: float) -> bool:
    """BMF-R10, A10: an ATGM's Ambush Fire arrives at once only at *less than* 1250 m; at
    exactly 1250 m (within :data:`EPS`) it flies as normal.

    >>> atgm_immediate(1000), atgm_immediate(1250)
    (True, False)
    """
    return _range(range_m) < AMBUSH_FIRE_RANGE - EPS


# --- reveal areas (BMF-R09, A06, A07, A08) ------------------------------------------------


def reveal_radius(
    unit_class: str, reveal_width_by_class: Mapping[str, float] = REVEAL_WIDTH
) -> float:
    """The radius of the circle an Ambush Fire by a firer of ``unit_class`` reveals: half
    the area's width (A06: "250m wide ... centered on the firer" is a circle 250 m across).
    ValueError for a class the table does not list.

    >>> reveal_radius("infantry"), reveal_radius("atgm"), reveal_radius("vehicle")
    (125.0, 625.0, 625.0)
    """
    width = reveal_width_by_class.get(str(unit_class))
    if width is None:
        known = ", ".join(sorted(reveal_width_by_class))
        raise ValueError(f"no reveal width for class {unit_class!r} (known: {known})")
    if not (math.isfinite(width) and width >= 0):
        raise ValueError(f"a reveal width is a non-negative number of metres, not {width}")
    return width / 2


def revealed(centre: XY, radius: float, positions: Mapping[str, XY]) -> set[str]:
    """The keys of ``positions`` inside the reveal circle, **edge included** (a unit exactly
    ``radius`` from the centre is revealed). A08: the caller passes every concealed unit of
    either side; the firer, at the centre, is among them if it is passed.
    """
    if not (math.isfinite(radius) and radius >= 0):
        raise ValueError(f"a radius is a non-negative number of metres, not {radius}")
    return {key for key, at in positions.items() if math.dist(centre, at) <= radius + EPS}


# --- paths --------------------------------------------------------------------------------


def _coords(path: Path) -> list[XY]:
    points = [(float(x), float(y)) for x, y in path]
    if not points:
        raise ValueError("a path has at least one point")
    if not all(math.isfinite(c) for p in points for c in p):
        raise ValueError("a path's points are finite numbers")
    return points


def _segments(points: Sequence[XY]) -> Iterable[tuple[float, XY, XY, float]]:
    """(distance along the path at its start, start, end, length) of each segment with a
    length; repeated waypoints are skipped."""
    along = 0.0
    for p, q in pairwise(points):
        length = math.dist(p, q)
        if length > 0:
            yield along, p, q, length
            along += length


def _lerp(p: XY, q: XY, t: float) -> XY:
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
    points = _coords(path)
    return sum(math.dist(p, q) for p, q in pairwise(points))


def point_along(path: Path, along: float) -> XY:
    """The point ``along`` metres along the path (clamped to its ends)."""
    points = _coords(path)
    if along <= 0:
        return points[0]
    for start, p, q, length in _segments(points):
        if along <= start + length:
            return _lerp(p, q, (along - start) / length)
    return points[-1]


def path_until(path: Path, along: float) -> list[XY]:
    """The path's waypoints as far as ``along`` metres, ending at :func:`point_along`: where a
    unit that stops after ``along`` metres has been (a column that halts, A19)."""
    return _between(_coords(path), 0.0, along)


def between(path: Path, first: float, last: float) -> list[XY]:
    """The part of a path from ``first`` to ``last`` metres along it (a stretch of it)."""
    return _between(_coords(path), first, last)


def _between(points: Sequence[XY], first: float, last: float) -> list[XY]:
    """The part of a path from ``first`` to ``last`` metres along it."""
    out = [point_along(points, first)]
    for start, _, q, length in _segments(points):
        if first < start + length < last:
            out.append(q)
    end = point_along(points, last)
    if end != out[-1] or len(out) == 1:
        out.append(end)
    return out


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
        polygon = Polygon(self.outline)
        if not polygon.is_valid or polygon.area <= 0:
            raise ValueError(f"terrain {self.name!r} is not a simple polygon with an area")
        shapely.prepare(polygon)
        return polygon

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
class _Piece:
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
        return not self._bounds.covers(_geometry(_coords(path)))

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
        return _running(self.terrain_at(point), running)

    def moves_between_cover(self, path: Path) -> bool:
        """BMF-R01: does the path start and end in concealed positions?"""
        points = _coords(path)
        return self.is_concealing(points[0]) and self.is_concealing(points[-1])

    def crosses_impassable(self, path: Path) -> bool:
        """Does the path enter impassable terrain? Running along or stopping on a marsh's
        edge does not."""
        return self.first_impassable(path) is not None

    def first_impassable(self, path: Path) -> float | None:
        """How far along the path it first enters impassable terrain: the point on the
        area's edge where it would step in (``0`` if it starts inside); None if never."""
        points = _coords(path)
        if len(points) == 1 or path_length(points) == 0:
            return 0.0 if self.is_impassable(points[0]) else None
        return next((p.start for p in self._pieces(points) if p.blocked), None)

    def exposed_stretches(self, path: Path) -> list[Stretch]:
        """BMF-R01: the parts of the path outside concealment, in order along it — where a
        unit moving between concealed positions is open to Challenge Fire (S2). Each
        stretch runs from the point where the path leaves cover to the point where it is
        back in cover (an area's edge counts as cover). A path of no length at an exposed
        point is one stretch of no length."""
        points = _coords(path)
        if path_length(points) == 0:
            return [] if self.is_concealing(points[0]) else [Stretch(0.0, 0.0)]
        stretches: list[Stretch] = []
        for piece in self._pieces(points):
            if any(a.conceals for a in piece.areas):
                continue
            if stretches and abs(stretches[-1].end - piece.start) <= EPS:
                stretches[-1] = Stretch(stretches[-1].start, piece.end)
            else:
                stretches.append(Stretch(piece.start, piece.end))
        return stretches

    def _pieces(self, points: Sequence[XY]) -> list[_Piece]:
        """The path cut at every area edge it meets, each piece told by its middle."""
        pieces: list[_Piece] = []
        for start, p, q, length in _segments(points):
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
                middle = _lerp(p, q, (a + b) / 2 / length)
                areas = self.terrain_at(middle)
                blocked = any(x.impassable and x.shape.contains(Point(middle)) for x in areas)
                pieces.append(_Piece(start + a, start + b, areas, blocked))
        return pieces


def _running(areas: Sequence[Area], running: Mapping[str, float]) -> float:
    """The slowest running distance of the areas (impassable ones only skirted here, so
    left out), or the open-ground distance where no area is. A kind the unit's table does
    not list is run like open ground."""
    if OPEN not in running:
        raise ValueError(f"give the running distance on open ground ({OPEN!r})")
    kinds = [a.kind for a in areas if not a.impassable]
    return min((running.get(k, running[OPEN]) for k in kinds), default=running[OPEN])


def _geometry(points: Sequence[XY]) -> BaseGeometry:
    distinct = list(dict.fromkeys(points))
    return Point(distinct[0]) if len(distinct) == 1 else LineString(points)


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
        """The zone as a shapely shape (a point zone's circle drawn with 64 sides a quarter,
        for maps; :func:`first_crossing` tests a point zone's circle exactly)."""
        if self.kind == "point":
            return Point(self.points[0]).buffer(self.radius, quad_segs=64)
        line = LineString(self.points)
        return line.buffer(self.radius, quad_segs=64) if self.radius > 0 else line


class Crossing(NamedTuple):
    """Where a path first meets a zone: ``distance`` metres along it, at ``point``."""

    distance: float
    point: XY


def _circle_hit(p: XY, q: XY, length: float, centre: XY, radius: float) -> float | None:
    """How far from ``p`` toward ``q`` the segment first comes within ``radius`` of
    ``centre`` (edge included), or None."""
    fx, fy = p[0] - centre[0], p[1] - centre[1]
    limit = radius + EPS
    if fx * fx + fy * fy <= limit * limit:
        return 0.0
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    b = ux * fx + uy * fy
    discriminant = b * b - (fx * fx + fy * fy - radius * radius)
    if discriminant >= 0:
        t = -b - math.sqrt(discriminant)
    elif b * b - (fx * fx + fy * fy - limit * limit) >= 0:
        t = -b  # it grazes the circle: the closest it comes, within EPS of the edge
    else:
        return None
    return max(0.0, t) if 0 <= t <= length + EPS else None


def _shape_hit(p: XY, q: XY, length: float, shape: BaseGeometry) -> float | None:
    met = LineString([p, q]).intersection(shape)
    if met.is_empty:
        return None
    return min(min(length, math.dist(p, (x, y))) for x, y in shapely.get_coordinates(met))


def _first_hit(points: Sequence[XY], zone: ChallengeZone | BaseGeometry) -> float | None:
    """How far along the path it first meets the zone, or None."""
    if len(points) == 1 or path_length(points) == 0:
        at = points[0]
        if isinstance(zone, ChallengeZone) and zone.kind == "point":
            return 0.0 if math.dist(at, zone.points[0]) <= zone.radius + EPS else None
        shape = zone.shape if isinstance(zone, ChallengeZone) else zone
        return 0.0 if shape.distance(Point(at)) <= EPS else None
    for start, p, q, length in _segments(points):
        if isinstance(zone, ChallengeZone) and zone.kind == "point":
            hit = _circle_hit(p, q, length, zone.points[0], zone.radius)
        else:
            hit = _shape_hit(p, q, length, zone.shape if isinstance(zone, ChallengeZone) else zone)
        if hit is not None:
            return start + hit
    return None


def first_crossing(path: Path, zone: ChallengeZone | BaseGeometry) -> Crossing | None:
    """Where along a moving unit's path it first enters the zone (its edge, or the gap's
    line, included), or None if it never does. ``zone`` is a :class:`ChallengeZone` or any
    shapely shape in metres."""
    points = _coords(path)
    hit = _first_hit(points, zone)
    return None if hit is None else Crossing(hit, point_along(points, hit))


def challenge_point(
    path: Path, zone: ChallengeZone | BaseGeometry, ground: Ground
) -> Crossing | None:
    """BMF-R01 with A04: the first point where the path is both in the zone and exposed
    (outside concealment), where a Challenge Fire can take it; None if there is none."""
    points = _coords(path)
    for stretch in ground.exposed_stretches(points):
        part = _between(points, stretch.start, stretch.end)
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


# --- retreat (BMF-R13, R18, A11, A21) -----------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """Whether a retreat is allowed: every reason it is not, in a fixed order
    (:data:`IMPASSABLE`, :data:`OFF_GROUND`, :data:`TOO_LONG`, :data:`NOT_AWAY`)."""

    reasons: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.reasons

    @property
    def reason(self) -> str | None:
        """The first reason, or None when it is allowed."""
        return self.reasons[0] if self.reasons else None

    def __bool__(self) -> bool:
        return self.ok


def _nearest(point: XY, enemies: Sequence[XY]) -> float:
    return min(math.dist(point, e) for e in enemies)


def retreat_ok(
    start: XY,
    path: Path,
    enemies: Sequence[XY],
    ground: Ground,
    limit: float = RETREAT_LIMIT,
) -> Verdict:
    """BMF-R13, R18, A11: may surviving ambushers retreat from ``start`` through ``path``
    (the waypoints after ``start``, the last where they stop)?

    * the whole path is at most ``limit`` (50 m) long;
    * it ends farther from the nearest enemy than it starts (strictly; "nearest" is taken
      at each end) — ``enemies`` are the positions the caller counts as "the enemy", which
      by A21's DEFAULT are only those the retreating side can see;
    * it never enters impassable terrain (its edge may be walked), and stays on the ground.

    With no enemy given, any direction is away.
    """
    if not (math.isfinite(limit) and limit >= 0):
        raise ValueError(f"a retreat's limit is a non-negative number of metres, not {limit}")
    points = _coords([start, *path])
    reasons: list[str] = []
    if ground.crosses_impassable(points):
        reasons.append(IMPASSABLE)
    if ground.leaves_ground(points):
        reasons.append(OFF_GROUND)
    if path_length(points) > limit + EPS:
        reasons.append(TOO_LONG)
    if enemies and _nearest(points[-1], enemies) <= _nearest(points[0], enemies) + EPS:
        reasons.append(NOT_AWAY)
    return Verdict(tuple(reasons))


# --- ambush close combat (BMF-R15, R19, T01, A16) -----------------------------------------


def reach(running_distance: float) -> float:
    """BMF-R15: the farthest an Ambush Close Combat reaches, half the attacker's running
    distance (a human on open ground: 100 m, so 50 m).

    >>> reach(100)
    50.0
    """
    if not (math.isfinite(running_distance) and running_distance >= 0):
        raise ValueError(f"a running distance is a non-negative number, not {running_distance}")
    return running_distance / 2


def within_reach(range_m: float, running_distance: float) -> bool:
    """BMF-R15, T01: is a target ``range_m`` away within reach? The edge is in (50 m, yes;
    51 m, no)."""
    return _range(range_m) <= reach(running_distance) + EPS


@dataclass(frozen=True)
class Dash:
    """How an Ambush Close Combat's dash went: ``contact`` with the target or not; ``end``,
    where the attacker stands afterwards (the target's position on contact, else the
    farthest point it reached, A16); ``travelled``, metres run; ``reason`` it fell short
    (:data:`BLOCKED` or :data:`TOO_FAR`), None on contact."""

    contact: bool
    end: XY
    travelled: float
    reason: str | None = None


def dash(start: XY, target: XY, running: float | Mapping[str, float], ground: Ground) -> Dash:
    """BMF-R15, R19, A16: the attacker's dash straight from ``start`` to ``target``.

    ``running`` is the attacker's running distance: one number for all ground, or its
    distances by terrain kind (``{"open": 100, "woods": 50}``, see :class:`Area`); then
    each stretch of the dash uses up its share of half a run at that ground's distance (20 m
    of open and 20 m of woods is 0.2 + 0.4 of a run: more than half, so too far). The dash
    stops where it would enter impassable terrain (:data:`BLOCKED`) or where half a run is
    spent (:data:`TOO_FAR`), whichever comes first; that point is ``end``.

    Whether the target is within reach at all (T08: 60 m → the attack is not allowed) is
    :func:`within_reach`, for the ruleset to ask before the dash.
    """
    table: Mapping[str, float] = running if isinstance(running, Mapping) else {OPEN: float(running)}
    uniform = not isinstance(running, Mapping)
    for value in table.values():
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"a running distance is a non-negative number, not {value}")
    points = _coords([start, target])
    total = math.dist(start, target)
    if total == 0:
        return Dash(True, target, 0.0)
    left = 0.5  # the share of a run still to spend
    for piece in ground._pieces(points):
        if piece.blocked:
            return Dash(False, point_along(points, piece.start), piece.start, BLOCKED)
        pace = table[OPEN] if uniform else _running(piece.areas, table)
        length = piece.end - piece.start
        can = left * pace
        if length > can + EPS:
            stop = piece.start + can
            return Dash(False, point_along(points, stop), stop, TOO_FAR)
        left = max(0.0, left - length / pace) if pace > 0 else 0.0
    return Dash(True, target, total)


# --- weapon facing (BMF-R04, A18) ---------------------------------------------------------


def bearing(a: XY, b: XY) -> float:
    """The direction from ``a`` to ``b`` in degrees clockwise from up (toward the top edge,
    y down), in [0, 360). ValueError when they are the same point.

    >>> bearing((0, 0), (0, -1)), bearing((0, 0), (1, 0)), bearing((0, 0), (-1, 0))
    (0.0, 90.0, 270.0)
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 and dy == 0:
        raise ValueError("a point has no bearing from itself")
    return math.degrees(math.atan2(dx, -dy)) % 360.0


def faces(unit_position: XY, facing_degrees: float, arc_degrees: float, other_position: XY) -> bool:
    """BMF-A18: is ``other_position`` inside the weapon arc of a unit at ``unit_position``
    facing ``facing_degrees``? The arc is ``arc_degrees`` wide, centred on the facing
    (a vehicle: its turret's or weapon's arc, the turret's facing; infantry:
    :data:`INFANTRY_ARC`, its front 180°; 360 all round). Its edges are inside. ValueError
    when the two positions are the same point.
    """
    if not (math.isfinite(arc_degrees) and 0 <= arc_degrees <= 360):
        raise ValueError(f"an arc is 0 to 360 degrees wide, not {arc_degrees}")
    if not math.isfinite(facing_degrees):
        raise ValueError(f"a facing is a number of degrees, not {facing_degrees}")
    off = (bearing(unit_position, other_position) - facing_degrees + 180.0) % 360.0 - 180.0
    return abs(off) <= arc_degrees / 2 + _ANGLE_EPS
