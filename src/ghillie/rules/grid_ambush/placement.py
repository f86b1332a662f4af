"""Setting up a revealed ambush (RULES-SPEC DWV-R08, A08, A09; test case DWV-T06).

The owner proposes a position for each model (or none, for a model that cannot be set up).
ghillie keeps the largest set the rule allows and removes the rest as casualties, saying why:

1. every model stands on the table, in jungle or woods, at least 1" from every enemy model,
   and not on another model's base;
2. the first model set up is in the recorded square (if none can be, the whole unit is lost,
   DWV-A09);
3. the unit is in squad coherency: each model within 2" of another (base to base), all
   joined to the first model (of several coherent groups with a model in the square, the
   one that keeps the most models stands; the others are out of coherency);
4. at least half the models set up are in the recorded square (rounded up, DWV-A08); models
   outside it beyond that are dropped, last-proposed first, keeping the rest coherent.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ghillie.measure.tabletop import XY, Tabletop

from .scenario import WOODED, Rounding

COHERENCY = 2.0  # inches, base to base (3rd edition)
ENEMY_GAP = 1.0  # inches, base to base (DWV-R08)

# Why a model was not set up; stable words shown to the owner.
OFF_TABLE = "off the table"
NOT_WOODED = "not in jungle or woods"
NEAR_ENEMY = 'within 1" of an enemy model'
ON_A_BASE = "on another model's base"
NO_FIRST_MODEL = "no model could be set up first in the recorded square"
NOT_COHERENT = "out of squad coherency"
TOO_MANY_OUTSIDE = "fewer than half the unit would be in the recorded square"
NOT_PLACED = "not set up by its owner"


@dataclass(frozen=True)
class Setup:
    placed: tuple[int, ...]
    casualties: dict[int, str] = field(default_factory=dict)


def half_allows(inside: int, outside: int, rounding: Rounding) -> bool:
    total = inside + outside
    need = math.ceil(total / 2) if rounding is Rounding.UP else total // 2
    return inside >= need


def set_up(
    proposed: Sequence[XY | None],
    *,
    table: Tabletop,
    in_square: Callable[[XY], bool],
    enemies: Sequence[tuple[XY, float]],
    base_radius: float,
    rounding: Rounding = Rounding.UP,
    wooded: bool = True,
    friends: Sequence[tuple[XY, float]] = (),
) -> Setup:
    """The models kept (indices into ``proposed``) and each casualty's reason. ``friends``
    are the owner's other models on the table: no base may stand on theirs."""
    casualties: dict[int, str] = {}
    valid: list[int] = []
    for i, point in enumerate(proposed):
        earlier = [(_at(proposed, j), base_radius) for j in valid]
        reason = _why_not(point, table, enemies, base_radius, wooded, [*friends, *earlier])
        if reason:
            casualties[i] = reason
        else:
            valid.append(i)
    firsts = [i for i in valid if in_square(_at(proposed, i))]
    if not firsts:
        return Setup((), {i: casualties.get(i, NO_FIRST_MODEL) for i in range(len(proposed))})

    # Every model set up joins the first one through coherency, so each coherent group with
    # a model in the square could be the unit. Keep the one that sets up the most models
    # (DWV-T06: "the largest valid subset"), the earliest-proposed breaking a tie.
    best: tuple[set[int], dict[int, str]] | None = None
    tried: set[int] = set()
    for first in firsts:
        if first in tried:
            continue
        tried |= _joined(first, valid, proposed, base_radius)
        kept, dropped = _half_in_square(first, valid, proposed, in_square, base_radius, rounding)
        if best is None or len(kept) > len(best[0]):
            best = (kept, dropped)
    assert best is not None
    kept, dropped = best
    for i in valid:
        if i not in kept:
            casualties[i] = dropped.get(i, NOT_COHERENT)
    return Setup(tuple(sorted(kept)), dict(sorted(casualties.items())))


def _half_in_square(
    first: int,
    valid: Sequence[int],
    proposed: Sequence[XY | None],
    in_square: Callable[[XY], bool],
    r: float,
    rounding: Rounding,
) -> tuple[set[int], dict[int, str]]:
    """The coherent group around ``first``, less the models outside the square that the
    half rule (DWV-R08 d, DWV-A08) cannot keep; and why each dropped model was dropped."""
    dropped: dict[int, str] = {}
    kept = _joined(first, valid, proposed, r)
    while True:
        inside = [i for i in kept if in_square(_at(proposed, i))]
        outside = [i for i in kept if i not in inside]
        if half_allows(len(inside), len(outside), rounding):
            return kept, dropped
        drop = _droppable(outside, kept, first, proposed, r)
        dropped[drop] = TOO_MANY_OUTSIDE
        remaining = [i for i in kept if i != drop]
        kept = _joined(first, remaining, proposed, r)
        for i in remaining:
            if i not in kept:
                dropped[i] = NOT_COHERENT


def _at(proposed: Sequence[XY | None], i: int) -> XY:
    point = proposed[i]
    assert point is not None
    return point


def _why_not(
    point: XY | None,
    table: Tabletop,
    enemies: Sequence[tuple[XY, float]],
    radius: float,
    wooded: bool,
    occupied: Sequence[tuple[XY, float]],
) -> str | None:
    if point is None:
        return NOT_PLACED
    if not table.on_table(point):
        return OFF_TABLE
    if wooded and not table.in_kind(point, WOODED):
        return NOT_WOODED
    if any(math.dist(point, e) - radius - r < ENEMY_GAP for e, r in enemies):
        return NEAR_ENEMY
    if any(math.dist(point, q) < radius + r - 1e-9 for q, r in occupied):
        return ON_A_BASE
    return None


def _joined(
    first: int, members: Sequence[int], proposed: Sequence[XY | None], r: float
) -> set[int]:
    """The models linked to ``first`` through chains within coherency distance."""
    reach = COHERENCY + 2 * r
    joined, frontier = {first}, [first]
    while frontier:
        here = _at(proposed, frontier.pop())
        for i in members:
            if i not in joined and math.dist(here, _at(proposed, i)) <= reach + 1e-9:
                joined.add(i)
                frontier.append(i)
    return joined


def _droppable(
    outside: list[int], kept: set[int], first: int, proposed: Sequence[XY | None], r: float
) -> int:
    """The last-proposed outside model whose removal keeps the others coherent."""
    for i in sorted(outside, reverse=True):
        rest = [j for j in kept if j != i]
        if _joined(first, rest, proposed, r) == set(rest):
            return i
    return max(outside)


def set_up_counted(size: int, placed: int, in_square: int, rounding: Rounding) -> Setup:
    """Table mode: the owner sets the models up on the real table and enters how many were
    set up and how many of those stand in the recorded square; ghillie applies the half
    rule and A09 to the counts."""
    placed = max(0, min(placed, size))
    in_square = max(0, min(in_square, placed))
    if in_square == 0:
        return Setup((), dict.fromkeys(range(size), NO_FIRST_MODEL))
    outside = placed - in_square
    while not half_allows(in_square, outside, rounding):
        outside -= 1
    kept = tuple(range(in_square + outside))
    casualties = {
        i: (TOO_MANY_OUTSIDE if i < placed else NOT_PLACED) for i in range(len(kept), size)
    }
    return Setup(kept, casualties)
