"""Setting up a revealed ambush (RULES-SPEC DWV-R08, A08, A09; test case DWV-T06).

The owner sets the unit up: a position for each model, or none for a model that cannot be
set up anywhere. ghillie checks the set-up and never trims it. :func:`check` answers with a
:class:`Slip` (the first thing wrong, and which model it concerns) or with the
:class:`Setup`: the models that stand, and why each model left out cannot be set up. A set-up
stands when

1. every model given a position stands on the table, in jungle or woods, at least 1" from
   every enemy model, and not on another model's base;
2. at least one of them is in the recorded square (the first model set up);
3. they are one unit in squad coherency: each within 2" of another (base to base), all
   joined in one group;
4. at least half of them are in the recorded square (rounded up, DWV-A08);
5. no model left out could be set up: there is no position for it that keeps 1-4 with the
   others as they stand. If no model at all can be set up in the square, the whole unit is
   lost (DWV-A09).

Whether a position exists is worked out with shapely (the free ground a base centre may
take: jungle and woods, less the discs about enemy and other bases, within reach of the
unit, in the square if the half rule needs it); every position found is then checked
exactly, point by point, like a position the owner gives. Room narrower than
:data:`SLACK` does not count.

At a physical table (:func:`check_counted`) the players set the models up and say which
could not be; ghillie checks the counts for the first model and the half rule.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from shapely.geometry import Point, Polygon, box
from shapely.ops import unary_union

from ghillie.measure.tabletop import XY, Tabletop

from .scenario import WOODED, Rounding

COHERENCY = 2.0  # inches, base to base (3rd edition)
ENEMY_GAP = 1.0  # inches, base to base (DWV-R08)
SLACK = 0.02  # inches: room for a base centre narrower than this is no room
_ARC = 32  # segments per quarter circle in the discs (an error of under 0.005")
_EPS = 1e-9


class Fault(StrEnum):
    """What is wrong with a proposed set-up (a slip the owner is asked to put right)."""

    OFF_TABLE = "off_table"
    NOT_WOODED = "not_wooded"
    NEAR_ENEMY = "near_enemy"
    ON_A_BASE = "on_a_base"
    NONE_IN_SQUARE = "none_in_square"
    NOT_COHERENT = "not_coherent"
    TOO_FEW_IN_SQUARE = "too_few_in_square"
    HAS_ROOM = "has_room"  # a model left out could be set up


class Loss(StrEnum):
    """Why a model cannot be set up, and so is removed as a casualty; stable words."""

    NO_FIRST_MODEL = "no model could be set up first in the recorded square"
    NO_ROOM = "no room left to set it up"
    TOO_MANY_OUTSIDE = "fewer than half the unit would be in the recorded square"
    NOT_SET_UP = "its owner could not set it up"  # at a physical table, as the owner says


@dataclass(frozen=True)
class Slip:
    """The first thing wrong with a set-up. ``model`` is the model it concerns (None: the
    unit as a whole); ``room`` a legal position for that model, if ghillie found one."""

    fault: Fault
    model: int | None = None
    room: XY | None = None
    inside: int = 0  # TOO_FEW_IN_SQUARE: models set up in the square, of ``total``
    total: int = 0
    need: int = 0


@dataclass(frozen=True)
class Setup:
    """A set-up that stands: the models set up, and why each other model cannot be."""

    placed: tuple[int, ...]
    casualties: dict[int, Loss] = field(default_factory=dict)


@dataclass(frozen=True)
class Ground:
    """Where a unit is being set up: the table and its terrain, the recorded square, the
    models already standing (``enemies``, and ``friends``: the owner's other models, whose
    bases it may not stand on), its base size and the switches that bear on it.

    ``in_square`` decides exactly whether a base centre counts as in the square (DWV-A04);
    ``square`` is the same area as a shape, for finding room only.
    """

    table: Tabletop
    in_square: Callable[[XY], bool]
    square: Any  # a shapely geometry
    enemies: Sequence[tuple[XY, float]] = ()
    friends: Sequence[tuple[XY, float]] = ()
    base_radius: float = 0.5
    rounding: Rounding = Rounding.UP
    wooded: bool = True  # False only under dwv.first_model = any_terrain, when no first model fits

    @cached_property
    def free(self) -> Any:
        """Where a base centre may stand before any model of the unit is set up."""
        area = box(0, 0, self.table.width, self.table.depth)
        if self.wooded:
            woods = [t.shape for t in self.table.terrain if t.kind in WOODED]
            area = area.intersection(unary_union(woods)) if woods else Polygon()
        r = self.base_radius
        taken = [_disc(at, r + other + ENEMY_GAP) for at, other in self.enemies]
        taken += [_disc(at, r + other) for at, other in self.friends]
        return area.difference(unary_union(taken)) if taken else area


def need_in_square(total: int, rounding: Rounding) -> int:
    """How many of ``total`` models set up must stand in the recorded square (DWV-A08)."""
    return math.ceil(total / 2) if rounding is Rounding.UP else total // 2


def half_allows(inside: int, outside: int, rounding: Rounding) -> bool:
    return inside >= need_in_square(inside + outside, rounding)


def fault_at(point: XY, ground: Ground, unit: Sequence[XY] = ()) -> Fault | None:
    """What keeps a model from standing at ``point`` by itself (DWV-R08 b, c; the table;
    no base on another), ``unit`` being the positions of its unit's models set up already."""
    r = ground.base_radius
    if not ground.table.on_table(point):
        return Fault.OFF_TABLE
    if ground.wooded and not ground.table.in_kind(point, WOODED):
        return Fault.NOT_WOODED
    if any(math.dist(point, e) - r - other < ENEMY_GAP - _EPS for e, other in ground.enemies):
        return Fault.NEAR_ENEMY
    occupied = [*ground.friends, *((q, r) for q in unit)]
    if any(math.dist(point, q) < r + other - _EPS for q, other in occupied):
        return Fault.ON_A_BASE
    return None


