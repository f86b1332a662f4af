"""When a standing order fires: the first moment, along an enemy move, that its trigger
happens (issue 14). Pure geometry over what ghillie holds — the firers' places, the movers'
paths — so the same move, the same orders and the same ground always fire the same order
at the same point, and an order that does not fire leaves no trace.

Nor does the time it took (issue 24, TRUST.md §3.7 "Time is a channel"). Every trigger is
a union of capsules (``geometry.capsules``) met analytically, and every order is worked out
in exactly the same way — whatever its reaction, zone, distance or class, whether its unit
may fire now, and up to a number of orders fixed by public data, with blank orders making
up the count — and only then are those that may not fire set aside. So the work a move
costs is set by the movers' paths, the ground and the public count alone.

What each trigger is, as its owner's words state it (``words.order_words``):

* **Challenge Fire** (BMF-R01, A04): the first point where the mover is both in the zone
  and on exposed ground. With ``bmf.challenge_requires_zone`` off, an order with no zone
  takes the first exposed point within its distance of the firer, or 1250 m.
* **Ambush Fire** (BMF-R08): the first point in its zone *or* within its distance (or, with
  neither, anywhere: "within range") that is within 1250 m of the firer.
* **Ambush Close Combat** (BMF-R15): the first point in its zone or within its distance —
  with neither, within its reach (half its running distance, given by the caller as
  ``within``); the dash then says whether the attacker gets there (R19).

Only a mover of the order's class counts, if it names one; a concealed mover is seen only
on its exposed stretches (BMF S2), so no order fires at it while it is in concealing
ground.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .geometry import AMBUSH_FIRE_RANGE, ChallengeZone, Crossing, Ground, capsules, point_along

XY = tuple[float, float]
# A zone has at most 20 points (``commands.Trigger``): a street of 20 is 19 capsules, and
# every order is worked out with that many zone capsules and one disc round its firer.
ZONE_POINTS = 20
ROWS = ZONE_POINTS  # 19 for the zone, 1 for the distance
NEVER = np.inf


@dataclass(frozen=True)
class Order:
    """A standing order as the referee reads it (its secret facts). ``ready``: its unit may
    take it now (there, eligible, no missile of its own in flight, a kind that fires now);
    an order that is not ready is worked out all the same and then set aside."""

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
    ready: bool = True


# What makes up the count: an order that can never fire, worked out like any other.
BLANK = Order("", 0, "challenge", (0.0, 0.0), ready=False)


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


Row = tuple[XY, XY, float]


def _rows(order: Order) -> tuple[list[Row], list[bool]]:
    """The order's trigger as :data:`ROWS` capsules, and which of them are its own (the
    rest are blanks, worked out and set aside)."""
    rows: list[Row] = []
    found = zone(order.zone, order.radius) if order.zone else None
    if found is not None and found.kind == "point":
        rows.append((found.points[0], found.points[0], found.radius))
    elif found is not None:
        rows += [(a, b, found.radius) for a, b in zip(found.points, found.points[1:], strict=False)]
    own = [True] * len(rows)
    blank: Row = (order.firer, order.firer, 0.0)
    rows += [blank] * (ROWS - 1 - len(rows))
    own += [False] * (ROWS - 1 - len(own))
    reach = _reach(order, found is not None)
    rows.append((order.firer, order.firer, reach or 0.0))
    own.append(reach is not None)
    return rows, own


def _reach(order: Order, zoned: bool) -> float | None:
    """The disc round the firer its trigger holds, if any (see the module's notes)."""
    if order.reaction == "challenge":
        if zoned or order.needs_zone:
            return None
        return order.within if order.within is not None else AMBUSH_FIRE_RANGE
    if order.within is not None:
        return order.within
    if order.reaction == "ambush" and not zoned:
        return AMBUSH_FIRE_RANGE  # "at the first enemy unit within range"
    return None  # a close combat's reach comes as its ``within`` (``movement``)


@dataclass(frozen=True)
class Sweep:
    """Where each order's trigger first comes along each mover's path (``along``: metres,
    ``inf`` if never; orders by rows, movers by columns), for choosing the order that fires
    (:meth:`first`), again after an order has gone (an ATGM's unseen launch)."""

    orders: tuple[Order, ...]
    movers: tuple[Mover, ...]
    along: NDArray[np.float64]

    def first(self, ready: Collection[str] | None = None) -> Fired | None:
        """The order that fires first (the movers go together, at one pace: the least way
        along wins; then the order given earlier), among those ``ready`` (their ids; every
        ready order if None), or None."""
        if not self.movers:
            return None
        shape = self.along.shape
        may = np.array(
            [o.ready and (ready is None or o.id in ready) for o in self.orders], dtype=bool
        )
        kind = np.array(
            [[o.target_class is None or o.target_class == m.unit_class for m in self.movers]
             for o in self.orders],
            dtype=bool,
        ).reshape(shape)  # fmt: skip
        along = np.where(may[:, None] & kind, self.along, NEVER)
        numbers = np.broadcast_to(np.array([o.number for o in self.orders])[:, None], shape)
        rows = np.broadcast_to(np.arange(shape[0])[:, None], shape)
        columns = np.broadcast_to(np.arange(shape[1])[None, :], shape)
        best = np.lexsort((columns.ravel(), rows.ravel(), numbers.ravel(), along.ravel()))[0]
        row, column = divmod(int(best), shape[1])
        if not np.isfinite(along[row, column]):
            return None
        order, mover = self.orders[row], self.movers[column]
        at = float(along[row, column])
        return Fired(order.id, mover.id, at, point_along(mover.path, at))

    def crossing(self, order: int, mover: int) -> Crossing | None:
        """Where order ``order`` (by position) first comes along mover ``mover``'s path,
        whatever its class or readiness."""
        at = float(self.along[order, mover])
        if not np.isfinite(at):
            return None
        return Crossing(at, point_along(self.movers[mover].path, at))


def sweep(
    orders: Sequence[Order], movers: Sequence[Mover], ground: Ground, count: int = 0
) -> Sweep:
    """Every order's trigger along every mover's path, worked out alike: ``count`` orders at
    least (public data: blank ones make up the number), each as :data:`ROWS` capsules."""
    slots = (*orders, *[BLANK] * max(0, count - len(orders)))
    rows: list[Row] = []
    own: list[list[bool]] = []
    for order in slots:
        mine, flags = _rows(order)
        rows += mine
        own.append(flags)
    shapes = capsules.Capsules.of(rows)
    firers = [(o.firer, o.firer, AMBUSH_FIRE_RANGE) for o in slots]
    ranges = capsules.Capsules.of(firers)
    valid = np.array(own, dtype=bool).reshape(len(slots), ROWS, 1)
    ranged = np.array([o.reaction == "ambush" for o in slots], dtype=bool)
    shown = np.array([o.reaction == "challenge" for o in slots], dtype=bool)
    along = np.full((len(slots), len(movers)), NEVER)
    for column, mover in enumerate(movers):
        seen, anywhere = _first(shapes, ranges, valid, ranged, mover, ground)
        only_exposed = shown | mover.concealed
        along[:, column] = np.where(only_exposed, seen, anywhere)
    return Sweep(tuple(slots), tuple(movers), along)


def _first(
    shapes: capsules.Capsules,
    ranges: capsules.Capsules,
    valid: NDArray[np.bool_],
    ranged: NDArray[np.bool_],
    mover: Mover,
    ground: Ground,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """For each order, how far along the mover's path its trigger first comes: on exposed
    ground, and anywhere (``inf``: never)."""
    cut = ground.cut(mover.path)
    segments = cut.segments
    slots, count = len(ranged), len(segments)
    met = capsules.meet(segments, shapes)
    reach = capsules.meet(segments, ranges)
    # Ambush Fire's 1250 m bounds every capsule of its order; the others are not bounded.
    spread = [np.repeat(field, ROWS, axis=0) for field in reach]
    limit = ranged.repeat(ROWS)[:, None]
    both = met & capsules.Meeting(*spread)
    bounded = capsules.Meeting(*(np.where(limit, b, m) for b, m in zip(both, met, strict=True)))
    first, last, inside = bounded.entries(segments.length)
    start = segments.along[None, :] + first
    end = segments.along[None, :] + last
    inside &= valid.reshape(slots * ROWS, 1)
    anywhere = np.where(inside, start, NEVER)
    # On exposed ground: the first exposed point at or after ``start`` and up to ``end``.
    stretches = cut.exposed()
    opens = np.array([s.start for s in stretches] + [NEVER])
    closes = np.array([s.end for s in stretches] + [NEVER])
    k = np.searchsorted(closes, start, side="left")
    seen_at = np.maximum(start, opens[k])
    seen = np.where(inside & (seen_at <= end), seen_at, NEVER)
    per_order = (slots, ROWS * count)
    return seen.reshape(per_order).min(axis=1), anywhere.reshape(per_order).min(axis=1)


def when(order: Order, mover: Mover, ground: Ground) -> Crossing | None:
    """Where along the mover's path this order's trigger happens, if it does (for one
    order and one mover: see the module's notes). Only a mover of the order's class
    counts."""
    if order.target_class is not None and mover.unit_class != order.target_class:
        return None
    return sweep([order], [mover], ground).crossing(0, 0)


def first_fired(orders: Sequence[Order], movers: Sequence[Mover], ground: Ground) -> Fired | None:
    """The order that fires first during a move (the movers go together, at one pace: the
    least way along wins; then the order given earlier), or None."""
    return sweep(orders, movers, ground).first()


def column(movers: Mapping[str, Mover], lead: str) -> list[str]:
    """BMF-R06, A19: the rest of the column behind ``lead``, who stop when it is destroyed:
    the other movers of this move (units of one formation moving nose to tail)."""
    return [key for key in movers if key != lead]
