"""A move and its walk (issue 14; BMF-R01, A19): ghillie walks the movers' paths together,
at one pace, and checks the other side's standing orders against them (``triggers``). If
none fires, the units arrive and nothing else happens that the mover could notice. If one
fires, the movers stop there and the order is carried out — ``challenge``, ``ambush`` or
``close_combat`` — which goes on with the move when it is done.
"""

from __future__ import annotations

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.state import Piece, Window

from . import (
    ambush,
    challenge,
    close_combat,
    eligibility,
    geometry,
    live,
    reach,
    transit,
    triggers,
    units,
    voids,
)
from .board import MAX_ORDERS, ORDER, UNIT, Did, Rules
from .commands import MOVE_WAYPOINTS, Move, ReturnFire
from .scenario import AmbushFireScenario, AmbushTiming
from .setup import metres
from .units import RETREAT, RETURN_FIRE

__all__ = ["RETREAT", "RETURN_FIRE", "advance", "close", "move", "retreat", "return_fire"]

ALREADY_MOVED = "already_moved"
IMPASSABLE = "impassable"
OFF_OR_IMPASSABLE = "That path leaves the ground or crosses impassable terrain."
# Bounds on a move (issue 24): its work has a ceiling whatever the paths given.
TOO_MANY_WAYPOINTS = "too_many_waypoints"
PATH_TOO_LONG = "path_too_long"
TOO_INTRICATE = "too_intricate"
# Times a move's paths may cross the edges of terrain areas, in all: each is work, and a
# concealed mover's every stretch in the open is a line told to everyone (BMF S2).
CROSSINGS = 200
NO_STANDING_ORDER_KIND = ("challenge", "ambush", "close_combat")
retreat = ambush.retreat


def move(ruling: Rules, side: str, command: Move) -> None:
    scenario = ruling.scenario
    state = ruling.state
    ground = units.ground(scenario)
    if sum(len(entry.path) for entry in command.units) > MOVE_WAYPOINTS:
        raise Refusal(
            TOO_MANY_WAYPOINTS,
            f"A move gives at most {MOVE_WAYPOINTS} waypoints in all.",
            field="units",
        )
    routes: dict[str, list[tuple[float, float]]] = {}
    for i, entry in enumerate(command.units):
        unit = lookup.own(state, side, entry.unit, [UNIT])
        if Did.MOVED.value in units.history(unit).get(str(ruling.board.turn), []) or (
            unit.id in routes
        ):
            raise Refusal(ALREADY_MOVED, "That unit has moved this turn.", field=f"units.{i}.unit")
        route = [units.where(unit), *(metres(scenario, (p[0], p[1])) for p in entry.path)]
        if not all(ground.on_ground(p) for p in route):  # 1e308 inches is infinite metres
            raise Refusal(IMPASSABLE, OFF_OR_IMPASSABLE, field=f"units.{i}.path")
        if geometry.path_length(route) > longest(scenario) + geometry.EPS:
            raise Refusal(
                PATH_TOO_LONG,
                f"A unit's path is at most {longest(scenario) / scenario.ground_scale:g} "
                "inches long here: once round the table's edge.",
                field=f"units.{i}.path",
            )
        routes[unit.id] = route
    try:
        cut = ground.cut_all(list(routes.values()), limit=CROSSINGS)
    except geometry.TooIntricate as many:
        raise Refusal(
            TOO_INTRICATE,
            f"That move crosses the edges of terrain areas more than {CROSSINGS:,} times: "
            "give plainer paths.",
            field=f"units.{many.path}.path",
        ) from None
    for i, found in enumerate(cut):
        if found.first_blocked is not None:
            raise Refusal(IMPASSABLE, OFF_OR_IMPASSABLE, field=f"units.{i}.path")
    cuts = dict(zip(routes, cut, strict=True))
    # What the move voids of the movers' own standing orders (BMF-R07, R14, R02), read
    # before it is noted; told to their owner alone, after it.
    last = scenario.turns
    voided = {
        order.id: voids.voided_turns(
            ruling.piece(unit_id), str(order.secret["reaction"]), ruling.board.turn, last
        )
        for unit_id in routes
        for order in voids.orders_of(ruling.state, ruling.piece(unit_id))
    }
    for unit_id, route in routes.items():
        cover = between_cover(ruling.piece(unit_id), route, ground)
        ruling.update(
            unit_id, secret={"route": [units.xy(p, places=None) for p in route], "cover": cover}
        )
        units.note(ruling, ruling.piece(unit_id), Did.MOVED)
        for line in voids.told(ruling.state, ruling.piece(unit_id), voided):
            ruling.tell(side, {"text": line})
    live.begin(ruling, side, list(routes))
    advance(ruling, side, list(routes), cuts)


