"""Where a path first comes within a distance of a segment, for many of both at once: the
one analytic primitive of the standing orders' triggers (issue 24).

Every trigger region a rule uses is a union of *capsules* — the points within ``r`` metres
of a segment ``ab``: a point zone is a capsule whose two ends are its centre, a gap is one
of radius 0, a street one per stretch of its centre line, and "within so many metres" or
Ambush Fire's 1250 m one round the firer. A capsule is convex, so a straight segment of a
path meets it in one interval, which is found with a quadratic and two linear bounds — no
walk along the path, and the same arithmetic whatever the numbers are: :func:`meet` costs
what the shapes of its arrays cost (TRUST.md §3.7, "Time is a channel").

Edges are in (the package's conventions): a path that only grazes a capsule, within
:data:`~.measures.EPS`, meets it where it comes closest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .measures import EPS
from .paths import lerp

Array = NDArray[np.float64]
Mask = NDArray[np.bool_]

# A stand-in for "no bound": far beyond any path (a path is at most a few hundred km).
BIG = 1e15
_FLAT = 1e-12  # a direction this close to parallel to a bound is parallel to it


@dataclass(frozen=True)
class Capsules:
    """Capsules by rows: ends ``a`` and ``b`` (``(n, 2)`` metres) and radius ``r`` (``(n,)``)."""

    a: Array
    b: Array
    r: Array

    @classmethod
    def of(cls, rows: list[tuple[tuple[float, float], tuple[float, float], float]]) -> Capsules:
        """From ``[(a, b, r), …]``."""
        if not rows:
            empty = np.zeros((0, 2))
            return cls(empty, empty, np.zeros(0))
        a = np.array([row[0] for row in rows], dtype=np.float64)
        b = np.array([row[1] for row in rows], dtype=np.float64)
        r = np.array([row[2] for row in rows], dtype=np.float64)
        return cls(a, b, r)

    def __len__(self) -> int:
        return len(self.r)


@dataclass(frozen=True)
class Segments:
    """A path's straight segments by rows: start ``p``, end ``q``, unit direction ``u``
    (``(n, 2)`` each), length and how far along the path each starts (``along``, ``(n,)``).
    A path of no length is one segment of length 0 at its point."""

    p: Array
    q: Array
    u: Array
    length: Array
    along: Array

    @classmethod
    def of(cls, points: list[tuple[float, float]]) -> Segments:
        xy = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        d = xy[1:] - xy[:-1]
        length = np.hypot(d[:, 0], d[:, 1])
        moving = length > 0  # a waypoint given twice adds no segment
        if not moving.any():
            return cls(xy[:1], xy[:1], np.array([[1.0, 0.0]]), np.zeros(1), np.zeros(1))
        p, q, d, length = xy[:-1][moving], xy[1:][moving], d[moving], length[moving]
        along = np.concatenate(([0.0], np.cumsum(length)[:-1]))
        return cls(p, q, d / length[:, None], length, along)

    @classmethod
    def joined(cls, paths: list[Segments]) -> Segments:
        """Several paths' segments in one (each still measured along its own path)."""
        fields = zip(*((s.p, s.q, s.u, s.length, s.along) for s in paths), strict=True)
        p, q, u, length, along = (np.concatenate(f) for f in fields)
        return cls(p, q, u, length, along)

    def __len__(self) -> int:
        return len(self.length)

    def point(self, segment: int, t: float) -> tuple[float, float]:
        """The point ``t`` metres from the start of segment ``segment``: its ends exactly
        as given, between them as :func:`~.paths.lerp` finds it."""
        p = (float(self.p[segment][0]), float(self.p[segment][1]))
        q = (float(self.q[segment][0]), float(self.q[segment][1]))
        length = float(self.length[segment])
        return lerp(p, q, t / length) if length > 0 else p