def room(unit: Sequence[XY], ground: Ground, *, in_square: bool = False) -> XY | None:
    """A legal position for one more model of a unit whose models stand at ``unit``: in
    coherency with them, or in the square for the first model (or if ``in_square``); None if
    there is none. Positions are tried rounded to a tenth of an inch first."""
    r = ground.base_radius
    area = ground.free
    if unit:
        area = area.difference(unary_union([_disc(q, 2 * r) for q in unit]))
        area = area.intersection(unary_union([_disc(q, COHERENCY + 2 * r) for q in unit]))
    if in_square or not unit:
        area = area.intersection(ground.square)
    for slack in (0.1, SLACK):
        core = area.buffer(-slack) if not area.is_empty else area
        if core.is_empty:
            continue
        pieces = sorted(getattr(core, "geoms", [core]), key=lambda g: (-g.area, g.bounds))
        for piece in pieces:
            for shape_point in (piece.representative_point(), piece.centroid):
                exact = (float(shape_point.x), float(shape_point.y))
                for point in ((round(exact[0], 1), round(exact[1], 1)), exact):
                    if _fits(point, unit, ground, in_square or not unit):
                        return point
    return None


def _fits(point: XY, unit: Sequence[XY], ground: Ground, in_square: bool) -> bool:
    if fault_at(point, ground, unit) is not None:
        return False
    if in_square and not ground.in_square(point):
        return False
    reach = COHERENCY + 2 * ground.base_radius
    return not unit or any(math.dist(point, q) <= reach + _EPS for q in unit)