def between_cover(unit: Piece, route: list[tuple[float, float]], ground: geometry.Ground) -> bool:
    """BMF-R01: does this move take the unit "from one concealed position to another"? Read
    once, when the move is given, for the whole of the unit's movement this turn (a unit
    moves once a turn): a walk stopped by a standing order and resumed is the same move,
    from the same start to the same end, however often it is stopped. A concealed unit
    starts in a concealed position by what concealed means (S1), so only a unit in view,
    whose place is public, can start in the open; where it ends is the end of the path it
    was given (its owner's secret, read by the referee as a referee at the table would)."""
    started = bool(unit.public.get("concealed")) or ground.is_concealing(route[0])
    return started and ground.is_concealing(route[-1])


def longest(scenario: AmbushFireScenario) -> float:
    """The longest path a unit may be given, in metres: once round the ground's edge (the
    rules set no distance; this bounds the work a move costs, issue 24)."""
    return 2 * (scenario.width + scenario.depth)


def _orders(ruling: Rules, side: str) -> list[triggers.Order]:
    """The standing orders that may fire during the side's move (BMF-A17: with
    ``bmf.ambush_timing = fire_phase`` only Challenge Fire does)."""
    timing = ruling.scenario.switches.ambush_timing
    kinds = ("challenge",) if timing is AmbushTiming.FIRE_PHASE else ()
    return standing_orders(ruling, side, kinds or NO_STANDING_ORDER_KIND)


def standing_orders(ruling: Rules, side: str, kinds: tuple[str, ...]) -> list[triggers.Order]:
    """Every standing order of the side's enemies, as the triggers read them, each marked
    ``ready`` if it may fire now: of these kinds, its unit there and eligible, no missile of
    its own in flight; and blank orders, never ready, up to :func:`order_count`. Each is
    read by the same steps, and those that are not ready are set aside only once every
    trigger is worked out (issue 24: the work must not say which they are, or how many)."""
    pieces = ruling.state.pieces
    turn = ruling.board.turn
    enemies = [p for p in pieces.values() if p.kind == UNIT and p.owner != side]
    # Whether each enemy unit may take each reaction: the same work whatever they hold.
    barred = {(u.id, r): eligibility.barred(u, r, turn) for u in enemies for r in REACTIONS}
    held = [
        (p.id, int(p.public["number"]), p.secret)
        for p in pieces.values()
        if p.kind == ORDER and p.owner != side
    ]
    blank = {**BLANK, "unit": enemies[0].id if enemies else ""}
    held += [("", 0, blank)] * (order_count(ruling, side) - len(held))
    out = []
    for order_id, number, s in held:
        firer = pieces.get(s["unit"])
        ready = barred.get((s["unit"], s["reaction"]), "gone") is None
        trigger = s["trigger"]
        out.append(
            triggers.Order(
                order_id,
                number,
                s["reaction"],
                units.where(firer) if firer is not None else (0.0, 0.0),
                tuple(map(tuple, trigger["zone"])),
                float(trigger["radius"]),
                trigger["within"],
                trigger["target_class"],
                ruling.scenario.switches.challenge_requires_zone,
                ready and s["reaction"] in kinds and "flight" not in s,
                max(firer.secret["running"].values()) if firer is not None else 0.0,
                tuple(sorted(firer.secret["running"].items())) if firer is not None else (),
            )
        )
    return out


REACTIONS = ("challenge", "ambush", "close_combat")
# What makes up the count: read like an order, never ready (its missile "in flight").
BLANK: dict[str, object] = {
    "reaction": "challenge",
    "trigger": {"zone": [], "radius": 0, "within": None, "target_class": None},
    "flight": None,
}


def order_count(ruling: Rules, side: str) -> int:
    """How many orders every move is worked out with: as many as the side's enemies may
    hold (public), and every reaction given live that is still there (public too)."""
    enemies = [s for s in ruling.state.sides if s != side]
    live = sum(
        1
        for p in ruling.state.pieces.values()
        if p.kind == ORDER and p.owner != side and p.public.get("live")
    )
    return MAX_ORDERS * len(enemies) + live


