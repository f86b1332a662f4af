"""Ambush Fire by standing order (issue 14; BMF-R07..R13, A06..A08, A11, A13, A21): the
reveal, casualties first, return fire at -10 in a window, then the ambusher's retreat in
another; the same return and retreat windows follow an Ambush Close Combat (R16..R18)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghillie.errors import Refusal
from ghillie.state import Level, Window
from ghillie.words import say

from . import checks, geometry, triggers, units
from .board import ORDER, UNIT, Did, Rules
from .changes import Pending
from .commands import Retreat
from .scenario import AmbushFireScenario, AtgmRevealAt, UnitClass
from .setup import metres, open_order
from .units import RETREAT, RETURN_FIRE

BAD_RETREAT = "bad_retreat"


def fire(
    ruling: Rules,
    side: str,
    fired: triggers.Fired,
    movers: list[str],
    then: str = units.MOVE,
) -> None:
    """BMF-R07..R11: the ambusher fires from hiding; every concealed unit of either side
    within its reveal area is revealed to everyone (R09, A06..A08); the casualties come off
    at once (R11); a surviving target's side is asked for its return fire (R12), then the
    ambusher's side for its retreat (R13). An ATGM at less than 1250 m hits at once (R10,
    A09: the hit still rolled, or sure with ``bmf.atgm_ambush_autohit``); at 1250 m its
    missile is launched and flies (A10, A23: see :func:`launch`)."""
    order = ruling.piece(fired.order)
    firer = ruling.piece(order.secret["unit"])
    target = ruling.piece(fired.target)
    atgm = firer.public["class"] == UnitClass.ATGM.value
    if flies(ruling, fired):
        launch(ruling, side, fired, movers, then)
        return
    _reveal(ruling, order.id, target.id)
    units.note(ruling, ruling.piece(firer.id), Did.FIRED)
    sure = atgm and _autohit(ruling.scenario)
    _hit(ruling, side, order.id, target.id, movers, then, sure=sure)
    ruling.remove(order.id)


def flies(ruling: Rules, fired: triggers.Fired) -> bool:
    """BMF-R10, A10: an ATGM's ambush at exactly 1250 m (not less) has flight time."""
    order = ruling.piece(fired.order)
    firer = ruling.piece(order.secret["unit"])
    if order.secret["reaction"] != "ambush" or firer.public["class"] != UnitClass.ATGM.value:
        return False
    return not geometry.atgm_immediate(geometry.distance(fired.point, units.where(firer)))


def unseen_launch(ruling: Rules, fired: triggers.Fired) -> bool:
    """A missile with flight time whose launch nobody sees (``bmf.atgm_reveal_at``)."""
    return flies(ruling, fired) and ruling.scenario.switches.atgm_reveal_at is AtgmRevealAt.ARRIVAL


def _autohit(scenario: AmbushFireScenario) -> bool:
    return scenario.switches.atgm_ambush_autohit


def _reveal(ruling: Rules, order_id: str, target_id: str) -> None:
    """The order opened, and every concealed unit within the reveal area shown (R09)."""
    order = ruling.piece(order_id)
    firer = ruling.piece(order.secret["unit"])
    target = ruling.piece(target_id)
    open_order(ruling, order.id)
    widths = (
        geometry.REVEAL_WIDTH
        if ruling.scenario.switches.reveal_width_by_class
        else (geometry.LISTED_REVEAL_WIDTH)
    )
    radius = geometry.reveal_radius(firer.public["class"], widths)
    centre = units.where(firer)
    hidden = {
        p.id: units.where(p)
        for p in ruling.state.pieces.values()
        if p.kind == UNIT and p.public.get("concealed")
    }
    shown = sorted(
        geometry.revealed(centre, radius, hidden), key=lambda i: ruling.piece(i).public["name"]
    )
    for unit_id in shown:
        unit = ruling.piece(unit_id)
        ruling.update(unit_id, public={"at": units.xy(unit.secret["at"]), "concealed": False})
        for other in ruling.state.others(unit.owner):
            ruling.reveal(unit_id, other, Level.IDENTIFIED)
    ruling.tell_public(
        {
            "text": say(
                "Ambush Fire from hiding: {firer} at {target}! Everything within {r} m of "
                "the firer is revealed: {units}.",
                firer=firer.public["name"],
                target=target.public["name"],
                r=round(radius),
                units=[ruling.piece(u).public["name"] for u in shown],
                rules=("BMF-R07", "BMF-R09", "BMF-A08"),
            )
        }
    )


