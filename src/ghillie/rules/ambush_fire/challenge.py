"""Challenge Fire by standing order (issue 14; BMF-R01, R03..R06, A04, A05, A22).

When a Challenge Fire order fires, the movers stop there, the order is opened (its proof
shows it was written before), the firer is revealed to the side it fired at (BMF-A22; with
``bmf.fire_reveals`` off it stays concealed, and is not fired back at), and a reaction
window asks the target's side whether it fires back (BMF-R04) — it is asked
whatever its weapon faces, and refused a shot if it does not face the firer. When it
answers, both shots are rolled together (A05), a destroyed unit is removed, and a column
whose lead vehicle is destroyed stops (R06); otherwise the move goes on from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghillie.errors import Refusal
from ghillie.state import Level, Window
from ghillie.words import say

from . import checks, facing, transit, triggers, units
from .board import Did, Rules
from .changes import Pending
from .commands import ReturnFire
from .setup import open_order
from .units import RETURN_FIRE

NOT_FACING = "not_facing"


def fire(
    ruling: Rules,
    side: str,
    fired: triggers.Fired,
    movers: list[str],
) -> None:
    scenario = ruling.scenario
    order = ruling.piece(fired.order)
    firer = ruling.piece(order.secret["unit"])
    target = ruling.piece(fired.target)
    # BMF-A22: the firer is revealed to the side it fired at, where and what it is; with
    # ``bmf.fire_reveals`` off a concealed firer stays concealed, as after normal fire. Its
    # order is then not opened either (its words name the unit): that it was given before
    # the move is the audit's to check, from the record, after the game.
    unseen = bool(firer.public.get("concealed")) and not scenario.switches.fire_reveals
    if not unseen:
        open_order(ruling, order.id)
        for other in ruling.state.others(order.owner):
            if firer.public.get("concealed"):
                at = units.xy(firer.secret["at"])
                ruling.update(firer.id, public={"at": at, "concealed": False})
            ruling.reveal(firer.id, other, Level.IDENTIFIED)
    units.note(ruling, ruling.piece(firer.id), Did.CHALLENGED)
    units.note(ruling, ruling.piece(firer.id), Did.FIRED)
    percent = checks.chance(
        int(order.secret["chance"]), checks.Penalty.CHALLENGE, scenario.switches.penalty_mode
    )
    ruling.change(
        Pending(
            move={
                "kind": "challenge",
                "movers": movers,
                "order": order.id,
                "target": target.id,
                "firer": firer.id,
                "percent": percent,
            }
        )
    )
    line = {
        "text": say(
            "Challenge Fire from {firer} at {target} as it crosses the open ground "
            "({percent}% to hit, 10 less than normal)!",
            firer=firer.public["name"],
            target=target.public["name"],
            percent=percent,
            rules=("BMF-R01", "BMF-R03"),
        )
    }
    if not unseen:
        ruling.tell_public(line)
        ruling.open_window(RETURN_FIRE, asks=(target.owner,))
        return
    # Unseen: the target's side learns it is fired at, not by which unit nor at what chance
    # (which would tell the weapon and the range), and has no firer to fire back at (R04):
    # the shot is rolled at once, whatever the firer's secrets, and the move goes on.
    ruling.tell(order.owner, line)
    unseen_line = say(
        "Challenge Fire from an unseen unit at {target} as it crosses the open ground!",
        target=target.public["name"],
        rules=("BMF-R01", "BMF-A22"),
    )
    for other in ruling.state.others(order.owner):
        ruling.tell(other, {"text": unseen_line})
    _exchange(ruling, {"fire": False})


def check_reply(ruling: Rules, side: str, command: ReturnFire) -> None:
    pending = ruling.board.pending
    assert pending is not None
    if command.fire and pending["kind"] == "challenge":
        order = ruling.piece(str(pending["order"]))
        firer = ruling.piece(order.secret["unit"])
        target = ruling.piece(str(pending["target"]))
        if not facing.faces(target, units.where(firer)):  # its turret's, if it has one
            raise Refusal(
                NOT_FACING,
                "Its weapon does not face the firer: it may not fire back.",
                field="fire",
            )


def shots(ruling: Rules, window: Window) -> None:
    """Both shots together (BMF-A05), casualties after; a column whose lead vehicle is
    destroyed stops (R06); otherwise the move goes on."""
    (answer,) = window.answers.values()
    _exchange(ruling, answer)


def _exchange(ruling: Rules, answer: Mapping[str, Any]) -> None:
    scenario = ruling.scenario
    pending = ruling.board.pending
    assert pending is not None
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
                "{target}: {result} by the Challenge Fire.",
                result=say("destroyed") if hit else say("missed"),
                target=target.public["name"],
                rules=("BMF-A05",),
            )
        }
    )
    if answer.get("fire"):
        units.note(ruling, target, Did.RETURNED_FIRE)
        ruling.tell_public(
            {
                "text": say(
                    "Return fire from {target} ({percent}%, 20 less than normal): {result}.",
                    target=target.public["name"],
                    percent=reply,
                    result=say("the firer is destroyed") if hit_back else say("a miss"),
                    rules=("BMF-R04",),
                )
            }
        )
    ruling.remove(order.id)
    ruling.change(Pending())
    movers = [str(m) for m in pending["movers"] if m != target.id or not hit]
    if hit_back:
        ruling.remove(firer.id)
    if hit:
        ruling.remove(target.id)
    if hit and target.id in pending["movers"]:
        # BMF-R06: the first vehicle through the gap destroyed, the rest of the column stops.
        ground = units.ground(scenario)
        if movers:
            # Told to the other side only if it can see one of them: a concealed mover in
            # the column is no one's business but its owner's (BMF S1).
            line = {"text": say("The rest of the column stops.", rules=("BMF-R06",))}
            if any(not ruling.piece(m).public.get("concealed") for m in movers):
                ruling.tell_public(line)
            else:
                ruling.tell(target.owner, line)
        for m in movers:
            piece = ruling.piece(m)
            concealed = bool(piece.public.get("concealed"))
            stop = piece.secret["route"][0]
            walked = (piece.secret.get("walk") or {}).get("walked") or piece.secret.get("untold")
            if concealed and walked:  # its crossings, whole, now that its move has ended
                path = [(float(p[0]), float(p[1])) for p in walked]
                transit.tell_crossings(ruling, ground, m, path)
            units.arrive(ruling, m, stop)
            if concealed:  # BMF S2, S3: concealed again in cover, revealed in the open
                transit.ends(ruling, ground, m, (float(stop[0]), float(stop[1])))
        # The move has ended: a missile in flight lands (BMF-A10), and a live side still
        # gets the rest of the move's prompts (``live``).
        units.go_on(ruling, target.owner, [])
        return
    units.go_on(ruling, target.owner, movers)
