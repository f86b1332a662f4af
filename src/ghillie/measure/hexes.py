"""Hex-map geometry: distance, rings and discs, printed labels like ``0412``.

The ambush-fields ruleset plays on SFB-style printed maps (RULES-SPEC §1.1): vertical
columns of flat-topped hexes, hexside A pointing up the map, columns numbered 01.. left to
right and rows 01.. top to bottom, a hex labelled column-then-row (``0412``). Positions are
axial coordinates ``Hex(q, r)`` (cube ``s = -q - r``): ``q`` grows to the right along the
columns, and ``Hex(0, 0)`` is hex ``0101``. Everything here is exact integer arithmetic —
only :func:`center` and :func:`corners`, which are for drawing, return floats.

The six directions are numbered 0..5 as the hexsides A..F, clockwise from A (up the map):

====  =======  ==============  ==========
 i    hexside  on the map      step
====  =======  ==============  ==========
 0    A        up              (0, -1)
 1    B        up and right    (+1, -1)
 2    C        down and right  (+1, 0)
 3    D        down            (0, +1)
 4    E        down and left   (-1, +1)
 5    F        up and left     (-1, 0)
====  =======  ==============  ==========

>>> distance(Hex(0, 0), Hex(3, -1)), len(disc(Hex(0, 0), 2))
(3, 19)
>>> sfb = HexMap(42, 30)
>>> sfb.from_label("0412"), sfb.to_label(Hex(3, 10))
(Hex(q=3, r=10), '0412')

Fire arcs, which scenarios configure, are in :mod:`ghillie.measure.arcs`.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from typing import Literal

XY = tuple[float, float]
Shift = Literal["even", "odd"]
HEXSIDES = ("A", "B", "C", "D", "E", "F")
_LABEL = re.compile(r"^([0-9]{2})([0-9]{2})$")


@dataclass(frozen=True, order=True)
class Hex:
    """One hex in axial coordinates; also used for the step between two hexes.

    >>> Hex(2, -1) + Hex(0, 1), Hex(2, -1) - Hex(1, 0), Hex(1, -1).scale(3), Hex(2, -1).s
    (Hex(q=2, r=0), Hex(q=1, r=-1), Hex(q=3, r=-3), -1)
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)


DIRECTIONS = (Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0))


def check_direction(i: int) -> None:
    if not (isinstance(i, int) and 0 <= i < 6):
        raise ValueError(f"a direction is 0..5 (hexsides A..F), not {i!r}")


def direction(i: int) -> Hex:
    """The step to the neighbour across hexside ``i`` (0..5 = A..F); ValueError otherwise.

    >>> direction(0), direction(HEXSIDES.index("C"))
    (Hex(q=0, r=-1), Hex(q=1, r=0))
    """
    check_direction(i)
    return DIRECTIONS[i]


def rotate(step: Hex, turns: int) -> Hex:
    """``step`` turned clockwise by ``turns`` hexsides (60° each; negative turns back).

    >>> rotate(direction(0), 1) == direction(1), rotate(Hex(2, -1), -6)
    (True, Hex(q=2, r=-1))
    """
    q, r, s = step.q, step.r, step.s
    for _ in range(turns % 6):
        # Clockwise on the map is the cube rotation (q, r, s) -> (-r, -s, -q).
        q, r, s = -r, -s, -q
    return Hex(q, r)


def distance(a: Hex, b: Hex) -> int:
    """Hexes counted from ``a`` to ``b``, not counting ``a`` (BSG host hook ``hex_distance``).

    >>> distance(Hex(0, 0), Hex(0, 0)), distance(Hex(0, 0), Hex(2, 3))
    (0, 5)
    """
    d = a - b
    return max(abs(d.q), abs(d.r), abs(d.s))


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes touching ``h``, across hexsides A..F in that order."""
    return [h + step for step in DIRECTIONS]


def ring(center: Hex, radius: int) -> list[Hex]:
    """The ``6 × radius`` hexes exactly ``radius`` from ``center`` (just ``center`` at 0).

    Listed clockwise, starting with the hex straight up the map (across hexside A).

    >>> ring(Hex(0, 0), 1) == neighbours(Hex(0, 0))
    True
    """
    if radius < 0:
        raise ValueError(f"a ring's radius is 0 or more, not {radius}")
    if radius == 0:
        return [center]
    out = []
    h = center + DIRECTIONS[0].scale(radius)
    for side in range(6):
        # From the top corner clockwise: the first side runs down-right (C), and so on.
        step = DIRECTIONS[(side + 2) % 6]
        for _ in range(radius):
            out.append(h)
            h = h + step
    return out


def disc(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``center``: ``3r(r+1)+1`` hexes, centre first, then
    ring by ring. An ambush field is exactly this (RULES-SPEC BSG-R04).

    >>> [len(disc(Hex(5, 5), r)) for r in range(4)]
    [1, 7, 19, 37]
    """
    if radius < 0:
        raise ValueError(f"a disc's radius is 0 or more, not {radius}")
    return [h for k in range(radius + 1) for h in ring(center, k)]


