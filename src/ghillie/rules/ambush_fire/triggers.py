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
  and on exposed ground, if its move runs from one concealed position to another. With
  ``bmf.challenge_requires_zone`` off, an order with no zone takes the first exposed point
  within its distance of the firer, or 1250 m.
* **Ambush Fire** (BMF-R08): the first point in its zone *or* within its distance (or, with
  neither, anywhere: "within range") that is within 1250 m of the firer.
* **Ambush Close Combat** (BMF-R15): the first point in its zone or within its distance —
  with neither, within its reach (half its running distance on open ground,
  ``geometry.reach``); the dash then says whether the attacker gets there (R19).

Only a mover of the order's class counts, if it names one; a concealed mover is seen only
on its exposed stretches (BMF S2), so no order fires at it while it is in concealing
ground.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .commands import ZONE_POINTS
from .geometry import AMBUSH_FIRE_RANGE, ChallengeZone, Crossing, Cut, Ground, capsules, point_along

XY = tuple[float, float]
# A zone has at most 20 points (``commands.Trigger``): a street of 20 is 19 capsules, and
# every order is worked out with that many zone capsules and one disc round its firer.
ROWS = ZONE_POINTS
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
    # The firer's fastest running distance (BMF-R15: its reach is half of it at most) and
    # its running distances by terrain kind (the dash over the ground: ``reach``).
    running: float = 0.0
    paces: tuple[tuple[str, float], ...] = ()


# What makes up the count: an order that can never fire, worked out like any other.
BLANK = Order("", 0, "challenge", (0.0, 0.0), ready=False)


@dataclass(frozen=True)
class Mover:
    """An enemy unit moving now, with its path in metres (its start first)."""

    id: str
    unit_class: str
    path: tuple[XY, ...]
    concealed: bool = False  # seen only on its exposed stretches (BMF S2)
    # BMF-R01: its move this turn runs from one concealed position to another (only such a
    # mover is open to Challenge Fire; ``movement.between_cover``).
    between_cover: bool = True


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


REACTIONS = ("challenge", "ambush", "close_combat")


@dataclass(frozen=True)
class Triggers:
    """Every order's trigger as capsules: :data:`ROWS` an order (its zone's, then its disc
    round the firer), ``own`` those that are really its own (the rest are blanks, worked out
    and set aside); ``ranges`` its 1250 m round the firer, which bound an Ambush Fire
    (``ranged``); ``shown``, an order that takes a mover only on exposed ground."""

    shapes: capsules.Capsules
    own: NDArray[np.bool_]
    ranges: capsules.Capsules
    ranged: NDArray[np.bool_]
    shown: NDArray[np.bool_]


def read_all(orders: Sequence[Order]) -> Triggers:
    """The orders' triggers as capsules (see the module's notes), every order read by the
    same steps whatever it holds."""
    n = len(orders)
    points = np.zeros((n, ZONE_POINTS, 2))
    counts = np.zeros(n, dtype=np.intp)
    radius, within, running = np.zeros(n), np.zeros(n), np.zeros(n)
    given = np.zeros(n, dtype=bool)
    firer = np.zeros((n, 2))
    kind = np.zeros(n, dtype=np.intp)
    needs = np.zeros(n, dtype=bool)
    for i, order in enumerate(orders):
        zone = np.asarray(order.zone, dtype=np.float64).reshape(-1, 2)
        points[i, : len(zone)] = zone
        counts[i] = len(zone)
        radius[i] = order.radius
        given[i] = order.within is not None
        within[i] = order.within or 0.0
        running[i] = order.running
        firer[i] = order.firer
        kind[i] = REACTIONS.index(order.reaction)
        needs[i] = order.needs_zone
    challenge, ambush, close_combat = kind == 0, kind == 1, kind == 2
    # The zone: a point (its centre twice, at least 1 m round), or a gap or a street, one
    # capsule a stretch of its line (a gap's of radius 0).
    one = counts == 1
    start, end = points[:, :-1], points[:, 1:]
    end = np.where(one[:, None, None], start, end)
    zone_radius = np.broadcast_to(
        np.where(one, np.maximum(radius, 1.0), radius)[:, None], (n, ROWS - 1)
    )
    stretches = np.where(one, 1, np.maximum(counts - 1, 0))
    zone_own = np.arange(ROWS - 1)[None, :] < stretches[:, None]
    # The disc round the firer: its distance; with none, a close combat's reach (BMF-R15:
    # half its fastest running distance, as ``geometry.reach``; ``reach`` then measures the
    # dash over the ground) or 1250 m ("within range").
    zoned = counts > 0
    disc = np.where(given, within, np.where(close_combat, running / 2, AMBUSH_FIRE_RANGE))
    disc_own = (challenge & ~zoned & ~needs) | ((ambush | close_combat) & (given | ~zoned))
    a = np.concatenate([start, firer[:, None, :]], axis=1).reshape(-1, 2)
    b = np.concatenate([end, firer[:, None, :]], axis=1).reshape(-1, 2)
    r = np.concatenate([zone_radius, disc[:, None]], axis=1).reshape(-1)
    own = np.concatenate([zone_own, disc_own[:, None]], axis=1)
    ranges = capsules.Capsules(firer, firer, np.full(n, AMBUSH_FIRE_RANGE))
    return Triggers(capsules.Capsules(a, b, r), own, ranges, ambush, challenge)


