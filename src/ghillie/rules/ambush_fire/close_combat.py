"""Ambush Close Combat by standing order (issue 14; BMF-R14..R19, A02, A16)."""

from __future__ import annotations

from ghillie.state import Level
from ghillie.words import say

from . import checks, geometry, triggers, units
from .board import Did, Rules
from .changes import Pending
from .setup import open_order
from .units import RETREAT, RETURN_FIRE


def attack(
    ruling: Rules,
    side: str,
    fired: triggers.Fired,
    movers: list[str],
    then: str = units.MOVE,
) -> None:
    """BMF-R14..R19: the concealed attacker dashes out at the enemy. If it makes contact,
    its attack comes first and casualties come off at once (R16); a surviving defender
    fights back at -10 (R17), then the attacker may retreat (R18). If it does not reach
    its target (too far over that ground, or blocked), it is left in the open where its
    dash ended (R19, A16), and it cannot move again this turn."""
    scenario = ruling.scenario
    order = ruling.piece(fired.order)
    attacker = ruling.piece(order.secret["unit"])
    target = ruling.piece(fired.target)
    open_order(ruling, order.id)
    run = geometry.dash(
        units.where(attacker), fired.point, dict(attacker.secret["running"]), units.ground(scenario)
    )
    end = units.xy(run.end)
    ruling.update(attacker.id, public={"at": end, "concealed": False})
    for other in ruling.state.others(attacker.owner):
        ruling.reveal(attacker.id, other, Level.IDENTIFIED)
    units.note(ruling, ruling.piece(attacker.id), Did.MOVED)
    units.note(ruling, ruling.piece(attacker.id), Did.CLOSE_COMBAT)
    ruling.remove(order.id)
    if not run.contact:
        where = {
            "attacker": attacker.public["name"],
            "target": target.public["name"],
            "x": units.told(ruling, end)[0],
            "y": units.told(ruling, end)[1],
        }
        # Only a blocked dash is made and fails: one its run cannot reach is never made
        # (BMF-R15, ``reach``); "short of it" stays for a dash a hair short at its edge.
        if run.reason == geometry.BLOCKED:
            text = say(
                "Ambush Close Combat: {attacker} out of cover in a dash at {target}, but "
                "impassable ground blocks the way! Left in the open at {x}, {y}; no more "
                "moving this turn.",
                rules=("BMF-R19", "BMF-A16"),
                **where,
            )
        else:
            text = say(
                "Ambush Close Combat: {attacker} out of cover in a dash at {target}, but "
                "short of it! Left in the open at {x}, {y}; no more moving this turn.",
                rules=("BMF-R19", "BMF-A16"),
                **where,
            )
        ruling.tell_public({"text": text})
        units.go_on(ruling, side, movers, then)
        return
    percent = checks.chance(int(order.secret["chance"]), 0, scenario.switches.penalty_mode)
    _values, outcome = checks.shot(percent).roll(lambda label, die: ruling.roll(label, die))
    hit = outcome == checks.HIT
    ruling.tell_public(
        {
            "text": say(
                "Ambush Close Combat: {attacker} out of cover in a dash at {target}! "
                "{target}: {result} ({percent}%).",
                attacker=attacker.public["name"],
                target=target.public["name"],
                result=say("destroyed") if hit else say("survived"),
                percent=percent,
                rules=("BMF-R14", "BMF-R16"),
            )
        }
    )
    rest = [m for m in movers if not (hit and m == target.id)]
    if hit:
        ruling.remove(target.id)
    ruling.change(
        Pending(
            move={
                "kind": "close_combat",
                "side": side,
                "then": then,
                "movers": rest,
                "firer": attacker.id,
                "target": None if hit else target.id,
            }
        )
    )
    if hit:
        ruling.open_window(RETREAT, asks=(attacker.owner,))
    else:
        ruling.open_window(RETURN_FIRE, asks=(target.owner,))