def _hit(
    ruling: Rules,
    side: str,
    order_id: str,
    target_id: str,
    movers: list[str],
    then: str,
    *,
    sure: bool = False,
    answered: bool = False,
) -> None:
    """The shot (or the missile's arrival), its casualty off at once (R11), then the
    target's side asked for its return fire (R12) — unless it was asked already, at the
    launch — and the ambusher's for its retreat (R13)."""
    order = ruling.piece(order_id)
    firer = ruling.piece(order.secret["unit"])
    target = ruling.piece(target_id)
    percent = checks.chance(
        int(order.secret["chance"]),
        checks.PENALTIES[checks.AMBUSH],
        ruling.scenario.switches.penalty_mode,
    )
    if sure:
        hit = True
        ruling.tell_public(
            {
                "text": say(
                    "The missile of {firer} hits {target} at once: it is destroyed.",
                    firer=firer.public["name"],
                    target=target.public["name"],
                    rules=("BMF-R10", "BMF-A09"),
                )
            }
        )
    else:
        _values, outcome = checks.shot(percent).roll(lambda label, die: ruling.roll(label, die))
        hit = outcome == checks.HIT
        ruling.tell_public(
            {
                "text": say(
                    "{target}: {result} ({percent}% to hit).",
                    result=say("destroyed") if hit else say("missed"),
                    target=target.public["name"],
                    percent=percent,
                    rules=("BMF-R11",),
                )
            }
        )
    rest = [m for m in movers if not (hit and m == target.id)]
    if hit:
        ruling.remove(target.id)  # BMF-R11: before any return fire
    ruling.change(
        Pending(
            move={
                "kind": "ambush",
                "side": side,
                "then": then,
                "movers": rest,
                "firer": firer.id,
                "target": None if hit or answered else target.id,
            }
        )
    )
    if hit or answered:
        ruling.open_window(RETREAT, asks=(firer.owner,))
    else:
        ruling.open_window(RETURN_FIRE, asks=(target.owner,))


def launch(
    ruling: Rules,
    side: str,
    fired: triggers.Fired,
    movers: list[str],
    then: str = units.MOVE,
) -> None:
    """BMF-A10, A23: an ATGM's ambush at exactly 1250 m has its normal flight time. In this
    game that means: the missile is launched where the trigger came, the target's move goes
    on to its end, and the missile arrives when the move ends (:func:`land`), at the target
    where it then is. With ``bmf.atgm_reveal_at = launch`` (DEFAULT) the launcher and its
    reveal area are shown at the launch, and the target's side is asked at once whether it
    fires back at the launcher (R12, -10) while the missile flies; a launcher destroyed
    then loses its missile. With ``arrival``, nothing is shown at the launch: the move goes
    on as if nothing had happened, and the reveal, the hit and the return fire all come
    when the missile arrives."""
    order = ruling.piece(fired.order)
    firer = ruling.piece(order.secret["unit"])
    target = ruling.piece(fired.target)
    units.note(ruling, firer, Did.FIRED)
    at_launch = ruling.scenario.switches.atgm_reveal_at is AtgmRevealAt.LAUNCH
    ruling.update(order.id, secret={"flight": {"target": target.id, "seen": at_launch}})
    if not at_launch:
        return  # the walk goes on, unseen (movement.advance)
    _reveal(ruling, order.id, target.id)
    ruling.tell_public(
        {
            "text": say(
                "Its missile is in flight: it reaches {target} when the move ends.",
                target=target.public["name"],
                rules=("BMF-A10", "BMF-A23"),
            )
        }
    )
    ruling.change(
        Pending(
            move={
                "kind": "launch",
                "side": side,
                "then": then,
                "movers": movers,
                "firer": firer.id,
                "target": target.id,
                "order": order.id,
            }
        )
    )
    ruling.open_window(RETURN_FIRE, asks=(target.owner,))


def flying(ruling: Rules, side: str) -> list[str]:
    """The orders of the side's enemies whose missile is in flight, earliest first."""
    found = [
        p
        for p in ruling.state.pieces.values()
        if p.kind == ORDER and p.owner != side and "flight" in p.secret
    ]
    return [p.id for p in sorted(found, key=lambda p: int(p.public["number"]))]


def land(ruling: Rules, side: str, then: str = units.MOVE) -> bool:
    """The first missile in flight at the moving side arrives, now that the move has ended
    (BMF-A10). True if one did something (it may have opened a window)."""
    for order_id in flying(ruling, side):
        order = ruling.piece(order_id)
        flight = order.secret["flight"]
        target_id = str(flight["target"])
        if order.secret["unit"] not in ruling.state.pieces:
            ruling.remove(order_id)  # its launcher is gone: so is the missile
            continue
        if target_id not in ruling.state.pieces:
            if flight["seen"]:
                ruling.tell_public({"text": say("The missile finds no target.")})
            ruling.remove(order_id)
            continue
        if not flight["seen"]:
            _reveal(ruling, order_id, target_id)  # BMF-A23: at the arrival
        else:  # its launch was told: now its arrival, before its roll (BMF-A10)
            ruling.tell_public(
                {
                    "text": say(
                        "The missile of {firer} arrives at {target}.",
                        firer=ruling.piece(order.secret["unit"]).public["name"],
                        target=ruling.piece(target_id).public["name"],
                        rules=("BMF-A10",),
                    )
                }
            )
        _hit(
            ruling,
            side,
            order_id,
            target_id,
            [],
            then,
            answered=bool(flight["seen"]),
        )
        ruling.remove(order_id)
        return True
    return False


