"""Measurements through one interface, whether players measure or ghillie does.

In table mode players measure on the real table and enter range, cover and line of sight
with the command (RULES-SPEC §6.5: the event records who asserted them). In map mode ghillie
computes them from positions on its own map and refuses entered values, so that a map game
cannot be steered by a typed-in number. Rules ask a :class:`Measure` and do not care which.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TypeVar

from pydantic import Field

from ghillie.bounds import Bounded
from ghillie.errors import MEASURED_BY_MAP, MEASUREMENT_REQUIRED, Refusal
from ghillie.measure.tabletop import XY, Cover, Tabletop
from ghillie.state import Facts, Piece
from ghillie.words import N_

T = TypeVar("T")

__all__ = ["XY", "Cover", "MapMeasure", "Measure", "Measured", "TableMeasure"]


class Measured(Bounded):
    """Values measured at a physical table and entered with a command (table mode)."""

    range: float | None = Field(default=None, ge=0, le=1000, description="inches")
    cover: Cover | None = None
    line_of_sight: bool | None = None

    def any(self) -> bool:
        return any(v is not None for v in self.model_dump().values())


class Measure(ABC):
    @abstractmethod
    def range(self, a: Piece, b: Piece) -> float:
        """Range in inches from ``a`` to ``b``."""

    @abstractmethod
    def cover(self, target: Piece) -> Cover:
        """The cover ``target`` lies in."""

    @abstractmethod
    def line_of_sight(self, a: Piece, b: Piece) -> bool:
        """Can ``a`` see ``b``?"""

    @abstractmethod
    def asserted(self) -> Facts:
        """What the event records about where these measurements came from."""


def _need(value: T | None, detail: str) -> T:
    """``value``, or a refusal asking for it (``detail``: a fixed sentence, N_)."""
    if value is None:
        raise Refusal(MEASUREMENT_REQUIRED, detail)
    return value


class TableMeasure(Measure):
    def __init__(self, entered: Measured | None, by: str) -> None:
        self.entered = entered or Measured()
        self.by = by

    def range(self, a: Piece, b: Piece) -> float:
        return _need(self.entered.range, N_("Measure the range at the table and enter it."))

    def cover(self, target: Piece) -> Cover:
        return _need(self.entered.cover, N_("Measure the cover at the table and enter it."))

    def line_of_sight(self, a: Piece, b: Piece) -> bool:
        return _need(
            self.entered.line_of_sight,
            N_("Measure the line of sight at the table and enter it."),
        )

    def asserted(self) -> Facts:
        return {"measured_by": self.by, **self.entered.model_dump(mode="json", exclude_none=True)}


class MapMeasure(Measure):
    """Computed from positions. ``points(piece)`` gives the piece's model positions (or its
    marker's point); range is the shortest between points that see each other."""

    def __init__(self, table: Tabletop, points: Callable[[Piece], Sequence[XY]]) -> None:
        self.table = table
        self.points = points

    def _pairs(self, a: Piece, b: Piece) -> list[tuple[XY, XY]]:
        return [(p, q) for p in self.points(a) for q in self.points(b)]

    def range(self, a: Piece, b: Piece) -> float:
        pairs = self._pairs(a, b)
        seeing = [pair for pair in pairs if self.table.line_of_sight(*pair)] or pairs
        return min(math.dist(p, q) for p, q in seeing)

    def cover(self, target: Piece) -> Cover:
        # A unit is in the best cover that at least half of its models are in.
        points = self.points(target)
        covers = sorted((self.table.cover_at(p) for p in points), key=list(Cover).index)
        return covers[len(covers) // 2]

    def line_of_sight(self, a: Piece, b: Piece) -> bool:
        return any(self.table.line_of_sight(p, q) for p, q in self._pairs(a, b))

    def asserted(self) -> Facts:
        return {"measured_by": "map"}


def refuse_entered_on_map(entered: Measured | None) -> None:
    if entered is not None and entered.any():
        raise Refusal(
            MEASURED_BY_MAP, "This game is on a map: ghillie measures, nothing is entered."
        )