def advance(
    ruling: Rules,
    side: str,
    movers: list[str],
    cuts: dict[str, geometry.Cut] | None = None,
) -> None:
    """Walk the movers' remaining routes until a standing order fires, the leg ends (a live
    side is asked: ``live``) or they arrive. ``cuts``: their routes cut at the terrain's
    edges, when the move has just checked them."""
    scenario = ruling.scenario
    ground = units.ground(scenario)
    walkers = [
        triggers.Mover(
            m,
            ruling.piece(m).public["class"],
            tuple((float(p[0]), float(p[1])) for p in ruling.piece(m).secret["route"]),
            bool(ruling.piece(m).public.get("concealed")),
            bool(ruling.piece(m).secret.get("cover", True)),
        )
        for m in movers
        if m in ruling.state.pieces and "route" in ruling.piece(m).secret
    ]
    left = live.leg_left(ruling, [w.id for w in walkers])
    orders = _orders(ruling, side)
    swept = triggers.sweep(orders, walkers, ground, order_count(ruling, side), cuts)
    # BMF-R15: a close combat only where its dash reaches, every order looked at alike.
    swept = reach.amend(swept, ground, reach.bound(scenario))
    found = swept.first()
    fired = _in_leg(found, left)
    while fired is not None and ambush.unseen_launch(ruling, fired):
        # BMF-A23 at arrival: the missile flies unseen, and the move goes on untouched.
        ambush.launch(ruling, side, fired, movers)
        ready = [o.id for o in _orders(ruling, side) if o.ready]
        found = swept.first(ready)
        fired = _in_leg(found, left)
    if fired is None and left is not None:
        # The leg ends: the movers pause where it ends, and the live sides are asked.
        for walker in walkers:
            where = _stop(ruling, walker, left)
            if not walker.concealed:  # where a unit in view pauses is in view too
                units.on_the_way(ruling, walker.id, where)
        live.prompt(ruling, side)
        return
    if fired is None:
        for walker in walkers:
            if walker.concealed:  # BMF S2: seen where it crossed open ground, and no more
                walked = _walked(ruling, walker)
                whole = cuts.get(walker.id) if cuts and walked == list(walker.path) else None
                transit.tell_crossings(ruling, ground, walker.id, walked, whole)
            units.arrive(ruling, walker.id, walker.path[-1])
            if walker.concealed:
                transit.ends(ruling, ground, walker.id, walker.path[-1])
        if ambush.land(ruling, side):  # BMF-A10: missiles in flight arrive now
            return  # its window comes first; the move's end comes back here after it
        live.move_ends(ruling, side)
        return
    # Everyone stops where the column is when the order fires (one pace).
    for walker in walkers:
        # A concealed mover is told crossed where it is now only if the order fires at it:
        # another's crossings wait for its move's end, or a line cut here would say how
        # far it had walked inside cover (the red team's finding).
        told = walker.concealed and walker.id == fired.target
        if told:
            transit.tell_crossings(ruling, ground, walker.id, _walked(ruling, walker, fired.along))
        where = _stop(ruling, walker, fired.along, told=told)
        if walker.concealed and walker.id == fired.target:
            transit.reveal(ruling, walker.id, where)  # in the firer's sights (S3)
    reaction = ruling.piece(fired.order).secret["reaction"]
    if reaction == "ambush":
        ambush.fire(ruling, side, fired, movers)
    elif reaction == "close_combat":
        close_combat.attack(ruling, side, fired, movers)
    else:
        challenge.fire(ruling, side, fired, movers)


def _in_leg(fired: triggers.Fired | None, left: float | None) -> triggers.Fired | None:
    """The order that fired, if it fired in this leg (at its end included)."""
    if fired is None or left is None or fired.along <= left + geometry.EPS:
        return fired
    return None


def _walked(
    ruling: Rules, walker: triggers.Mover, along: float | None = None
) -> list[tuple[float, float]]:
    """The path the mover has walked since its crossings were last told, as far as
    ``along`` metres down its remaining route (to its end if None)."""
    ahead = list(walker.path) if along is None else geometry.path_until(walker.path, along)
    secret = ruling.piece(walker.id).secret
    walk = secret.get("walk")
    kept = walk["walked"] if walk is not None else secret.get("untold")
    if not kept:
        return ahead
    before = [(float(p[0]), float(p[1])) for p in kept]
    return [*before[:-1], *ahead]


def _stop(
    ruling: Rules, walker: triggers.Mover, along: float, *, told: bool = False
) -> tuple[float, float]:
    """The mover stops ``along`` metres down its remaining route, which now starts there;
    what it walked is kept in secret for its crossings (``told``: they were just told)."""
    where = geometry.point_along(walker.path, along)
    rest = [where, *[p for p in walker.path if _beyond(walker.path, p, along)]]
    secret: dict[str, object] = {"route": [units.xy(p, places=None) for p in rest]}
    walk = ruling.piece(walker.id).secret.get("walk")
    walked = [where] if told else _walked(ruling, walker, along)
    if walk is not None:
        secret["walk"] = {
            **walk,
            "along": float(walk["along"]) + min(along, geometry.path_length(walker.path)),
            "walked": [units.xy(p, places=None) for p in walked],
        }
    elif walker.concealed and not told:
        # Walked, its crossings not yet told: they are, whole, when its move ends.
        secret["untold"] = [units.xy(p, places=None) for p in walked]
    ruling.update(walker.id, secret=secret)
    units.arrive(ruling, walker.id, where, final=False)
    return where


def _beyond(
    path: tuple[tuple[float, float], ...], point: tuple[float, float], along: float
) -> bool:
    """Is this waypoint still ahead of a unit ``along`` metres down its path?"""
    index = path.index(point)
    return geometry.path_length(path[: index + 1]) > along + geometry.EPS


def return_fire(ruling: Rules, side: str, command: ReturnFire) -> None:
    challenge.check_reply(ruling, side, command)


def close(ruling: Rules, window: Window) -> None:
    if window.name == live.REACT:
        live.close(ruling, window)
        return
    pending = ruling.board.pending
    assert pending is not None
    if pending["kind"] in ("ambush", "close_combat", "launch"):
        ambush.after(ruling, window)
        return
    challenge.shots(ruling, window)