def check(proposed: Sequence[XY | None], ground: Ground) -> Setup | Slip:
    """Does this set-up stand (see the module's docstring)? The first slip found, or the
    models that stand and why each of the others cannot be set up."""
    placed: list[int] = []
    for i, point in enumerate(proposed):
        if point is None:
            continue
        standing = [_at(proposed, j) for j in placed]
        fault = fault_at(point, ground, standing)
        if fault is not None:
            return Slip(fault, i, room(standing, ground))
        placed.append(i)
    if not placed:
        first = room((), ground)
        if first is not None:
            return Slip(Fault.HAS_ROOM, 0, first)
        return Setup((), dict.fromkeys(range(len(proposed)), Loss.NO_FIRST_MODEL))
    inside = [i for i in placed if ground.in_square(_at(proposed, i))]
    if not inside:
        return Slip(Fault.NONE_IN_SQUARE, placed[0], room((), ground))

    groups = _groups(placed, proposed, ground.base_radius)
    if len(groups) > 1:
        # The group that holds a model in the square and the most models is the unit; the
        # first model outside it is the one named.
        main = max((g for g in groups if g & set(inside)), key=len)
        stray = min(i for i in placed if i not in main)
        group = [_at(proposed, j) for j in sorted(main)]
        return Slip(Fault.NOT_COHERENT, stray, room(group, ground))

    outside = len(placed) - len(inside)
    if not half_allows(len(inside), outside, ground.rounding):
        total = len(placed)
        return Slip(
            Fault.TOO_FEW_IN_SQUARE,
            inside=len(inside),
            total=total,
            need=need_in_square(total, ground.rounding),
        )
    left_out = [j for j, point in enumerate(proposed) if point is None]
    if not left_out:
        return Setup(tuple(placed))
    standing = [_at(proposed, j) for j in placed]
    only_inside = not half_allows(len(inside), outside + 1, ground.rounding)
    spot = room(standing, ground, in_square=only_inside)
    if spot is not None:
        return Slip(Fault.HAS_ROOM, left_out[0], spot)
    why = Loss.NO_ROOM
    if only_inside and room(standing, ground) is not None:
        why = Loss.TOO_MANY_OUTSIDE  # there is room, but only outside the square
    return Setup(tuple(placed), dict.fromkeys(left_out, why))


def plan(size: int, ground: Ground) -> list[XY | None]:
    """A set-up that stands, found model by model: each where :func:`room` finds room (for
    candidates and tests; a player chooses their own positions)."""
    out: list[XY | None] = [None] * size
    standing: list[XY] = []
    inside = 0
    for i in range(size):
        only_inside = not half_allows(inside, len(standing) - inside + 1, ground.rounding)
        spot = room(standing, ground, in_square=only_inside)
        if spot is None:
            break  # the same for every model of the unit: nothing more fits
        out[i] = spot
        standing.append(spot)
        inside += ground.in_square(spot)
    return out


def check_counted(
    size: int, casualties: Sequence[int], in_square: int | None, rounding: Rounding
) -> Setup | Slip:
    """At a physical table: the players set up every model but ``casualties``, the models
    they agree cannot be set up, and ``in_square`` of those stand in the recorded square.
    The caller has checked that ``casualties`` are models of the unit, each named once, and
    that ``in_square`` is a count that can be true."""
    lost = set(casualties)
    placed = tuple(i for i in range(size) if i not in lost)
    if not placed:
        return Setup((), dict.fromkeys(range(size), Loss.NO_FIRST_MODEL))
    if not in_square:
        return Slip(Fault.NONE_IN_SQUARE)
    if not half_allows(in_square, len(placed) - in_square, rounding):
        total = len(placed)
        need = need_in_square(total, rounding)
        return Slip(Fault.TOO_FEW_IN_SQUARE, inside=in_square, total=total, need=need)
    return Setup(placed, dict.fromkeys(sorted(lost), Loss.NOT_SET_UP))


def _disc(at: XY, radius: float) -> Any:
    return Point(at).buffer(radius, quad_segs=_ARC)


def _at(proposed: Sequence[XY | None], i: int) -> XY:
    point = proposed[i]
    assert point is not None
    return point


def _groups(members: Sequence[int], proposed: Sequence[XY | None], r: float) -> list[set[int]]:
    """The models in groups linked through chains within coherency distance."""
    reach = COHERENCY + 2 * r
    groups: list[set[int]] = []
    for start in members:
        if any(start in g for g in groups):
            continue
        joined, frontier = {start}, [start]
        while frontier:
            here = _at(proposed, frontier.pop())
            for i in members:
                if i not in joined and math.dist(here, _at(proposed, i)) <= reach + _EPS:
                    joined.add(i)
                    frontier.append(i)
        groups.append(joined)
    return groups
