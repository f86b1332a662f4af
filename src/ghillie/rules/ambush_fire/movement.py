"""A move, and the standing orders it sets off (issue 14; BMF-R01..R06, A04, A05, A19).

ghillie walks the movers' paths together, at one pace, and checks the other side's standing
orders against them (``triggers``). If none fires, the units arrive and nothing else
happens that the mover could notice. If a Challenge Fire order fires, the movers stop
there, the order is opened (its proof shows it was written before), the firer is revealed
to the side it fired at (BMF-A22), and a reaction window asks the target's side whether it
fires back (BMF-R04) — it is asked whatever its weapon faces, and refused a shot if it does
not face the firer. When it answers, both shots are rolled together (A05), a destroyed
unit is removed, and a column whose lead vehicle is destroyed stops (R06); otherwise the
move goes on from there.
"""

from __future__ import annotations

from typing import Any

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.ruling import Ruling
from ghillie.state import Level, Piece, Window
from ghillie.words import say

from . import checks, eligibility, geometry, triggers
from .board import ORDER, UNIT, Board, Did
from .commands import Move, ReturnFire
from .scenario import AmbushFireScenario, Diet
from .setup import metres

RETURN_FIRE = "return_fire"
RETREAT = "retreat"
ALREADY_MOVED = "already_moved"
IMPASSABLE = "impassable"
NOT_FACING = "not_facing"
NO_STANDING_ORDER_KIND = ("challenge", "ambush", "close_combat")
BAD_RETREAT = "bad_retreat"


def _ground(scenario: AmbushFireScenario) -> geometry.Ground:
    areas = [
        geometry.Area(t.name, t.kind, tuple(t.outline), t.conceals, t.impassable)
        for t in scenario.terrain
    ]
    return geometry.Ground(scenario.width, scenario.depth, areas)


def _where(piece: Piece) -> tuple[float, float]:
    at = piece.public.get("at") or piece.secret.get("at")
    assert at is not None, "a unit on the ground has a place"
    return (float(at[0]), float(at[1]))


def _note(ruling: Ruling[Board], unit: Piece, what: Did) -> None:
    history = {k: list(v) for k, v in unit.public.get("history", {}).items()}
    turn = str(ruling.board.turn)
    history[turn] = sorted({*history.get(turn, []), what.value})
    ruling.update(unit.id, public={"history": history})


def move(ruling: Ruling[Board], scenario: AmbushFireScenario, side: str, command: Move) -> None:
    state = ruling.state
    ground = _ground(scenario)
    routes: dict[str, list[tuple[float, float]]] = {}
    for i, entry in enumerate(command.units):
        unit = lookup.own(state, side, entry.unit, [UNIT])
        if (
            str(ruling.board.turn) in unit.public.get("history", {})
            and Did.MOVED.value in (unit.public["history"][str(ruling.board.turn)])
        ):
            raise Refusal(ALREADY_MOVED, "That unit has moved this turn.", field=f"units.{i}.unit")
        route = [_where(unit), *(metres(scenario, (p[0], p[1])) for p in entry.path)]
        if ground.leaves_ground(route) or ground.crosses_impassable(route):
            raise Refusal(
                IMPASSABLE,
                "That path leaves the ground or crosses impassable terrain.",
                field=f"units.{i}.path",
            )
        routes[unit.id] = route
    for unit_id, route in routes.items():
        ruling.update(unit_id, secret={"route": [list(p) for p in route]})
        _note(ruling, ruling.piece(unit_id), Did.MOVED)
    advance(ruling, scenario, side, list(routes))


def _orders(ruling: Ruling[Board], side: str) -> list[triggers.Order]:
    out = []
    for piece in ruling.state.pieces.values():
        if piece.kind != ORDER or piece.owner == side:
            continue
        s = piece.secret
        if s["reaction"] not in NO_STANDING_ORDER_KIND:
            continue
        if s["unit"] not in ruling.state.pieces:
            continue  # its unit is gone
        firer = ruling.piece(s["unit"])
        history = firer.public.get("history", {})
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
                _where(firer),
                tuple((float(p[0]), float(p[1])) for p in trigger["zone"]),
                float(trigger["radius"]),
                trigger["within"],
                trigger["target_class"],
            )
        )
    return out