@dataclass(frozen=True)
class Sweep:
    """Where each order's trigger first comes along each mover's path (``along``: metres,
    ``inf`` if never; orders by rows, movers by columns), for choosing the order that fires
    (:meth:`first`), again after an order has gone (an ATGM's unseen launch)."""

    orders: tuple[Order, ...]
    movers: tuple[Mover, ...]
    along: NDArray[np.float64]

    def takes(self, ready: Collection[str] | None = None) -> NDArray[np.bool_]:
        """Which order (rows) would fire at which mover (columns): its trigger comes along
        the mover's path, the order is ready (and among ``ready``, ids, if given) and the
        mover is of its class, if it names one."""
        may = np.array(
            [o.ready and (ready is None or o.id in ready) for o in self.orders], dtype=bool
        )
        kind = np.array(
            [[o.target_class is None or o.target_class == m.unit_class for m in self.movers]
             for o in self.orders],
            dtype=bool,
        ).reshape(self.along.shape)  # fmt: skip
        return np.asarray(may[:, None] & kind & np.isfinite(self.along))

    def first(self, ready: Collection[str] | None = None) -> Fired | None:
        """The order that fires first (the movers go together, at one pace: the least way
        along wins; then the order given earlier), among those ``ready`` (their ids; every
        ready order if None), or None."""
        if not self.movers:
            return None
        shape = self.along.shape
        along = np.where(self.takes(ready), self.along, NEVER)
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

    def later(self, order: str, mover: str, along: float | None) -> Sweep:
        """The same sweep, the order's trigger along the mover's path coming first at
        ``along`` metres instead (never if None): an Ambush Close Combat's dash that could
        not reach where its trigger came (``reach``)."""
        row = next(i for i, o in enumerate(self.orders) if o.id == order)
        column = next(i for i, m in enumerate(self.movers) if m.id == mover)
        moved = self.along.copy()
        moved[row, column] = NEVER if along is None else along
        return Sweep(self.orders, self.movers, moved)

    def crossing(self, order: int, mover: int) -> Crossing | None:
        """Where order ``order`` (by position) first comes along mover ``mover``'s path,
        whatever its class or readiness."""
        at = float(self.along[order, mover])
        if not np.isfinite(at):
            return None
        return Crossing(at, point_along(self.movers[mover].path, at))


def sweep(
    orders: Sequence[Order],
    movers: Sequence[Mover],
    ground: Ground,
    count: int = 0,
    cuts: Mapping[str, Cut] | None = None,
) -> Sweep:
    """Every order's trigger along every mover's path, worked out alike: ``count`` orders at
    least (public data: blank ones make up the number), each as :data:`ROWS` capsules, and
    all the movers' segments at once. ``cuts``: the movers' paths already cut at the
    terrain's edges (``Ground.cut``), by mover, if the caller has them."""
    slots = (*orders, *[BLANK] * max(0, count - len(orders)))
    read = read_all(slots)
    if not movers:
        return Sweep(tuple(slots), (), np.full((len(slots), 0), NEVER))
    cut = [cuts[m.id] for m in movers] if cuts else ground.cut_all([m.path for m in movers])
    segments = capsules.Segments.joined([c.segments for c in cut])
    met = capsules.meet(segments, read.shapes)
    reach = capsules.meet(segments, read.ranges)
    # Ambush Fire's 1250 m bounds every capsule of its order; the others are not bounded.
    limit = read.ranged.repeat(ROWS)[:, None]
    spread = capsules.Meeting(*(np.repeat(field, ROWS, axis=0) for field in reach))
    both = met & spread
    bounded = capsules.Meeting(*(np.where(limit, b, m) for b, m in zip(both, met, strict=True)))
    first, last, inside = bounded.entries(segments.length)
    start, end = segments.along[None, :] + first, segments.along[None, :] + last
    inside &= read.own.reshape(len(slots) * ROWS, 1)
    # Anywhere: the first point met. On exposed ground: the first exposed point at or after
    # where it is met, before it leaves (each mover's exposed stretches, in order).
    anywhere = np.where(inside, start, NEVER)
    seen = np.full(start.shape, NEVER)
    starts = np.cumsum([0, *(len(c.segments) for c in cut)])
    for column, found in enumerate(cut):
        part = slice(starts[column], starts[column + 1])
        stretches = found.exposed()
        opens = np.array([*(s.start for s in stretches), NEVER])
        closes = np.array([*(s.end for s in stretches), NEVER])
        at = np.maximum(start[:, part], opens[np.searchsorted(closes, start[:, part])])
        seen[:, part] = np.where(inside[:, part] & (at <= end[:, part]), at, NEVER)
    # The least of each mover's segments, then of each order's capsules.
    by_mover = (len(slots), ROWS, len(movers))
    anywhere = np.minimum.reduceat(anywhere, starts[:-1], axis=1).reshape(by_mover).min(axis=1)
    seen = np.minimum.reduceat(seen, starts[:-1], axis=1).reshape(by_mover).min(axis=1)
    concealed = np.array([m.concealed for m in movers], dtype=bool)
    along = np.where(read.shown[:, None] | concealed[None, :], seen, anywhere)
    # BMF-R01: Challenge Fire only at a mover going from one concealed position to another.
    between = np.array([m.between_cover for m in movers], dtype=bool)
    along = np.where(read.shown[:, None] & ~between[None, :], NEVER, along)
    return Sweep(tuple(slots), tuple(movers), along)


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
