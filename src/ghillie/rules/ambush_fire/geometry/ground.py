"""The terrain: areas, the battlefield they lie on (:class:`Ground`), and what a path meets
on it — cover, open stretches, impassable ground, the running distance."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from ghillie.measure.tabletop import XY, area_shape

from .capsules import Segments
from .measures import EPS, OPEN
from .paths import Path, coords, shape_of

# Dashes are met with edges this many (dash, edge) pairs at a time (memory, not work).
_PAIRS = 1 << 18
_HAIR = 1e-7  # metres: a dash along an edge is looked at this far to each side of it
_BACK = 1e-6  # metres: and followed from this far behind its start

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
        self._shapes = np.array([a.shape for a in self.areas], dtype=object)
        self._tree = STRtree(self._shapes)
        self._conceals = np.array([a.conceals for a in self.areas], dtype=bool)
        self._impassable = np.array([a.impassable for a in self.areas], dtype=bool)
        # Every area's edges, one row each: where it starts and which way it runs.
        rings = [np.asarray(a.shape.exterior.coords, dtype=np.float64) for a in self.areas]
        starts = [ring[:-1] for ring in rings]
        ways = [ring[1:] - ring[:-1] for ring in rings]
        self._edge_from = np.concatenate(starts) if rings else np.zeros((0, 2))
        self._edge_way = np.concatenate(ways) if rings else np.zeros((0, 2))
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
        return self.cut(path).first_blocked

    def exposed_stretches(self, path: Path) -> list[Stretch]:
        """BMF-R01: the parts of the path outside concealment, in order along it — where a
        unit moving between concealed positions is open to Challenge Fire (S2). Each
        stretch runs from the point where the path leaves cover to the point where it is
        back in cover (an area's edge counts as cover). A path of no length at an exposed
        point is one stretch of no length."""
        return self.cut(path).exposed()

    def pieces(self, points: Sequence[XY]) -> list[Piece]:
        """The path cut at every area edge it meets, each piece told by its middle (a path
        of no length has none)."""
        cut = self.cut(points)
        areas: list[list[Area]] = [[] for _ in cut.start]
        for piece, area in zip(*cut.met, strict=True):
            areas[int(piece)].append(self.areas[int(area)])
        return [
            Piece(float(a), float(b), tuple(areas[i]), bool(cut.blocked[i]))
            for i, (a, b) in enumerate(zip(cut.start, cut.end, strict=True))
            if b > a
        ]

    def cut(self, path: Path, limit: int | None = None) -> Cut:
        """The path cut at every area edge it meets: its pieces, each on one ground.
        :class:`TooIntricate` if it meets edges more than ``limit`` times."""
        return self.cut_all([path], limit)[0]

    def cut_all(self, paths: Sequence[Path], limit: int | None = None) -> list[Cut]:
        """Each path cut at every area edge it meets, every segment of every path met with
        every edge at once (the work set by how many of each there are).
        :class:`TooIntricate` if they meet edges more than ``limit`` times in all."""
        each = [Segments.of(coords(path)) for path in paths]
        segments = Segments.joined(each)
        p, length = segments.p, segments.length
        count = len(length)
        t = [np.zeros(count), length]
        on = [np.arange(count), np.arange(count)]
        at = np.zeros(0, dtype=np.intp)
        if len(self._edge_from):
            at, along = _edge_cuts(p, segments.q - p, self._edge_from, self._edge_way)
            t.append(along * length[at])
            on.append(at)
        bounds = np.cumsum([0, *(len(s) for s in each)])
        path_of = np.repeat(np.arange(len(each)), np.diff(bounds))
        crossings = np.bincount(path_of[at], minlength=len(each))
        if limit is not None and crossings.sum() > limit:
            over = int(np.searchsorted(np.cumsum(crossings), limit, side="right"))
            raise TooIntricate(int(crossings.sum()), over)
        owners, cuts = np.concatenate(on), np.concatenate(t)
        order = np.lexsort((cuts, owners))
        owners, cuts = owners[order], cuts[order]
        same = owners[1:] == owners[:-1]
        first, last, owner = cuts[:-1][same], cuts[1:][same], owners[:-1][same]
        # Two cuts at one edge, a float apart, are one; a path of no length is one piece.
        kept = (last - first > 1e-9) | (length[owner] == 0)
        first, last, owner = first[kept], last[kept], owner[kept]
        middle = p[owner] + segments.u[owner] * ((first + last) / 2)[:, None]
        piece, area = self._tree.query(shapely.points(middle), predicate="intersects")
        ordered = np.argsort(piece, kind="stable")
        piece, area = piece[ordered], area[ordered]
        concealed = np.zeros(len(first), dtype=bool)
        concealed[piece[self._conceals[area]]] = True
        walled = self._impassable[area]
        inside = shapely.contains_xy(
            self._shapes[area[walled]], middle[piece[walled], 0], middle[piece[walled], 1]
        )
        blocked = np.zeros(len(first), dtype=bool)
        blocked[piece[walled][inside]] = True
        start, end = segments.along[owner] + first, segments.along[owner] + last
        out: list[Cut] = []
        pieces = np.searchsorted(owner, bounds)
        for i, path in enumerate(each):
            lo, hi = pieces[i], pieces[i + 1]
            mine = (piece >= lo) & (piece < hi)
            out.append(
                Cut(
                    path,
                    start[lo:hi],
                    end[lo:hi],
                    owner[lo:hi] - bounds[i],
                    concealed[lo:hi],
                    blocked[lo:hi],
                    (piece[mine] - lo, area[mine]),
                    int(crossings[i]),
                )
            )
        return out

    @cached_property
    def cells(self) -> Cells:
        """The ground cut into cells where no edge runs (:class:`Cells`), made once."""
        return Cells.of(self.areas)

    def dash_costs(
        self,
        firers: NDArray[np.float64],
        table: NDArray[np.intp],
        ends: NDArray[np.float64],
        slowness: NDArray[np.float64],
        open_slowness: NDArray[np.float64],
        far: float,
    ) -> NDArray[np.float64]:
        """What each straight dash from ``firers[table[i]]`` to ``ends[i]`` (``far`` metres
        at most: longer ones cost at least that) costs: its length on each cell of the
        ground (:attr:`cells`) times the runner's slowness there (``slowness[table[i],
        cell]``: 1 over its running distance, the slowest of the cell's areas, impassable
        ones left out) and on open ground (``open_slowness[table[i]]``).

        Every dash is met with as many edges — those near its firer, and stand-ins up to
        the most edges near any point of the ground — in chunks of a size set by their
        numbers: the same arithmetic whatever the numbers are, so the time does not say
        where the dashes run (TRUST.md §3.7)."""
        cells = self.cells
        near, inside, behind = cells.around(firers, far)
        n, width = len(ends), near.shape[1]
        out = np.zeros(n)
        chunk = max(1, _PAIRS // max(1, width))
        for lo in range(0, n, chunk):
            part = slice(lo, min(n, lo + chunk))
            slot = table[part]
            right, left = cells.lengths(
                firers[slot], ends[part], near[slot], inside[slot], behind[slot]
            )
            run = np.hypot(*(ends[part] - firers[slot]).T)
            base = open_slowness[slot]
            more = slowness[slot] - base[:, None]
            # Along an edge a dash is in the area (edges are in): the dearer side counts.
            costs = np.einsum("nc,nc->n", more, right), np.einsum("nc,nc->n", more, left)
            out[part] = base * run + np.maximum(*costs)
        return out


# A point this far from a firer, off every edge but in a pathological case, whose cells are
# known: a dash's line is followed from there (``Cells.lengths``).
_BEHIND = np.array([3.1e-4, 1.7e-4])


@dataclass(frozen=True)
class Cells:
    """The ground cut into cells at every area's edge (areas that overlap make a cell
    where they do), each cell the areas it lies in; by rows, every cell's edges (its
    outline anticlockwise, its holes clockwise) and whose they are. The last edge is a
    stand-in of no length, that nothing crosses."""

    edge_from: NDArray[np.float64]
    edge_way: NDArray[np.float64]
    edge_cell: NDArray[np.intp]
    areas: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, areas: Sequence[Area]) -> Cells:
        starts: list[NDArray[np.float64]] = [np.zeros((0, 2))]
        ways: list[NDArray[np.float64]] = [np.zeros((0, 2))]
        owners: list[NDArray[np.intp]] = [np.zeros(0, dtype=np.intp)]
        members: list[tuple[int, ...]] = []
        lines = shapely.union_all([a.shape.boundary for a in areas]) if areas else None
        faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(lines))) if areas else []
        for face in faces:
            inside = face.representative_point()
            mine = tuple(i for i, a in enumerate(areas) if a.shape.contains(inside))
            if not mine:  # open ground that areas ring round
                continue
            face = shapely.orient_polygons(face)  # its outline anticlockwise
            for ring in (face.exterior, *face.interiors):
                xy = np.asarray(ring.coords, dtype=np.float64)
                starts.append(xy[:-1])
                ways.append(xy[1:] - xy[:-1])
                owners.append(np.full(len(xy) - 1, len(members)))
            members.append(mine)
        return cls(
            np.concatenate([*starts, np.full((1, 2), -1e9)]),
            np.concatenate([*ways, np.zeros((1, 2))]),
            np.concatenate([*owners, np.zeros(1, dtype=np.intp)]),
            tuple(members),
        )

    def _grid(self, far: float) -> tuple[float, dict[tuple[int, int], NDArray[np.intp]], int]:
        """The edges by squares of ``far`` (and a metre) a side, each square's those of
        the nine round it: every edge within ``far`` of a point of the square; and the
        most any square has."""
        side = far + 1.0
        ends = np.stack([self.edge_from[:-1], self.edge_from[:-1] + self.edge_way[:-1]], 1)
        low = np.floor(ends.min(axis=1) / side).astype(int)
        high = np.floor(ends.max(axis=1) / side).astype(int)
        squares: dict[tuple[int, int], list[int]] = {}
        for k in range(len(low)):
            for i in range(low[k, 0] - 1, high[k, 0] + 2):
                for j in range(low[k, 1] - 1, high[k, 1] + 2):
                    squares.setdefault((i, j), []).append(k)
        grid = {key: np.array(found, dtype=np.intp) for key, found in squares.items()}
        return side, grid, max((len(g) for g in grid.values()), default=0)

    def around(
        self, firers: NDArray[np.float64], far: float
    ) -> tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]]:
        """For each firer: the edges near it (every edge within ``far``), as many for
        every firer (stand-ins make up the most any square of the ground has); the cells
        a point just :data:`_BEHIND` it lies in (0 or 1 each); and that point."""
        side, grid, most = self._grids.get(far) or self._grids.setdefault(far, self._grid(far))
        stand_in = len(self.edge_from) - 1
        near = np.full((len(firers), most), stand_in, dtype=np.intp)
        for row, (x, y) in enumerate(firers):
            found = grid.get((math.floor(x / side), math.floor(y / side)), _NONE)
            near[row, : len(found)] = found
        behind = firers + _BEHIND
        a, e = self.edge_from[None, :-1], self.edge_way[None, :-1]
        x, y = behind[:, 0, None], behind[:, 1, None]
        ay, by = a[..., 1], a[..., 1] + e[..., 1]
        spans = (ay > y) != (by > y)
        across = a[..., 0] + (y - ay) * e[..., 0] / np.where(spans, e[..., 1], 1.0)
        ray = (spans & (across > x)).astype(np.float64)
        owner = np.zeros((len(self.edge_cell) - 1, len(self.areas)))
        owner[np.arange(len(self.edge_cell) - 1), self.edge_cell[:-1]] = 1.0
        return near, (ray @ owner) % 2, behind

    @cached_property
    def _grids(self) -> dict[float, tuple[float, dict[tuple[int, int], NDArray[np.intp]], int]]:
        return {}

    def lengths(
        self,
        p: NDArray[np.float64],
        q: NDArray[np.float64],
        near: NDArray[np.intp],
        inside: NDArray[np.float64],
        behind: NDArray[np.float64],
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """How many metres of each segment ``p[i]`` → ``q[i]`` lie in each cell
        (``(segments, cells)``), the segment moved a hair to its right, then to its left (so
        that where it runs along an edge it is in the cell on that side). It is followed
        from ``behind[i]``, a point by its start in the cells ``inside[i]``, to a point on
        its line just behind its start, then along it, meeting the edges ``near[i]``: at
        every edge crossed it goes into a cell (the edge's left) or out of it, for the rest
        of the segment from there (the whole of it, before its start). An edge is crossed
        where one of its ends lies left of the line and the other does not."""
        count, cells = len(p), len(self.areas)
        if not cells:
            return np.zeros((count, 0)), np.zeros((count, 0))
        d = q - p
        length = np.hypot(d[:, 0], d[:, 1])
        across = np.stack([-d[:, 1], d[:, 0]], axis=1)
        left_of = across / np.where(length > 0, length, 1.0)[:, None]
        a, e = self.edge_from[near], self.edge_way[near]
        slot = np.arange(count)[:, None] * cells + self.edge_cell[near]
        unit = d / np.where(length > 0, length, 1.0)[:, None]
        # Along it from a little behind its start (off every edge but in a pathological
        # case, as ``behind`` is), so that an edge through its start is crossed once.
        back = -np.where(length > 0, _BACK / np.where(length > 0, length, 1.0), 0.0)
        out = []
        for hair in (-_HAIR, _HAIR):  # to its right, then to its left
            start = p + left_of * hair
            got = inside * length[:, None]
            for origin, way, first, weight in (
                (behind, start - unit * _BACK - behind, 0.0, None),  # the whole of it
                (start, d, back[:, None], length),  # the rest of it from there
            ):
                dx, dy = way[:, 0, None], way[:, 1, None]
                turn = dx * e[..., 1] - dy * e[..., 0]  # not 0 where an edge is crossed
                wx, wy = a[..., 0] - origin[:, 0, None], a[..., 1] - origin[:, 1, None]
                side_a = dx * wy - dy * wx
                crossed = (side_a > 0) != (side_a + turn > 0)
                with np.errstate(over="ignore"):  # a crossing at a grazing angle: far off
                    s = (wx * e[..., 1] - wy * e[..., 0]) / np.where(crossed, turn, 1.0)
                crossed &= (s >= first) & (s <= 1)
                rest = (
                    length[:, None] if weight is None else (1 - np.clip(s, 0, 1)) * weight[:, None]
                )
                going = np.where(crossed, np.sign(-turn) * rest, 0.0)
                got += np.bincount(slot.ravel(), going.ravel(), minlength=count * cells).reshape(
                    count, cells
                )
            out.append(got)
        return out[0], out[1]


_NONE = np.zeros(0, dtype=np.intp)


class TooIntricate(ValueError):
    """A path meets the edges of the terrain's areas more times than the caller allows."""

    def __init__(self, crossings: int, path: int = 0) -> None:
        super().__init__(f"the paths meet terrain edges {crossings} times")
        self.crossings = crossings
        self.path = path  # the first path (by position) past the limit


class Cut(NamedTuple):
    """A path cut at every area edge it meets (:meth:`Ground.cut`), its pieces in order:
    where each starts and ends (metres along the path), the segment it lies on, whether it
    is in concealing ground (an edge is cover) and inside impassable ground; ``met`` pairs
    each piece with each area it lies in (or along the edge of); ``crossings``, how many
    times it meets an edge."""

    segments: Segments
    start: NDArray[np.float64]
    end: NDArray[np.float64]
    segment: NDArray[np.intp]
    concealed: NDArray[np.bool_]
    blocked: NDArray[np.bool_]
    met: tuple[NDArray[np.intp], NDArray[np.intp]]
    crossings: int

    @property
    def first_blocked(self) -> float | None:
        """How far along it first enters impassable ground, or None."""
        blocked = np.flatnonzero(self.blocked)
        return float(self.start[blocked[0]]) if len(blocked) else None

    def exposed(self) -> list[Stretch]:
        """The stretches out of concealment, in order, those that touch merged."""
        stretches: list[Stretch] = []
        for start, end, hidden in zip(self.start, self.end, self.concealed, strict=True):
            if hidden:
                continue
            if stretches and abs(stretches[-1].end - start) <= EPS:
                stretches[-1] = Stretch(stretches[-1].start, float(end))
            else:
                stretches.append(Stretch(float(start), float(end)))
        return stretches


def _edge_cuts(
    p: NDArray[np.float64],
    d: NDArray[np.float64],
    edge_from: NDArray[np.float64],
    edge_way: NDArray[np.float64],
) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
    """Where the segments ``p + s d`` (``0 <= s <= 1``) meet the edges: the segment of each
    meeting and its ``s``. Every segment is met with every edge (work set by their
    numbers); a meeting within a hair counts, as one more cut only splits a piece in two
    pieces of the same ground, and running along an edge cuts at the edge's ends."""
    tolerance = 1e-9
    dx, dy = d[:, 0, None], d[:, 1, None]
    ex, ey = edge_way[None, :, 0], edge_way[None, :, 1]
    wx, wy = edge_from[None, :, 0] - p[:, 0, None], edge_from[None, :, 1] - p[:, 1, None]
    den = dx * ey - dy * ex
    along_path, along_edge = wx * ey - wy * ex, wx * dy - wy * dx
    parallel = np.abs(den) <= 1e-12 * np.hypot(dx, dy) * np.hypot(ex, ey)
    safe = np.where(parallel, 1.0, den)
    s, e = along_path / safe, along_edge / safe
    crossing = ~parallel & (s >= -tolerance) & (s <= 1 + tolerance)
    crossing &= (e >= -tolerance) & (e <= 1 + tolerance)
    # Running along an edge: cut where the edge's ends lie on the segment.
    squared = dx * dx + dy * dy
    moving = squared > 0  # a path of no length is one segment of none: it meets nothing
    inline = parallel & moving & (np.abs(along_edge) <= tolerance * np.maximum(np.sqrt(squared), 1))
    crossing &= moving
    squared = np.where(moving, squared, 1.0)
    near = (wx * dx + wy * dy) / squared
    far = near + (ex * dx + ey * dy) / squared
    rows = np.broadcast_to(np.arange(len(p))[:, None], den.shape)
    found = [(rows[crossing], s[crossing])]
    for end in (near, far):
        on = inline & (end >= 0) & (end <= 1)
        found.append((rows[on], end[on]))
    at = np.concatenate([f[0] for f in found])
    return at, np.clip(np.concatenate([f[1] for f in found]), 0.0, 1.0)


def running_on(areas: Sequence[Area], running: Mapping[str, float]) -> float:
    """The slowest running distance of the areas (impassable ones only skirted here, so
    left out), or the open-ground distance where no area is. A kind the unit's table does
    not list is run like open ground."""
    if OPEN not in running:
        raise ValueError(f"give the running distance on open ground ({OPEN!r})")
    kinds = [a.kind for a in areas if not a.impassable]
    return min((running.get(k, running[OPEN]) for k in kinds), default=running[OPEN])
