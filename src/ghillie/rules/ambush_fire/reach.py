"""BMF-R15, T08: an Ambush Close Combat reaches only as far as half the attacker's running
distance over the ground its dash crosses (woods slow it), and an attack it cannot reach is
not made: a standing order does not fire where its dash would fall short, and a live one is
refused (``live.check``). Where its dash is blocked by impassable ground within its reach it
is made and fails (T08, R19: left in the open where the dash stopped).

A standing order's trigger (``triggers``) is worked out with the disc its dash could reach on
its fastest ground; this module then finds, along the move, the first point in the trigger
that the dash over the ground really reaches (:func:`amend`).

Nor may the time that takes tell anything (issue 24, TRUST.md §3.7 "Time is a channel"):
every order slot of the sweep — a close combat or not, blank or not, its trigger met or not,
its dash reaching or not — is looked at along every mover's path in exactly the same way.
The mover's path inside the slot's disc is looked at in as many points as the path's own
segments and the farthest reach any unit of the scenario has (public) could ever need at
:data:`STEP` metres apart (a disc meets a straight segment in its diameter at most); then,
between the last point out of reach and the first in it, :data:`SPLITS` times finer,
:data:`ROUNDS` times over — for every slot and mover alike, a slot with nothing found
looking at a stand-in window — and only then are all but the close combats' answers set
aside. Every look's dashes are costed at once (``Ground.dash_costs``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from . import geometry, triggers
from .geometry import EPS, OPEN, Ground, capsules
from .geometry.ground import running_on
from .geometry.moves import spare_share
from .scenario import AmbushFireScenario

Array = NDArray[np.float64]
Mask = NDArray[np.bool_]
XY = tuple[float, float]
STEP = 1.0  # metres at most between the points first looked at, inside the disc
SPLITS = 32  # then the step where it is first reached, in 32 parts, three times over:
ROUNDS = 3  # 1 m / 32**3, about 30 micrometres
HALF_A_RUN = 0.5  # a dash reaches if it costs half a run or less (``_Slots.spare`` more)


def disc(running: dict[str, float]) -> float:
    """The farthest any dash of this unit could reach: half its fastest running distance."""
    return geometry.reach(max(running.values(), default=0.0))


def bound(scenario: AmbushFireScenario) -> float:
    """The farthest any unit could ever dash (public: the scenario's)."""
    return max((disc(dict(u.running)) for u in scenario.units), default=0.0)


def reached_each(
    orders: Sequence[triggers.Order], points: Sequence[XY], ground: Ground, far: float
) -> NDArray[np.bool_]:
    """Does each order's dash reach each point (orders by rows)? Every order's dash to every
    point is costed alike, whatever the order is (the fire phase's targets, A17)."""
    slots = _Slots.of(orders, ground)
    rows = np.repeat(np.arange(len(orders)), len(points))
    at = np.tile(np.asarray(points, dtype=np.float64).reshape(-1, 2), (len(orders), 1))
    costs = ground.dash_costs(slots.firer, rows, at, slots.slowness, slots.open_slowness, far)
    short = np.hypot(*(at - slots.firer[rows]).T) <= far + EPS  # none dashes farther
    reached = (costs <= HALF_A_RUN + slots.spare[rows]) & short
    return np.asarray(reached).reshape(len(orders), len(points))


@dataclass(frozen=True)
class _Slots:
    """The sweep's order slots as a look needs them, one row each: the firer, its disc, its
    trigger's capsules, and its slowness over each area of the ground (``Ground.dash_costs``)."""

    firer: Array
    radius: Array
    shapes: capsules.Capsules  # ``triggers.ROWS`` a slot
    own: NDArray[np.bool_]
    slowness: Array
    open_slowness: Array
    spare: Array  # the share of a run EPS metres cost at the slot's slowest pace (forgiven)

    @classmethod
    def of(cls, orders: Sequence[triggers.Order], ground: Ground) -> _Slots:
        read = triggers.read_all(orders)
        cells = ground.cells.areas
        slowness = np.zeros((len(orders), len(cells)))
        open_slowness = np.zeros(len(orders))
        spare = np.zeros(len(orders))
        for i, order in enumerate(orders):
            table = dict(order.paces) or {OPEN: 1.0}  # a blank: any pace, set aside after
            spare[i] = spare_share(table.values())  # as the geometry forgives (``dash``)
            open_slowness[i] = _slow(table.get(OPEN, 1.0))
            for j, members in enumerate(cells):
                # The slowest of the cell's areas (impassable ones only costed: R15, T08).
                areas = [ground.areas[k] for k in members]
                slowness[i, j] = _slow(running_on(areas, table | {OPEN: table.get(OPEN, 1.0)}))
        return cls(
            np.array([o.firer for o in orders], dtype=np.float64).reshape(-1, 2),
            np.array([o.running / 2 for o in orders], dtype=np.float64),
            read.shapes,
            read.own,
            slowness,
            open_slowness,
            spare,
        )

    def oks(
        self, slot: NDArray[np.intp], points: Array, hidden: Mask, ground: Ground, far: float
    ) -> Mask:
        """At each point (its slot's): is a mover there in the slot's trigger, where the order
        can see it (``hidden``: a concealed mover in cover), and does its dash reach it?"""
        costs = ground.dash_costs(self.firer, slot, points, self.slowness, self.open_slowness, far)
        rows = triggers.ROWS
        a = self.shapes.a.reshape(-1, rows, 2)[slot]
        b = self.shapes.b.reshape(-1, rows, 2)[slot]
        r = self.shapes.r.reshape(-1, rows)[slot]
        ab, ap = b - a, points[:, None, :] - a
        squared = np.einsum("nkj,nkj->nk", ab, ab)
        t = np.clip(np.einsum("nkj,nkj->nk", ap, ab) / np.where(squared > 0, squared, 1.0), 0, 1)
        gap = ap - ab * t[:, :, None]
        inside = (np.hypot(gap[..., 0], gap[..., 1]) <= r + EPS) & self.own[slot]
        return np.asarray((costs <= HALF_A_RUN + self.spare[slot]) & inside.any(axis=1) & ~hidden)


def _slow(pace: float) -> float:
    return 1 / pace if pace > 0 else 1e12  # no way through: more than any dash may spend


@dataclass(frozen=True)
class _Look:
    """One mover's path inside every slot's disc, from where its trigger first came (or its
    start), laid end to end: ``u`` metres of it are a point of the path (:meth:`place`)."""

    segments: capsules.Segments
    lo: Array  # (slots, segments): each segment's stretch inside the disc, metres along
    length: Array  # its length (0 if none)
    ends: Array  # where each stretch ends, laid end to end
    valid: NDArray[np.bool_]
    total: Array  # (slots,)
    points: int  # how many to look at first

    @classmethod
    def of(
        cls, path: Sequence[XY], centre: Array, radius: Array, start: Array, far: float
    ) -> _Look:
        s = capsules.Segments.of(list(path))
        w = s.p[None, :, :] - centre[:, None, :]
        half = np.einsum("sgj,gj->sg", w, s.u)
        c = np.einsum("sgj,sgj->sg", w, w) - ((radius + EPS) ** 2)[:, None]
        root = half * half - c
        sq = np.sqrt(np.maximum(root, 0.0))
        lo = np.maximum(0.0, -half - sq) + s.along[None, :]
        hi = np.minimum(s.length[None, :], -half + sq) + s.along[None, :]
        lo = np.maximum(lo, start[:, None])
        valid = (root >= 0) & (lo <= hi)
        length = np.where(valid, hi - lo, 0.0)
        # A stretch inside a disc is a chord: 2 ``far`` at most, the segment at most.
        room = float(np.minimum(s.length, 2 * (far + EPS)).sum())
        return cls(
            s, lo, length, np.cumsum(length, axis=1), valid, length.sum(axis=1),
            max(2, math.ceil(room / STEP) + 1),
        )  # fmt: skip

    def place(self, u: Array) -> tuple[Array, Array]:
        """Where ``u`` (slots × k metres of the stretches end to end) is: metres along the
        path and the point there (a slot with no stretch: the path's start)."""
        fits = self.valid[:, None, :] & (self.ends[:, None, :] >= u[:, :, None] - 1e-12)
        index = np.argmax(fits, axis=2)
        rows = np.arange(len(u))[:, None]
        begun = self.ends[rows, index] - self.length[rows, index]
        along = np.where(fits.any(axis=2), self.lo[rows, index] + np.maximum(u - begun, 0.0), 0.0)
        s = self.segments
        seg = np.clip(np.searchsorted(s.along, along, side="right") - 1, 0, len(s) - 1)
        into = np.clip(along - s.along[seg], 0.0, s.length[seg])
        return along, s.p[seg] + s.u[seg] * into[..., None]


def amend(swept: triggers.Sweep, ground: Ground, far: float) -> triggers.Sweep:
    """The sweep with each Ambush Close Combat's trigger along each mover's path moved to
    the first point, where it first came or later, that its dash reaches (never, if none):
    see the module's notes. ``far``: the farthest any enemy could dash (:func:`bound`)."""
    orders, movers = swept.orders, swept.movers
    if not orders or not movers:
        return swept
    slots = _Slots.of(orders, ground)
    count = len(orders)
    rows = np.arange(count)
    came = swept.along
    start = np.where(np.isfinite(came), came, 0.0)  # a trigger never met: looked at all the same
    looks = [
        _Look.of(m.path, slots.firer, slots.radius, start[:, i], far) for i, m in enumerate(movers)
    ]

    # BMF S2: a concealed mover is seen only on its exposed stretches (the sweep's own).
    shown = [
        (np.array([s.start for s in cut.exposed()]), np.array([s.end for s in cut.exposed()]))
        for cut in ground.cut_all([m.path for m in movers])
    ]

    def hidden(mover: triggers.Mover, seen: tuple[Array, Array], along: Array) -> Mask:
        opens, closes = seen
        if not mover.concealed:
            return np.zeros(along.size, dtype=bool)
        at = np.searchsorted(closes, along.ravel() - EPS)
        out = np.ones(along.size, dtype=bool)
        inside = at < len(closes)
        out[inside] = opens[at[inside]] > along.ravel()[inside] + EPS
        return out

    def oks(us: list[Array]) -> list[Mask]:
        """Every look's points (slots × k each, by mover) looked at in one go."""
        placed = [look.place(u) for look, u in zip(looks, us, strict=True)]
        points = np.concatenate([p.reshape(-1, 2) for _, p in placed])
        slot = np.concatenate([np.repeat(rows, u.shape[1]) for u in us])
        unseen = np.concatenate(
            [hidden(m, seen, a) for m, seen, (a, _) in zip(movers, shown, placed, strict=True)]
        )
        found = slots.oks(slot, points, unseen, ground, far)
        bounds = np.cumsum([0, *(u.size for u in us)])
        somewhere = [np.asarray(look.valid.any(axis=1)) for look in looks]
        return [
            found[bounds[i] : bounds[i + 1]].reshape(u.shape) & somewhere[i][:, None]
            for i, u in enumerate(us)
        ]

    coarse = [look.total[:, None] * np.linspace(0.0, 1.0, look.points)[None, :] for look in looks]
    first = oks(coarse)
    found = [ok.any(axis=1) for ok in first]
    k = [np.argmax(ok, axis=1) for ok in first]
    good = [u[rows, j] for u, j in zip(coarse, k, strict=True)]
    before = [u[rows, np.maximum(j - 1, 0)] for u, j in zip(coarse, k, strict=True)]
    parts = np.arange(1, SPLITS + 1) / SPLITS
    for _ in range(ROUNDS):
        finer = [
            b[:, None] + (g - b)[:, None] * parts[None, :]
            for b, g in zip(before, good, strict=True)
        ]
        looked = oks(finer)
        for i, (ok, u) in enumerate(zip(looked, finer, strict=True)):
            j = np.where(ok.any(axis=1), np.argmax(ok, axis=1), SPLITS - 1)
            before[i] = np.where(j > 0, u[rows, np.maximum(j - 1, 0)], before[i])
            good[i] = u[rows, j]
    close = np.array([o.reaction == "close_combat" for o in orders], dtype=bool)
    along = came.copy()
    for i, look in enumerate(looks):
        at, _ = look.place(good[i][:, None])
        reaches = np.where(found[i], at[:, 0], triggers.NEVER)
        along[:, i] = np.where(close & np.isfinite(came[:, i]), reaches, came[:, i])
    return triggers.Sweep(orders, movers, along)