def advance(
    ruling: Ruling[Board], scenario: AmbushFireScenario, side: str, movers: list[str]
) -> None:
    """Walk the movers' remaining routes until a standing order fires or they arrive."""
    ground = _ground(scenario)
    walkers = [
        triggers.Mover(
            m,
            ruling.piece(m).public["class"],
            tuple((float(p[0]), float(p[1])) for p in ruling.piece(m).secret["route"]),
        )
        for m in movers
    ]
    fired = triggers.first_fired(_orders(ruling, side), walkers, ground)
    if fired is None:
        for walker in walkers:
            _arrive(ruling, walker.id, walker.path[-1])
        return
    # Everyone stops where the column is when the order fires (one pace).
    for walker in walkers:
        where = geometry.point_along(walker.path, fired.along)
        rest = [where, *[p for p in walker.path if _beyond(walker.path, p, fired.along)]]
        ruling.update(walker.id, secret={"route": [list(p) for p in rest]})
        _arrive(ruling, walker.id, where, final=False)
    reaction = ruling.piece(fired.order).secret["reaction"]
    if reaction == "ambush":
        _ambush(ruling, scenario, fired, movers)
    elif reaction == "close_combat":
        _close_combat(ruling, scenario, fired, movers)
    else:
        _challenge(ruling, scenario, side, fired, movers)


def _beyond(
    path: tuple[tuple[float, float], ...], point: tuple[float, float], along: float
) -> bool:
    """Is this waypoint still ahead of a unit ``along`` metres down its path?"""
    index = path.index(point)
    return geometry.path_length(path[: index + 1]) > along + geometry.EPS


def _arrive(ruling: Ruling[Board], unit_id: str, where: Any, *, final: bool = True) -> None:
    unit = ruling.piece(unit_id)
    place = [round(float(where[0]), 2), round(float(where[1]), 2)]
    if unit.public.get("concealed"):
        ruling.update(unit_id, secret={"at": place})
    else:
        ruling.update(unit_id, public={"at": place})
        if final:
            ruling.tell_public(
                {
                    "text": say(
                        "{unit} moves to {x}, {y}.",
                        unit=unit.public["name"],
                        x=place[0],
                        y=place[1],
                    )
                }
            )
    if final:
        ruling.update(unit_id, unset=("route",))


def _challenge(
    ruling: Ruling[Board],
    scenario: AmbushFireScenario,
    side: str,
    fired: triggers.Fired,
    movers: list[str],
) -> None:
    order = ruling.piece(fired.order)
    firer = ruling.piece(order.secret["unit"])
    target = ruling.piece(fired.target)
    for other in ruling.state.others(order.owner):
        ruling.open(order.id, other, "unit", "reaction", "trigger", "chance")
        # BMF-A22: the firer is revealed to the side it fired at, where and what it is.
        if firer.public.get("concealed"):
            ruling.update(firer.id, public={"at": firer.secret["at"], "concealed": False})
        ruling.reveal(firer.id, other, Level.IDENTIFIED)
    _note(ruling, ruling.piece(firer.id), Did.CHALLENGED)
    _note(ruling, ruling.piece(firer.id), Did.FIRED)
    percent = checks.chance(
        int(order.secret["chance"]), checks.Penalty.CHALLENGE, scenario.switches.penalty_mode
    )
    ruling.change_board(
        "pending",
        move={
            "kind": "challenge",
            "movers": movers,
            "order": order.id,
            "target": target.id,
            "firer": firer.id,
            "percent": percent,
        },
    )
    ruling.tell_public(
        {
            "text": say(
                "Challenge Fire! {firer} fires at {target} as it crosses the open ground "
                "({percent}% to hit, 10 less than normal).",
                firer=firer.public["name"],
                target=target.public["name"],
                percent=percent,
                rules=("BMF-R01", "BMF-R03"),
            )
        }
    )
    ruling.open_window(RETURN_FIRE, asks=(target.owner,))


