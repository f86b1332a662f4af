"""A square grid over the table with references like ``D2`` (RULES-SPEC DWV-R03, A02-A04).

Columns are lettered A, B, … (then AA, AB, … on a very long table), rows numbered 1, 2, ….
In table coordinates a square is half-open, ``[x0, x1) × [y0, y1)``, except that the table's
far edges (x = width, y = depth) belong to the squares along them, so every point on the
table lies in exactly one square (DWV-A04) — whichever corner the numbering starts from.
"""

from __future__ import annotations

import itertools
import math
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from shapely.geometry import Polygon, box

XY = tuple[float, float]
Cell = tuple[float, float]  # (low, high) along one table axis, in inches
_REF = re.compile(r"^([A-Z]{1,2})([1-9][0-9]?)$")


def column_letters(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = string.ascii_uppercase[rest] + letters
    return letters


def column_index(letters: str) -> int:
    index = 0
    for ch in letters:
        index = index * 26 + (ord(ch) - ord("A") + 1)
    return index - 1


@dataclass(frozen=True)
class Grid:
    """Squares over a ``width`` × ``depth`` table.

    ``along_x``: columns run along the x axis (the table's width) and rows along y — False
    turns the grid so columns run along y and rows along x. ``rows_from_near``: row 1 is at
    the low end of the rows' axis (y = 0, the near edge, when ``along_x``); False numbers
    rows from the other end. Column A is always at the low end of its axis.
    ``partial``: part-squares at the far ends are squares too (DWV-A02); without them the
    strip beyond the last whole square is in no square.

    >>> g = Grid(60, 36)
    >>> g.refs()[:3], len(g.refs()), g.ref_at((40, 15)), g.bounds("D2")
    (['A1', 'A2', 'A3'], 15, 'D2', (36.0, 12.0, 48.0, 24.0))
    """

    width: float
    depth: float
    size: float = 12.0
    along_x: bool = True
    rows_from_near: bool = True
    partial: bool = True

    def _count(self, length: float) -> int:
        # A sliver thinner than a billionth of a square is measuring noise, not a square.
        whole = math.floor(length / self.size + 1e-9)
        return math.ceil(length / self.size - 1e-9) if self.partial else whole

    @property
    def columns(self) -> int:
        return self._count(self.width if self.along_x else self.depth)

    @property
    def rows(self) -> int:
        return self._count(self.depth if self.along_x else self.width)

    def refs(self) -> list[str]:
        return [self.format(c, r) for c in range(self.columns) for r in range(self.rows)]

    def format(self, col: int, row: int) -> str:
        """(column 3, row 1), zero-based → ``"D2"``; the inverse of :meth:`parse`."""
        return f"{column_letters(col)}{row + 1}"

    def parse(self, ref: str) -> tuple[int, int]:
        """``"D2"`` → (column 3, row 1), zero-based; ValueError if not on this grid."""
        match = _REF.match(ref.strip().upper())
        if not match:
            raise ValueError(f"not a grid reference: {ref!r}")
        col, row = column_index(match.group(1)), int(match.group(2)) - 1
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            raise ValueError(f"{ref} is off this table's grid")
        return col, row

    def is_ref(self, ref: str) -> bool:
        try:
            self.parse(ref)
        except ValueError:
            return False
        return True

    def canonical(self, ref: str) -> str:
        """The reference as the grid writes it (`` d2`` → ``D2``); ValueError if not on it."""
        return self.format(*self.parse(ref))

    def bounds(self, ref: str) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) in table inches."""
        return self.squares[self.canonical(ref)]

    @cached_property
    def squares(self) -> Mapping[str, tuple[float, float, float, float]]:
        """Every square's bounds, by reference, in :meth:`refs` order. Worked out once per
        grid (a grid never changes): every view of the map draws them all."""
        columns, rows = self._column_cells(), self._row_cells()
        out = {}
        for col, (a0, a1) in enumerate(columns):
            for row, (b0, b1) in enumerate(rows):
                x0, y0, x1, y1 = (a0, b0, a1, b1) if self.along_x else (b0, a0, b1, a1)
                out[self.format(col, row)] = (float(x0), float(y0), float(x1), float(y1))
        return MappingProxyType(out)

    def polygon(self, ref: str) -> Polygon:
        return box(*self.bounds(ref))

    def ref_at(self, point: XY) -> str | None:
        """The square a point lies in; None off the table (or in a part-square not used)."""
        x, y = point
        along, across = (x, y) if self.along_x else (y, x)
        along_len, across_len = (
            (self.width, self.depth) if self.along_x else (self.depth, self.width)
        )
        col = _find(along, self._column_cells(), along_len)
        row = _find(across, self._row_cells(), across_len)
        if col is None or row is None:
            return None
        return self.format(col, row)

    # Both bounds and ref_at read the same cells, so a point is always inside the bounds of
    # the square it is said to be in, even where float arithmetic rounds.

    def _column_cells(self) -> list[Cell]:
        return self._cells(self.width if self.along_x else self.depth, self.columns, False)

    def _row_cells(self) -> list[Cell]:
        length = self.depth if self.along_x else self.width
        return self._cells(length, self.rows, not self.rows_from_near)

    def _cells(self, length: float, count: int, from_far_end: bool) -> list[Cell]:
        """Each square's (low, high) along an axis of ``length``, in table coordinates."""
        if count == 0:
            return []
        end = length if self.partial else min(count * self.size, length)
        edges = [min(i * self.size, length) for i in range(count)] + [end]
        cells = list(itertools.pairwise(edges))
        if from_far_end:
            cells = [(length - high, length - low) for low, high in cells]
        return cells


def _find(at: float, cells: list[Cell], length: float) -> int | None:
    """The cell holding ``at``: low <= at < high, or ``at`` on the table's far edge."""
    for index, (low, high) in enumerate(cells):
        if low <= at < high or at == high == length:
            return index
    return None
