"""When a standing order fires: the first moment, along an enemy move, that its trigger
happens (issue 14). Pure geometry over what ghillie holds — the firers' places, the movers'
paths — so the same move, the same orders and the same ground always fire the same order
at the same point, and an order that does not fire leaves no trace."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .geometry import (
    AMBUSH_FIRE_RANGE,
    ChallengeZone,
    Crossing,
    Ground,
    between,
    challenge_point,
    distance,
    first_crossing,
    in_ambush_range,
    path_length,
    point_along,
)

XY = tuple[float, float]
STEP = 1.0  # metres: how finely a path is walked for a "within" trigger


@dataclass(frozen=True)
class Order:
    """A standing order as the referee reads it (its secret facts)."""

    id: str
    number: int  # orders given earlier win a tie
    reaction: str  # challenge, ambush, close_combat
    firer: XY
    zone: tuple[XY, ...] = ()
    radius: float = 0.0
    within: float | None = None
    target_class: str | None = None
    # BMF-A04: Challenge Fire only at a zone (``bmf.challenge_requires_zone``); off, an
    # order with no zone takes the first exposed point within ``within`` (or 1250 m).
    needs_zone: bool = True


@dataclass(frozen=True)
class Mover:
    """An enemy unit moving now, with its path in metres (its start first)."""

    id: str
    unit_class: str
    path: tuple[XY, ...]
    concealed: bool = False  # seen only on its exposed stretches (BMF S2)


@dataclass(frozen=True)
class Fired:
    order: str
    target: str
    along: float  # metres along the target's path
    point: XY


def _zone(order: Order) -> ChallengeZone | None:
    return zone(order.zone, order.radius)


def zone(points: Sequence[XY], radius: float) -> ChallengeZone | None:
    """An order's zone as the rules read it: a point (with its radius), a gap (two points,
    no radius) or a street; None for no zone. ValueError if it is none of them (a gap of
    one place twice): the order giving it is refused (``setup.standing_order``)."""
    if not points:
        return None
    if len(points) == 1:
        return ChallengeZone.point(points[0], max(radius, 1.0))
    if len(points) == 2 and not radius:
        return ChallengeZone.gap(points[0], points[1])
    return ChallengeZone.street(points, radius)


def _within(order: Order, mover: Mover) -> Crossing | None:
    """The first point of the path within ``order.within`` metres of the firer."""
    assert order.within is not None
    length = path_length(mover.path)
    along = 0.0
    while along <= length:
        point = point_along(mover.path, along)
        if distance(point, order.firer) <= order.within:
            return Crossing(along, point)
        along += STEP
    return None


def when(order: Order, mover: Mover, ground: Ground) -> Crossing | None:
    """Where along the mover's path this order's trigger happens, if it does.

    A Challenge Fire order fires where the mover is both in its zone and exposed between
    concealed positions (BMF-R01, A04). An Ambush Fire order fires at the first point in
    its zone, or within its distance, that is within Ambush Fire range (BMF-R08); an
    Ambush Close Combat order at the first point within its distance (the dash then says
    whether the attacker reaches it: BMF-R15, R19). Only a mover of the order's target
    class counts. A concealed mover is seen only on its exposed stretches (BMF S2): no
    order fires at it while it is in concealing ground."""
    if order.target_class is not None and mover.unit_class != order.target_class:
        return None
    zone = _zone(order)
    if order.reaction == "challenge":
        if zone is not None:
            return challenge_point(mover.path, zone, ground)
        return None if order.needs_zone else _exposed_within(order, mover, ground)
    if not mover.concealed:
        return _ambush_point(order, zone, mover)
    for stretch in ground.exposed_stretches(mover.path):
        part = Mover(mover.id, mover.unit_class, tuple(between(mover.path, *stretch)))
        found = _ambush_point(order, zone, part)
        if found is not None:
            along = stretch.start + found.distance
            return Crossing(along, point_along(mover.path, along))
    return None


def _exposed_within(order: Order, mover: Mover, ground: Ground) -> Crossing | None:
    """BMF-A04's other reading: the first exposed point of the move within the order's
    distance of the firer, or within Ambush Fire's 1250 m if it gives none."""
    reach = order.within if order.within is not None else AMBUSH_FIRE_RANGE
    ranged = Order(order.id, order.number, order.reaction, order.firer, within=reach)
    for stretch in ground.exposed_stretches(mover.path):
        part = Mover(mover.id, mover.unit_class, tuple(between(mover.path, *stretch)))
        found = _within(ranged, part)
        if found is not None:
            along = stretch.start + found.distance
            return Crossing(along, point_along(mover.path, along))
    return None


def _ambush_point(order: Order, zone: ChallengeZone | None, mover: Mover) -> Crossing | None:
    crossing = first_crossing(mover.path, zone) if zone is not None else None
    if crossing is None and order.within is not None:
        crossing = _within(order, mover)
    if crossing is None:
        return None
    if order.reaction == "ambush" and not in_ambush_range(distance(crossing.point, order.firer)):
        return None
    return crossing


def first_fired(orders: Sequence[Order], movers: Sequence[Mover], ground: Ground) -> Fired | None:
    """The order that fires first during a move (the movers go together, at one pace: the
    least way along wins; then the order given earlier), or None."""
    best: tuple[float, int, Fired] | None = None
    for order in orders:
        for mover in movers:
            crossing = when(order, mover, ground)
            if crossing is None:
                continue
            found = Fired(order.id, mover.id, crossing.distance, crossing.point)
            key = (crossing.distance, order.number)
            if best is None or key < best[:2]:
                best = (*key, found)
    return best[2] if best is not None else None


def column(movers: Mapping[str, Mover], lead: str) -> list[str]:
    """BMF-R06, A19: the rest of the column behind ``lead``, who stop when it is destroyed:
    the other movers of this move (units of one formation moving nose to tail)."""
    return [key for key in movers if key != lead]
