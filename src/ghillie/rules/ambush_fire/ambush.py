"""Ambush Fire by standing order (issue 14; BMF-R07..R13, A06..A08, A11, A13, A21): the
reveal, casualties first, return fire at -10 in a window, then the ambusher's retreat in
another; the same return and retreat windows follow an Ambush Close Combat (R16..R18)."""

from __future__ import annotations

from typing import Any

from ghillie.errors import Refusal
from ghillie.ruling import Ruling
from ghillie.state import Level, Window
from ghillie.words import say

from . import checks, geometry, triggers, units
from .board import UNIT, Board, Did
from .scenario import AmbushFireScenario
from .setup import metres
from .units import RETREAT, RETURN_FIRE

BAD_RETREAT = "bad_retreat"


def fire(
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
        ruling.update(unit_id, public={"at": unit.secret["at"], "concealed": False})
        for other in ruling.state.others(unit.owner):
            ruling.reveal(unit_id, other, Level.IDENTIFIED)
    units.note(ruling, ruling.piece(firer.id), Did.FIRED)
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


def after(ruling: Ruling[Board], scenario: AmbushFireScenario, window: Window) -> None:
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
            units.go_on(ruling, scenario, target.owner, movers)
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
        units.go_on(ruling, scenario, mover_side, movers)


def retreat(ruling: Ruling[Board], scenario: AmbushFireScenario, side: str, command: Any) -> None:
    """Check a retreat before it is taken (BMF-R13, A11, A21): at most 50 m, ending farther
    from the enemy the side can see, never through impassable ground."""
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
    verdict = geometry.retreat_ok(start, path, enemies, units.ground(scenario))
    if not verdict.ok:
        raise Refusal(
            BAD_RETREAT,
            "A retreat goes at most 50 metres, away from the enemy, and never through "
            "impassable ground.",
            field="path",
        )
