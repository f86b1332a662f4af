"""A move and its walk (issue 14; BMF-R01, A19): ghillie walks the movers' paths together,
at one pace, and checks the other side's standing orders against them (``triggers``). If
none fires, the units arrive and nothing else happens that the mover could notice. If one
fires, the movers stop there and the order is carried out — ``challenge``, ``ambush`` or
``close_combat`` — which goes on with the move when it is done.
"""

from __future__ import annotations

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.ruling import Ruling
from ghillie.state import Window

from . import ambush, challenge, close_combat, eligibility, geometry, transit, triggers, units
from .board import ORDER, UNIT, Board, Did
from .commands import Move, ReturnFire
from .scenario import AmbushFireScenario, AmbushTiming, Diet
from .setup import metres
from .units import RETREAT, RETURN_FIRE

__all__ = ["RETREAT", "RETURN_FIRE", "advance", "close", "move", "retreat", "return_fire"]

ALREADY_MOVED = "already_moved"
IMPASSABLE = "impassable"
NO_STANDING_ORDER_KIND = ("challenge", "ambush", "close_combat")
retreat = ambush.retreat


def move(ruling: Ruling[Board], scenario: AmbushFireScenario, side: str, command: Move) -> None:
    state = ruling.state
    ground = units.ground(scenario)
    routes: dict[str, list[tuple[float, float]]] = {}
    for i, entry in enumerate(command.units):
        unit = lookup.own(state, side, entry.unit, [UNIT])
        if Did.MOVED.value in units.history(unit).get(str(ruling.board.turn), []) or (
            unit.id in routes
        ):
            raise Refusal(ALREADY_MOVED, "That unit has moved this turn.", field=f"units.{i}.unit")
        route = [units.where(unit), *(metres(scenario, (p[0], p[1])) for p in entry.path)]
        if ground.leaves_ground(route) or ground.crosses_impassable(route):
            raise Refusal(
                IMPASSABLE,
                "That path leaves the ground or crosses impassable terrain.",
                field=f"units.{i}.path",
            )
        routes[unit.id] = route
    for unit_id, route in routes.items():
        ruling.update(unit_id, secret={"route": [units.xy(p, places=None) for p in route]})
        units.note(ruling, ruling.piece(unit_id), Did.MOVED)
    advance(ruling, scenario, side, list(routes))


def _orders(ruling: Ruling[Board], scenario: AmbushFireScenario, side: str) -> list[triggers.Order]:
    """The standing orders that may fire during the side's move (BMF-A17: with
    ``bmf.ambush_timing = fire_phase`` only Challenge Fire does)."""
    kinds = ("challenge",) if scenario.switches.ambush_timing is AmbushTiming.FIRE_PHASE else ()
    return standing_orders(ruling, scenario, side, kinds or NO_STANDING_ORDER_KIND)


def standing_orders(
    ruling: Ruling[Board], scenario: AmbushFireScenario, side: str, kinds: tuple[str, ...]
) -> list[triggers.Order]:
    """The standing orders of the side's enemies, of these kinds, that may fire now (their
    unit there and eligible, no missile of theirs in flight), as the triggers read them."""
    out = []
    for piece in ruling.state.pieces.values():
        if piece.kind != ORDER or piece.owner == side:
            continue
        s = piece.secret
        if s["reaction"] not in kinds:
            continue
        if s["unit"] not in ruling.state.pieces or "flight" in s:
            continue  # its unit is gone, or its missile is in flight
        firer = ruling.piece(s["unit"])
        history = units.history(firer)
        turn = ruling.board.turn
        concealed = bool(firer.public.get("concealed"))
        if s["reaction"] == "challenge":
            barred = eligibility.challenge(history, turn)
        elif s["reaction"] == "ambush":
            barred = eligibility.ambush(concealed, history, turn)
        else:
            barred = eligibility.close_combat(concealed, Diet(firer.public["diet"]), history, turn)
        if barred is not None:
            continue  # BMF-R02, R05, R07: it may not fire now, so the order waits
        trigger = dict(s["trigger"])
        if s["reaction"] == "close_combat" and trigger.get("within") is None:
            # BMF-R15: its reach, half its running distance on open ground.
            trigger["within"] = geometry.reach(float(firer.secret["running"]["open"]))
        out.append(
            triggers.Order(
                piece.id,
                int(piece.public["number"]),
                s["reaction"],
                units.where(firer),
                tuple((float(p[0]), float(p[1])) for p in trigger["zone"]),
                float(trigger["radius"]),
                trigger["within"],
                trigger["target_class"],
                scenario.switches.challenge_requires_zone,
            )
        )
    return out


