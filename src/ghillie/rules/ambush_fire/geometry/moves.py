"""The moves the rules limit by measure: the ambushers' retreat and the close-combat dash."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ghillie.measure.tabletop import XY

from .ground import Ground, running_on
from .measures import (
    BLOCKED,
    EPS,
    IMPASSABLE,
    NOT_AWAY,
    OFF_GROUND,
    OPEN,
    RETREAT_LIMIT,
    TOO_FAR,
    TOO_LONG,
    checked_range,
)
from .paths import Path, coords, path_length, point_along

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
    points = coords([start, *path])
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
    return checked_range(range_m) <= reach(running_distance) + EPS


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
    return _run(start, target, running, ground, stop_at_impassable=True)


def reaches(start: XY, target: XY, running: float | Mapping[str, float], ground: Ground) -> bool:
    """BMF-R15, T08: is ``target`` within the reach of an Ambush Close Combat from
    ``start``, measured along the ground the dash crosses (each stretch at that ground's
    running distance: 20 m of woods costs what 40 m of open ground does for a unit that runs
    50 m in woods and 100 m in the open)? Impassable ground on the way does not put the
    target out of reach — the dash is blocked there (T08: "a human at 40 m whose path is
    blocked → failed contact"), which :func:`dash` tells; it is measured at the pace of the
    other ground it lies in (open ground if none).

    >>> from .ground import Area
    >>> wood = Area("the wood", "woods", ((0, 0), (20, 0), (20, 20), (0, 20)))
    >>> ground = Ground(200, 200, [wood])
    >>> reaches((0, 10), (40, 10), {"open": 100, "woods": 50}, ground)  # 20/50 + 20/100
    False
    >>> reaches((0, 10), (30, 10), {"open": 100, "woods": 50}, ground)  # 20/50 + 10/100
    True
    """
    return _run(start, target, running, ground, stop_at_impassable=False).contact


def spare_share(paces: Iterable[float]) -> float:
    """The share of a run that :data:`EPS` metres cost at the slowest of ``paces`` that is not
    standing still: a dash over by that much reaches (lengths within EPS count as equal)."""
    moving = [p for p in paces if p > 0]
    return EPS / min(moving) if moving else 0.0


def _run(
    start: XY,
    target: XY,
    running: float | Mapping[str, float],
    ground: Ground,
    *,
    stop_at_impassable: bool,
) -> Dash:
    table: Mapping[str, float] = running if isinstance(running, Mapping) else {OPEN: float(running)}
    uniform = not isinstance(running, Mapping)
    for value in table.values():
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"a running distance is a non-negative number, not {value}")
    points = coords([start, target])
    total = math.dist(start, target)
    if total == 0:
        return Dash(True, target, 0.0)
    left = 0.5  # the share of a run still to spend
    # Lengths within EPS count as equal, at the slowest pace the runner has: what a
    # micrometre there costs is forgiven on every stretch (``reach`` forgives the same).
    spare = spare_share(table.values())
    for piece in ground.pieces(points):
        if piece.blocked and stop_at_impassable:
            return Dash(False, point_along(points, piece.start), piece.start, BLOCKED)
        pace = table[OPEN] if uniform else running_on(piece.areas, table)
        length = piece.end - piece.start
        can = left * pace
        if length > can + max(EPS, spare * pace):
            stop = piece.start + can
            return Dash(False, point_along(points, stop), stop, TOO_FAR)
        left = max(0.0, left - length / pace) if pace > 0 else 0.0
    return Dash(True, target, total)