def return_fire(
    ruling: Ruling[Board], scenario: AmbushFireScenario, side: str, command: ReturnFire
) -> None:
    pending = ruling.board.pending
    assert pending is not None
    if command.fire and pending["kind"] == "challenge":
        order = ruling.piece(str(pending["order"]))
        firer = ruling.piece(order.secret["unit"])
        target = ruling.piece(str(pending["target"]))
        if not geometry.faces(
            _where(target),
            float(target.public.get("facing", 0)),
            float(target.public["arc"]),
            _where(firer),
        ):
            raise Refusal(
                NOT_FACING,
                "Its weapon does not face the firer: it may not fire back.",
                field="fire",
            )


def close(ruling: Ruling[Board], scenario: AmbushFireScenario, window: Window) -> None:
    pending = ruling.board.pending
    assert pending is not None
    if pending["kind"] in ("ambush", "close_combat"):
        _after_ambush(ruling, scenario, window)
        return
    _challenge_shots(ruling, scenario, window)


def _challenge_shots(ruling: Ruling[Board], scenario: AmbushFireScenario, window: Window) -> None:
    """Both shots together (BMF-A05), casualties after; a column whose lead vehicle is
    destroyed stops (R06); otherwise the move goes on."""
    pending = ruling.board.pending
    assert pending is not None
    (answer,) = window.answers.values()
    target = ruling.piece(str(pending["target"]))
    mode = scenario.switches.penalty_mode
    reply = checks.chance(int(answer.get("chance", 0)), checks.Penalty.RETURN_CHALLENGE, mode)
    check = checks.challenge_exchange(int(pending["percent"]), reply, bool(answer.get("fire")))
    _values, (hit, hit_back) = check.roll(lambda label, die: ruling.roll(label, die))
    order = ruling.piece(str(pending["order"]))
    firer = ruling.piece(order.secret["unit"])
    ruling.tell_public(
        {
            "text": say(
                "{firer} {result} {target}.",
                firer=firer.public["name"],
                result=say("destroys") if hit else say("misses"),
                target=target.public["name"],
                rules=("BMF-A05",),
            )
        }
    )
    if answer.get("fire"):
        ruling.tell_public(
            {
                "text": say(
                    "{target} fires back ({percent}%, 20 less than normal): {result}.",
                    target=target.public["name"],
                    percent=reply,
                    result=say("the firer is destroyed") if hit_back else say("a miss"),
                    rules=("BMF-R04",),
                )
            }
        )
    ruling.remove(order.id)
    ruling.change_board("pending")
    movers = [str(m) for m in pending["movers"] if m != target.id or not hit]
    if hit_back:
        ruling.remove(firer.id)
    if hit:
        ruling.remove(target.id)
        # BMF-R06: the first vehicle through the gap destroyed, the rest of the column stops.
        for m in movers:
            piece = ruling.piece(m)
            _arrive(ruling, m, piece.secret["route"][0])
        if movers:
            ruling.tell_public({"text": say("The rest of the column stops.", rules=("BMF-R06",))})
        return
    advance(ruling, scenario, target.owner, movers)