def advance(
    ruling: Ruling[Board], scenario: AmbushFireScenario, side: str, movers: list[str]
) -> None:
    """Walk the movers' remaining routes until a standing order fires or they arrive."""
    ground = units.ground(scenario)
    walkers = [
        triggers.Mover(
            m,
            ruling.piece(m).public["class"],
            tuple((float(p[0]), float(p[1])) for p in ruling.piece(m).secret["route"]),
            bool(ruling.piece(m).public.get("concealed")),
        )
        for m in movers
    ]
    fired = triggers.first_fired(_orders(ruling, scenario, side), walkers, ground)
    while fired is not None and ambush.unseen_launch(ruling, scenario, fired):
        # BMF-A23 at arrival: the missile flies unseen, and the move goes on untouched.
        ambush.launch(ruling, scenario, side, fired, movers)
        fired = triggers.first_fired(_orders(ruling, scenario, side), walkers, ground)
    if fired is None:
        for walker in walkers:
            if walker.concealed:  # BMF S2: seen where it crossed open ground, and no more
                transit.tell_crossings(ruling, ground, walker.id, walker.path)
            units.arrive(ruling, walker.id, walker.path[-1])
            if walker.concealed:
                transit.ends(ruling, ground, walker.id, walker.path[-1])
        ambush.land(ruling, scenario, side)  # BMF-A10: missiles in flight arrive now
        return
    # Everyone stops where the column is when the order fires (one pace).
    for walker in walkers:
        where = geometry.point_along(walker.path, fired.along)
        if walker.concealed:
            transit.tell_crossings(
                ruling, ground, walker.id, geometry.path_until(walker.path, fired.along)
            )
        rest = [where, *[p for p in walker.path if _beyond(walker.path, p, fired.along)]]
        ruling.update(walker.id, secret={"route": [units.xy(p, places=None) for p in rest]})
        units.arrive(ruling, walker.id, where, final=False)
        if walker.concealed and walker.id == fired.target:
            transit.reveal(ruling, walker.id, where)  # in the firer's sights (S3)
    reaction = ruling.piece(fired.order).secret["reaction"]
    if reaction == "ambush":
        ambush.fire(ruling, scenario, side, fired, movers)
    elif reaction == "close_combat":
        close_combat.attack(ruling, scenario, side, fired, movers)
    else:
        challenge.fire(ruling, scenario, side, fired, movers)


def _beyond(
    path: tuple[tuple[float, float], ...], point: tuple[float, float], along: float
) -> bool:
    """Is this waypoint still ahead of a unit ``along`` metres down its path?"""
    index = path.index(point)
    return geometry.path_length(path[: index + 1]) > along + geometry.EPS


def return_fire(
    ruling: Ruling[Board], scenario: AmbushFireScenario, side: str, command: ReturnFire
) -> None:
    challenge.check_reply(ruling, scenario, side, command)


def close(ruling: Ruling[Board], scenario: AmbushFireScenario, window: Window) -> None:
    pending = ruling.board.pending
    assert pending is not None
    if pending["kind"] in ("ambush", "close_combat", "launch"):
        ambush.after(ruling, scenario, window)
        return
    challenge.shots(ruling, scenario, window)