def nearest_distance_to_disc(ship: Hex, center: Hex, radius: int) -> int:
    """Range from ``ship`` to the nearest hex of the disc (RULES-SPEC BSG-A01); 0 inside it.

    Outside the disc this is ``distance - radius``, which is at least 1 there, so it equals
    BSG-A01's ``max(1, dist(ship, controller) − r)``. Inside, BSG-A01's formula would say 1,
    but a ship in the field does not roll (BSG-R26 handles it), so this says 0 and a caller
    can tell the two apart.

    >>> ship = Hex(0, 0)
    >>> nearest_distance_to_disc(ship, Hex(6, 0), 2), nearest_distance_to_disc(ship, Hex(1, 0), 2)
    (4, 0)
    """
    if radius < 0:
        raise ValueError(f"a disc's radius is 0 or more, not {radius}")
    return max(0, distance(ship, center) - radius)


def line(a: Hex, b: Hex) -> list[Hex]:
    """The ``distance(a, b) + 1`` hexes a straight line from ``a``'s centre to ``b``'s
    crosses, each touching the next, ``a`` first and ``b`` last.

    Where the line runs exactly between two hexes, the one taken is the one the line would
    cross if shifted a hair (by the cube offset (+1, +2, -3) × ε, ε infinitesimal). The
    shift is the same whichever end the line starts from, so ``line(b, a)`` is ``line(a, b)``
    reversed, and the arithmetic is in integers, so every machine draws the same line.

    >>> line(Hex(0, 0), Hex(3, 0))
    [Hex(q=0, r=0), Hex(q=1, r=0), Hex(q=2, r=0), Hex(q=3, r=0)]
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    return [_round_nudged(a, b, i, n) for i in range(n + 1)]


_NUDGE = (1, 2, -3)  # ε multiples on q, r, s: distinct sizes, so no two ties stay tied


def _round_nudged(a: Hex, b: Hex, i: int, n: int) -> Hex:
    """The hex holding ``a + (b - a)·i/n`` nudged by ``_NUDGE``·ε, in integers only."""
    scaled = (
        a.q * n + (b.q - a.q) * i,
        a.r * n + (b.r - a.r) * i,
        a.s * n + (b.s - a.s) * i,
    )  # each coordinate times n
    rounded: list[int] = []
    keys: list[tuple[int, int]] = []
    for x, k in zip(scaled, _NUDGE, strict=True):
        low, rest = divmod(x, n)  # x/n = low + rest/n, 0 <= rest < n
        up = 2 * rest > n or (2 * rest == n and k > 0)
        value = low + 1 if up else low
        error = x - value * n  # how far x/n is from value, times n
        rounded.append(value)
        # Compare |x/n + kε - value|: by |error|, then by the ε term's sign.
        keys.append((abs(error), k if error > 0 else -k if error < 0 else abs(k)))
    q, r, s = rounded
    worst = max(range(3), key=keys.__getitem__)
    # The three roundings need not sum to 0; the one rounded furthest is the one to fix.
    if worst == 0:
        q = -r - s
    elif worst == 1:
        r = -q - s
    return Hex(q, r)


# --- printed maps -----------------------------------------------------------------------


def _column_offset(column0: int, shifted: Shift) -> int:
    """How many hexes a column's top hex has risen in r, for zero-based column ``column0``.

    "even": printed columns 02, 04, … sit half a hex lower (zero-based odd columns: the
    "odd-q" layout); "odd": columns 01, 03, … do ("even-q").
    """
    if shifted == "even":
        return (column0 - (column0 & 1)) // 2
    return (column0 + (column0 & 1)) // 2


def _check_shift(shifted: str) -> None:
    if shifted not in ("even", "odd"):
        raise ValueError(f"shifted columns are 'even' or 'odd', not {shifted!r}")


def to_offset(h: Hex, shifted: Shift = "even") -> tuple[int, int]:
    """(column, row) as printed on the map, counted from 1: ``Hex(0, 0)`` is (1, 1).

    ``shifted``: which printed columns sit half a hex lower than their neighbours — "even"
    on SFB maps (0201 is down and right of 0101).

    >>> to_offset(Hex(1, 0)), to_offset(Hex(1, 0), "odd")
    ((2, 1), (2, 2))
    """
    _check_shift(shifted)
    return h.q + 1, h.r + _column_offset(h.q, shifted) + 1


def from_offset(column: int, row: int, shifted: Shift = "even") -> Hex:
    """The hex at printed (column, row), counted from 1; the inverse of :func:`to_offset`.

    >>> from_offset(4, 12)
    Hex(q=3, r=10)
    """
    _check_shift(shifted)
    column0 = column - 1
    return Hex(column0, row - 1 - _column_offset(column0, shifted))


@dataclass(frozen=True)
class HexMap:
    """A printed map of ``columns`` × ``rows`` hexes labelled ``CCRR`` (up to 99 × 99).

    >>> m = HexMap(42, 30)
    >>> m.to_label(Hex(0, 0)), m.from_label("4230"), m.on_map(Hex(-1, 0))
    ('0101', Hex(q=41, r=9), False)
    >>> m.from_label("4301")
    Traceback (most recent call last):
    ...
    ValueError: hex 4301 is off this 42×30 map
    """

    columns: int
    rows: int
    shifted: Shift = "even"

    def __post_init__(self) -> None:
        for what, n in (("columns", self.columns), ("rows", self.rows)):
            # Labels give the column and the row two digits each.
            if not 1 <= n <= 99:
                raise ValueError(f"a labelled hex map has 1 to 99 {what}, not {n}")
        _check_shift(self.shifted)

    def on_map(self, h: Hex) -> bool:
        column, row = to_offset(h, self.shifted)
        return 1 <= column <= self.columns and 1 <= row <= self.rows

    def to_label(self, h: Hex) -> str:
        """``"0412"`` for the hex in column 4, row 12; ValueError off the map."""
        if not self.on_map(h):
            raise ValueError(f"{h!r} is off this {self.columns}×{self.rows} map")
        column, row = to_offset(h, self.shifted)
        return f"{column:02d}{row:02d}"

    def from_label(self, label: str) -> Hex:
        """The hex labelled ``CCRR``; ValueError naming the label if it is not one or is
        off the map."""
        h = _labels(self.columns, self.rows, self.shifted).get(label)
        if h is not None:
            return h
        match = _LABEL.match(label.strip())
        if not match:
            raise ValueError(f"not a hex label (four digits, column then row): {label!r}")
        h = from_offset(int(match.group(1)), int(match.group(2)), self.shifted)
        if not self.on_map(h):
            raise ValueError(f"hex {label.strip()} is off this {self.columns}×{self.rows} map")
        return h

    def is_label(self, label: str) -> bool:
        try:
            self.from_label(label)
        except ValueError:
            return False
        return True

    def hexes(self) -> list[Hex]:
        """Every hex on the map, in label order (column by column, top to bottom)."""
        return [
            from_offset(column, row, self.shifted)
            for column in range(1, self.columns + 1)
            for row in range(1, self.rows + 1)
        ]


@functools.lru_cache(maxsize=32)
def _labels(columns: int, rows: int, shifted: Shift) -> dict[str, Hex]:
    """Every label of a map and its hex: the rules read labels at every move, and the audit
    at every move it rules on again. The whole map at once (at most 99 × 99), so that how
    long a label takes to read does not depend on which labels were read before."""
    return {
        f"{column:02d}{row:02d}": from_offset(column, row, shifted)
        for column in range(1, columns + 1)
        for row in range(1, rows + 1)
    }


# --- drawing --------------------------------------------------------------------------------

_SQRT3 = math.sqrt(3)


def center(h: Hex) -> XY:
    """The hex's centre in drawing units (hex size 1, centre to corner), x to the right and
    y down the map as on a web page; ``Hex(0, 0)`` (hex 0101) is at the origin.

    >>> center(Hex(0, 0)), center(Hex(2, -1))
    ((0.0, 0.0), (3.0, 0.0))
    """
    return 1.5 * h.q, _SQRT3 * (h.r + h.q / 2)


def corners(h: Hex) -> list[XY]:
    """The six corners of the flat-topped hex, clockwise from the right-hand one."""
    x, y = center(h)
    return [
        (x + math.cos(math.radians(60 * i)), y + math.sin(math.radians(60 * i))) for i in range(6)
    ]