def _ambush(
    ruling: Ruling[Board], scenario: AmbushFireScenario, fired: triggers.Fired, movers: list[str]
) -> None:
    """BMF-R07..R11: the ambusher fires from hiding; every concealed unit of either side
    within its reveal area is revealed to everyone (R09, A06..A08); the casualties come off
    at once (R11); a surviving target's side is asked for its return fire (R12), then the
    ambusher's side for its retreat (R13)."""
    order = ruling.piece(fired.order)
    firer = ruling.piece(order.secret["unit"])
    target = ruling.piece(fired.target)
    for other in ruling.state.others(order.owner):
        ruling.open(order.id, other, "unit", "reaction", "trigger", "chance")
    widths = (
        geometry.REVEAL_WIDTH
        if scenario.switches.reveal_width_by_class
        else (geometry.LISTED_REVEAL_WIDTH)
    )
    radius = geometry.reveal_radius(firer.public["class"], widths)
    centre = _where(firer)
    hidden = {
        p.id: _where(p)
        for p in ruling.state.pieces.values()
        if p.kind == UNIT and p.public.get("concealed")
    }
    shown = sorted(
        geometry.revealed(centre, radius, hidden), key=lambda i: ruling.piece(i).public["name"]
    )
    for unit_id in shown:
        unit = ruling.piece(unit_id)
        ruling.update(unit_id, public={"at": unit.secret["at"], "concealed": False})
        for other in ruling.state.others(unit.owner):
            ruling.reveal(unit_id, other, Level.IDENTIFIED)
    _note(ruling, ruling.piece(firer.id), Did.FIRED)
    ruling.tell_public(
        {
            "text": say(
                "Ambush Fire! {firer} fires from hiding at {target}. Everything within {r} m "
                "of it is revealed: {units}.",
                firer=firer.public["name"],
                target=target.public["name"],
                r=round(radius),
                units=[ruling.piece(u).public["name"] for u in shown],
                rules=("BMF-R07", "BMF-R09", "BMF-A08"),
            )
        }
    )
    percent = checks.chance(
        int(order.secret["chance"]), checks.PENALTIES[checks.AMBUSH], scenario.switches.penalty_mode
    )
    _values, outcome = checks.shot(percent).roll(lambda label, die: ruling.roll(label, die))
    ruling.remove(order.id)
    hit = outcome == checks.HIT
    ruling.tell_public(
        {
            "text": say(
                "{firer} {result} {target} ({percent}% to hit).",
                firer=firer.public["name"],
                result=say("destroys") if hit else say("misses"),
                target=target.public["name"],
                percent=percent,
                rules=("BMF-R11",),
            )
        }
    )
    rest = [m for m in movers if not (hit and m == target.id)]
    if hit:
        ruling.remove(target.id)  # BMF-R11: before any return fire
    ruling.change_board(
        "pending",
        move={
            "kind": "ambush",
            "movers": rest,
            "firer": firer.id,
            "target": None if hit else target.id,
        },
    )
    if hit:
        ruling.open_window(RETREAT, asks=(firer.owner,))
    else:
        ruling.open_window(RETURN_FIRE, asks=(target.owner,))


def _after_ambush(ruling: Ruling[Board], scenario: AmbushFireScenario, window: Window) -> None:
    pending = ruling.board.pending
    assert pending is not None
    (answer,) = window.answers.values()
    firer = ruling.piece(str(pending["firer"]))
    if window.name == RETURN_FIRE:
        target = ruling.piece(str(pending["target"]))
        firer_gone = False
        if answer.get("fire"):
            close = pending["kind"] == "close_combat"
            penalty = checks.Penalty.DEFENCE if close else checks.Penalty.RETURN_AMBUSH
            percent = checks.chance(
                int(answer.get("chance", 0)), penalty, scenario.switches.penalty_mode
            )
            _values, outcome = checks.shot(percent).roll(lambda label, die: ruling.roll(label, die))
            firer_gone = outcome == checks.HIT
            result = say("the ambusher is destroyed") if firer_gone else say("a miss")
            if close:
                # BMF-R17, A02: a defensive close combat, 10 less for the surprise.
                text = say(
                    "{target} fights back ({percent}%, 10 less for the surprise): {result}.",
                    target=target.public["name"],
                    percent=percent,
                    result=result,
                    rules=("BMF-R17", "BMF-A02"),
                )
            else:
                text = say(
                    "{target} returns fire at the ambusher ({percent}%, 10 less than "
                    "normal): {result}.",
                    target=target.public["name"],
                    percent=percent,
                    result=result,
                    rules=("BMF-R12",),
                )
            ruling.tell_public({"text": text})
        if firer_gone:
            ruling.remove(firer.id)
            movers = [str(m) for m in pending["movers"]]
            ruling.change_board("pending")
            advance(ruling, scenario, target.owner, movers)
            return
        ruling.change_board("pending", move={**pending, "target": None})
        ruling.open_window(RETREAT, asks=(firer.owner,))
        return
    # RETREAT: the ambusher's path was checked when it was given.
    path = answer.get("path") or []
    if path:
        end = metres(scenario, (path[-1][0], path[-1][1]))
        ruling.update(firer.id, public={"at": [round(end[0], 2), round(end[1], 2)]})
        ruling.tell_public(
            {
                "text": say(
                    "{firer} retreats to {x}, {y}.",
                    firer=firer.public["name"],
                    x=round(end[0], 2),
                    y=round(end[1], 2),
                    rules=("BMF-R13",),
                )
            }
        )
    movers = [str(m) for m in pending["movers"]]
    ruling.change_board("pending")
    mover_side = next((ruling.piece(m).owner for m in movers), None)
    if mover_side is not None:
        advance(ruling, scenario, mover_side, movers)


