"""A square grid over the table with references like ``D2`` (RULES-SPEC DWV-R03, A02-A04).

Columns are lettered A, B, … (then AA, AB, … on a very long table), rows numbered 1, 2, ….
A square is half-open, ``[x0, x1) × [y0, y1)``, except that the far table edges belong to
the last column and row, so every point on the table lies in exactly one square.
"""

from __future__ import annotations

import math
import re
import string
from dataclasses import dataclass

from shapely.geometry import Polygon, box

XY = tuple[float, float]
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

    ``along_x``: columns run along the x axis (the table's width) — False turns the grid so
    columns run along the depth. ``rows_from_near``: row 1 is at y = 0 (the near edge).
    ``partial``: part-squares at the far edges are squares too (DWV-A02).

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
        whole = math.floor(length / self.size + 1e-9)
        return math.ceil(length / self.size - 1e-9) if self.partial else whole

    @property
    def columns(self) -> int:
        return self._count(self.width if self.along_x else self.depth)

    @property
    def rows(self) -> int:
        return self._count(self.depth if self.along_x else self.width)

    def refs(self) -> list[str]:
        return [
            f"{column_letters(c)}{r + 1}" for c in range(self.columns) for r in range(self.rows)
        ]

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

    def bounds(self, ref: str) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) in table inches."""
        col, row = self.parse(ref)
        along = self.width if self.along_x else self.depth
        across = self.depth if self.along_x else self.width
        a0, a1 = col * self.size, min((col + 1) * self.size, along)
        b0, b1 = row * self.size, min((row + 1) * self.size, across)
        if not self.rows_from_near:
            b0, b1 = across - b1, across - b0
        if self.along_x:
            return (float(a0), float(b0), float(a1), float(b1))
        return (float(b0), float(a0), float(b1), float(a1))

    def polygon(self, ref: str) -> Polygon:
        return box(*self.bounds(ref))

    def ref_at(self, point: XY) -> str | None:
        """The square a point lies in; None off the table (or in a part-square not used)."""
        x, y = point
        if not (0 <= x <= self.width and 0 <= y <= self.depth):
            return None
        along, across = (x, y) if self.along_x else (y, x)
        along_len, across_len = (
            (self.width, self.depth) if self.along_x else (self.depth, self.width)
        )
        if not self.rows_from_near:
            across = across_len - across
        col = self._index(along, along_len, self.columns)
        row = self._index(across, across_len, self.rows)
        if col is None or row is None:
            return None
        return f"{column_letters(col)}{row + 1}"

    def _index(self, at: float, length: float, count: int) -> int | None:
        index = int(at // self.size)
        if index == count and at >= length - 1e-9:
            index -= 1  # the far table edge belongs to the last square
        return index if 0 <= index < count else None