def strength(scenario: AmbushFireScenario) -> bool:
    """Does the host's close combat roll strength numbers (BMF-A02's other reading)?"""
    return scenario.switches.close_combat is checks.CloseCombatReading.STRENGTH


def reply(scenario: AmbushFireScenario, close: bool, base: int) -> int:
    """The number a reply to an Ambush Fire (R12) or an Ambush Close Combat (R17) is rolled
    at, from the base the replying side gives."""
    sw = scenario.switches
    if close:
        return checks.defence(base, sw.penalty_mode, sw.close_combat, sw.strength_rounding)
    return checks.chance(base, checks.Penalty.RETURN_AMBUSH, sw.penalty_mode)


def after(ruling: Rules, window: Window) -> None:
    scenario = ruling.scenario
    pending = ruling.board.pending
    assert pending is not None
    (answer,) = window.answers.values()
    firer = ruling.piece(str(pending["firer"]))
    if window.name == RETURN_FIRE:
        target = ruling.piece(str(pending["target"]))
        firer_gone = False
        if answer.get("fire"):
            close = pending["kind"] == "close_combat"
            if not close:  # a defence in close combat is no fire (BMF-A12)
                units.note(ruling, target, Did.RETURNED_FIRE)
            percent = reply(scenario, close, int(answer.get("chance", 0)))
            _values, outcome = checks.shot(percent).roll(lambda label, die: ruling.roll(label, die))
            firer_gone = outcome == checks.HIT
            result = say("the ambusher is destroyed") if firer_gone else say("a miss")
            if close and strength(scenario):
                # BMF-R17, A02's other reading: nine tenths of the defender's strength.
                text = say(
                    "The defence of {target} (strength {percent}: nine tenths of {base} for "
                    "the surprise): {result}.",
                    target=target.public["name"],
                    percent=percent,
                    base=int(answer.get("chance", 0)),
                    result=result,
                    rules=("BMF-R17", "BMF-A02"),
                )
            elif close:
                # BMF-R17, A02: a defensive close combat, 10 less for the surprise.
                text = say(
                    "The defence of {target} ({percent}%, 10 less for the surprise): {result}.",
                    target=target.public["name"],
                    percent=percent,
                    result=result,
                    rules=("BMF-R17", "BMF-A02"),
                )
            else:
                text = say(
                    "Return fire from {target} at the ambusher ({percent}%, 10 less than "
                    "normal): {result}.",
                    target=target.public["name"],
                    percent=percent,
                    result=result,
                    rules=("BMF-R12",),
                )
            ruling.tell_public({"text": text})
        launched = pending["kind"] == "launch"
        if firer_gone:
            ruling.remove(firer.id)
            if launched:
                ruling.remove(str(pending["order"]))
                ruling.tell_public({"text": say("Its missile is lost.", rules=("BMF-A10",))})
        if firer_gone or launched:
            _go_on(ruling, pending)
            return
        ruling.change(Pending(move={**pending, "target": None}))
        ruling.open_window(RETREAT, asks=(firer.owner,))
        return
    # RETREAT: the ambusher's path was checked when it was given.
    path = answer.get("path") or []
    if path:
        end = units.xy(metres(scenario, (path[-1][0], path[-1][1])))
        ruling.update(firer.id, public={"at": end})
        ruling.tell_public(
            {
                "text": say(
                    "{firer}: a retreat to {x}, {y}.",
                    firer=firer.public["name"],
                    x=units.told(ruling, end)[0],
                    y=units.told(ruling, end)[1],
                    rules=("BMF-R13",),
                )
            }
        )
    _go_on(ruling, pending)


def _go_on(ruling: Rules, pending: Mapping[str, Any]) -> None:
    movers = [str(m) for m in pending["movers"] if m in ruling.state.pieces]
    ruling.change(Pending())
    units.go_on(ruling, str(pending["side"]), movers, str(pending["then"]))


def retreat(ruling: Rules, side: str, command: Retreat) -> None:
    """Check a retreat before it is taken (BMF-R13, A11, A21): at most 50 m, ending farther
    from the enemy the side can see, never through impassable ground."""
    scenario = ruling.scenario
    pending = ruling.board.pending
    assert pending is not None
    if not command.path:
        return
    firer = ruling.piece(str(pending["firer"]))
    start = units.where(firer)
    path = [metres(scenario, (p[0], p[1])) for p in command.path]
    counts_concealed = scenario.switches.retreat_counts_concealed
    enemies = [
        units.where(p)
        for p in ruling.state.pieces.values()
        if p.kind == UNIT
        and p.owner != side
        and (counts_concealed or ruling.state.can_see(side, p.id))
    ]
    ground = units.ground(scenario)
    # A place off the ground (1e308 inches is infinite metres) is refused as any bad path.
    off = not all(ground.on_ground(p) for p in path)
    if off or not geometry.retreat_ok(start, path, enemies, ground):
        raise Refusal(
            BAD_RETREAT,
            "A retreat goes at most 50 metres, away from the enemy, and never through "
            "impassable ground.",
            field="path",
        )
