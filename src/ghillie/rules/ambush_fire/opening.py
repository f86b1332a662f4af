"""The standing orders' turn at the start of the fire phase, before normal fire (BMF-A17).

Ambush Fire may come "as a reaction during the enemy's movement or at the start of the fire
phase" (``bmf.ambush_timing``). With ``movement_or_fire`` (DEFAULT) the Ambush Fire and
Ambush Close Combat orders fire during the enemy's moves, and those still waiting get this
one more chance; with ``fire_phase`` they wait for it alone. Here, before anyone fires
normally, each such order whose unit may still take it (BMF-R07, R14) fires at its
trigger's target if one stands then in its zone or within its distance (and within 1250 m
for Ambush Fire, R08; where its dash over the ground reaches, for Ambush Close Combat, R15):
an enemy unit in view — a concealed unit is in cover (S2), and no
order aims at it — of the order's class, if it gives one; the nearest to the firer if there
are several. The orders go in the order the fire phase does — those of the side that moved
second first — and each side's in the order they were given. Each is carried out as during
a move (the reveal, casualties first, the return fire, the retreat, in their windows), and
then the next is looked at. An ATGM's missile with flight time (exactly 1250 m) arrives
when its launch has been answered: there is no move to wait for.
"""

from __future__ import annotations

import numpy as np

from . import ambush, close_combat, geometry, reach, triggers, units
from .board import UNIT, Rules
from .movement import order_count, standing_orders

KINDS = ("ambush", "close_combat")


def _targets(
    ruling: Rules,
    orders: list[triggers.Order],
    owner: str,
    ground: geometry.Ground,
    count: int,
    longest: float,
) -> dict[str, triggers.Fired]:
    """Each ready order's target now, if it has one: the enemy unit in view (of its class)
    in its zone or within its distance, the nearest to the firer (then by name). Every
    order is worked out against every unit, ready or not (``triggers``)."""
    standing = sorted(
        (
            p
            for p in ruling.state.pieces.values()
            if p.kind == UNIT and p.owner != owner and not p.public.get("concealed")
        ),
        key=lambda p: str(p.public["name"]),
    )
    movers = [triggers.Mover(p.id, p.public["class"], (units.where(p),)) for p in standing]
    swept = triggers.sweep(orders, movers, ground, count)
    if not movers:
        return {}
    places = np.array([m.path[0] for m in movers], dtype=np.float64)
    firers = np.array([o.firer for o in swept.orders], dtype=np.float64).reshape(-1, 2)
    far = np.hypot(*(places[None, :, :] - firers[:, None, :]).transpose(2, 0, 1))
    # BMF-R15: a close combat only where its dash reaches (every order's dash costed alike).
    close = np.array([o.reaction == "close_combat" for o in swept.orders], dtype=bool)
    dashes = reach.reached_each(swept.orders, [m.path[0] for m in movers], ground, longest)
    takes = swept.takes() & (~close[:, None] | dashes)
    # The nearest, then the first by name (the movers are in name order; argmin keeps it).
    nearest = np.where(takes, far, np.inf).argmin(axis=1)
    found: dict[str, triggers.Fired] = {}
    for row, order in enumerate(orders):
        column = int(nearest[row])
        if takes[row, column]:
            mover = movers[column]
            found[order.id] = triggers.Fired(order.id, mover.id, 0.0, mover.path[0])
    return found


def opening_fire(ruling: Rules) -> None:
    """Carry out the next standing order that fires now, if any (its windows, once
    answered, come back here for the one after it)."""
    scenario = ruling.scenario
    sides = ruling.state.sides
    first = next(s for s in sides if s != scenario.first)  # it fires first
    for side in (first, *(s for s in sides if s != first)):
        # A missile launched at 1250 m in this step arrives now (BMF-A10).
        if ambush.land(ruling, side, units.FIRE_PHASE):
            return
    ground = units.ground(scenario)
    chosen: tuple[triggers.Order, triggers.Fired] | None = None
    for side in (first, *(s for s in sides if s != first)):
        # The orders of this side: those its enemies' pieces must fear.
        enemy = next(s for s in sides if s != side)
        orders = standing_orders(ruling, enemy, KINDS)  # the side's, blanks too
        count = order_count(ruling, enemy)
        targets = _targets(ruling, orders, side, ground, count, reach.bound(scenario))
        if chosen is None:
            ready = sorted((o for o in orders if o.id in targets), key=lambda o: o.number)
            if ready:
                chosen = (ready[0], targets[ready[0].id])
    if chosen is None:
        return
    order, fired = chosen
    target_side = ruling.piece(fired.target).owner
    if ambush.unseen_launch(ruling, fired):
        ambush.launch(ruling, target_side, fired, [], units.FIRE_PHASE)
        opening_fire(ruling)  # it lands at once, seen only then
    elif order.reaction == "close_combat":
        close_combat.attack(ruling, target_side, fired, [], units.FIRE_PHASE)
    else:
        ambush.fire(ruling, target_side, fired, [], units.FIRE_PHASE)