class Meeting(NamedTuple):
    """Where each path segment (columns) meets each capsule (rows), as metres from the
    segment's start along its line: ``exact`` the interval inside the capsule, ``loose``
    the interval within :data:`EPS` more of it. An empty interval has ``lo > hi``."""

    exact_lo: Array
    exact_hi: Array
    loose_lo: Array
    loose_hi: Array

    def __and__(self, other: Meeting) -> Meeting:
        """Where both are met (both capsules at once: the intersection of the intervals)."""
        return Meeting(
            np.maximum(self.exact_lo, other.exact_lo),
            np.minimum(self.exact_hi, other.exact_hi),
            np.maximum(self.loose_lo, other.loose_lo),
            np.minimum(self.loose_hi, other.loose_hi),
        )

    def entries(self, length: Array) -> tuple[Array, Array, Mask]:
        """How far along each segment it first meets the capsule and how far it stays in
        (both clipped to the segment), and whether it meets it at all: at its start if it
        starts within EPS of it; else where it comes in; or, if it only grazes it, where it
        comes closest."""
        met = self.loose_lo <= self.loose_hi
        starts_in = (self.loose_lo <= 0) & (self.loose_hi >= 0)
        inside = self.exact_lo <= self.exact_hi
        first = np.where(
            starts_in,
            0.0,
            np.where(inside, self.exact_lo, (self.loose_lo + self.loose_hi) / 2),
        )
        met &= (first <= length + EPS) & (self.loose_hi >= 0)
        return np.clip(first, 0.0, length), np.clip(self.loose_hi, 0.0, length), met


def meet(segments: Segments, capsules: Capsules) -> Meeting:
    """Where every segment's line meets every capsule (arrays of ``(capsules, segments)``).
    Its work is the same for any numbers of the same shapes."""
    px, py = segments.p[None, :, 0], segments.p[None, :, 1]
    ux, uy = segments.u[None, :, 0], segments.u[None, :, 1]
    ax, ay = capsules.a[:, 0, None], capsules.a[:, 1, None]
    bx, by = capsules.b[:, 0, None], capsules.b[:, 1, None]
    r = capsules.r[:, None]
    # The discs at both ends: the line from each centre, and how fast it goes along it.
    fx, fy = px - ax, py - ay
    gx, gy = px - bx, py - by
    ends = ((ux * fx + uy * fy, fx * fx + fy * fy), (ux * gx + uy * gy, gx * gx + gy * gy))
    # The band between them: along the segment ``ab`` (0 to its length) and across it.
    abx, aby = bx - ax, by - ay
    span = np.hypot(abx, aby)
    has_span = span > 0
    dx, dy = abx / np.where(has_span, span, 1.0), aby / np.where(has_span, span, 1.0)
    along = _bounded(fx * dx + fy * dy, ux * dx + uy * dy, 0.0, span)
    across = (fy * dx - fx * dy, uy * dx - ux * dy)

    def within(radius: Array) -> tuple[Array, Array]:
        (lo_a, hi_a), (lo_b, hi_b) = (_disc(half, square, radius) for half, square in ends)
        lo_n, hi_n = _bounded(*across, -radius, radius)
        lo_band = np.where(has_span, np.maximum(along[0], lo_n), BIG)
        hi_band = np.where(has_span, np.minimum(along[1], hi_n), -BIG)
        # A capsule is convex, so what the line meets of it is one interval: the union of
        # the three, where an empty one is (BIG, -BIG), which min and max pass over.
        lo = np.minimum(np.minimum(lo_a, lo_b), lo_band)
        return lo, np.maximum(np.maximum(hi_a, hi_b), hi_band)

    exact_lo, exact_hi = within(r)
    loose_lo, loose_hi = within(r + EPS)
    return Meeting(exact_lo, exact_hi, loose_lo, loose_hi)


def _disc(half: Array, square: Array, r: Array) -> tuple[Array, Array]:
    """Where a line is within ``r`` of a centre: ``half`` the line's direction dotted with
    its start from the centre, ``square`` that start's squared distance."""
    discriminant = half * half - (square - r * r)
    root = np.sqrt(np.maximum(discriminant, 0.0))
    hit = discriminant >= 0
    return np.where(hit, -half - root, BIG), np.where(hit, -half + root, -BIG)


def _bounded(
    start: Array, rate: Array, low: Array | float, high: Array | float
) -> tuple[Array, Array]:
    """Where ``low <= start + rate t <= high``."""
    flat = np.abs(rate) <= _FLAT
    safe = np.where(flat, 1.0, rate)
    one, two = (low - start) / safe, (high - start) / safe
    always = (start >= low) & (start <= high)
    lo = np.where(flat, np.where(always, -BIG, BIG), np.minimum(one, two))
    hi = np.where(flat, np.where(always, BIG, -BIG), np.maximum(one, two))
    return lo, hi