def retreat(ruling: Ruling[Board], scenario: AmbushFireScenario, side: str, command: Any) -> None:
    """Check a retreat before it is taken (BMF-R13, A11, A21): at most 50 m, ending farther
    from the enemy the side can see, never through impassable ground."""
    pending = ruling.board.pending
    assert pending is not None
    if not command.path:
        return
    firer = ruling.piece(str(pending["firer"]))
    start = _where(firer)
    path = [metres(scenario, (p[0], p[1])) for p in command.path]
    counts_concealed = scenario.switches.retreat_counts_concealed
    enemies = [
        _where(p)
        for p in ruling.state.pieces.values()
        if p.kind == UNIT
        and p.owner != side
        and (counts_concealed or ruling.state.can_see(side, p.id))
    ]
    verdict = geometry.retreat_ok(start, path, enemies, _ground(scenario))
    if not verdict.ok:
        raise Refusal(
            BAD_RETREAT,
            "A retreat goes at most 50 metres, away from the enemy, and never through "
            "impassable ground.",
            field="path",
        )


def _close_combat(
    ruling: Ruling[Board], scenario: AmbushFireScenario, fired: triggers.Fired, movers: list[str]
) -> None:
    """BMF-R14..R19: the concealed attacker dashes out at the enemy. If it makes contact,
    its attack comes first and casualties come off at once (R16); a surviving defender
    fights back at -10 (R17), then the attacker may retreat (R18). If it does not reach
    its target (too far over that ground, or blocked), it is left in the open where its
    dash ended (R19, A16), and it cannot move again this turn."""
    order = ruling.piece(fired.order)
    attacker = ruling.piece(order.secret["unit"])
    target = ruling.piece(fired.target)
    for other in ruling.state.others(order.owner):
        ruling.open(order.id, other, "unit", "reaction", "trigger", "chance")
    run = geometry.dash(
        _where(attacker), fired.point, dict(attacker.secret["running"]), _ground(scenario)
    )
    end = [round(run.end[0], 2), round(run.end[1], 2)]
    ruling.update(attacker.id, public={"at": end, "concealed": False})
    for other in ruling.state.others(attacker.owner):
        ruling.reveal(attacker.id, other, Level.IDENTIFIED)
    _note(ruling, ruling.piece(attacker.id), Did.MOVED)
    _note(ruling, ruling.piece(attacker.id), Did.CLOSE_COMBAT)
    ruling.remove(order.id)
    if not run.contact:
        ruling.tell_public(
            {
                "text": say(
                    "{attacker} dashes out of cover at {target} but does not reach it: it is "
                    "left in the open at {x}, {y}, and cannot move again this turn.",
                    attacker=attacker.public["name"],
                    target=target.public["name"],
                    x=end[0],
                    y=end[1],
                    rules=("BMF-R19", "BMF-A16"),
                )
            }
        )
        advance(ruling, scenario, target.owner, movers)
        return
    percent = checks.chance(int(order.secret["chance"]), 0, scenario.switches.penalty_mode)
    _values, outcome = checks.shot(percent).roll(lambda label, die: ruling.roll(label, die))
    hit = outcome == checks.HIT
    ruling.tell_public(
        {
            "text": say(
                "Ambush Close Combat! {attacker} dashes out of cover at {target}: {result} "
                "({percent}%).",
                attacker=attacker.public["name"],
                target=target.public["name"],
                result=say("it is destroyed") if hit else say("it survives"),
                percent=percent,
                rules=("BMF-R14", "BMF-R16"),
            )
        }
    )
    rest = [m for m in movers if not (hit and m == target.id)]
    if hit:
        ruling.remove(target.id)
    ruling.change_board(
        "pending",
        move={
            "kind": "close_combat",
            "movers": rest,
            "firer": attacker.id,
            "target": None if hit else target.id,
        },
    )
    if hit:
        ruling.open_window(RETREAT, asks=(attacker.owner,))
    else:
        ruling.open_window(RETURN_FIRE, asks=(target.owner,))
