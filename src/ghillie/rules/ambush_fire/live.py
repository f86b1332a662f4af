"""Reactions given live, with prompts that give nothing away (issue 14).

A side the scenario names ``live`` is asked after every leg of every enemy move — each
move is walked in ``scenario.legs`` equal legs — with the same window (``react``), the same
wording and the same time limit, whatever its units could do: being asked says nothing.
The leg length is the longest path of the movers the asked side can see, divided by the
number of legs (of the concealed ones if every mover is concealed), so where a visible
mover pauses never depends on a concealed mover's secret path; the last leg goes on to
every mover's end. Standing orders fire in between as ever. The answer is ``hold`` (the
default when the time runs out) or a reaction, which ghillie carries out exactly as a
standing order that fires at the target where it stands: an order piece written in this
event (its words told, not opened: there is no earlier commitment to prove), then
``ambush.fire``, ``close_combat.attack`` or ``challenge.fire``, and the walk goes on.

Where nobody is asked (no live side but the mover), a move is walked as before, in one go.
"""

from __future__ import annotations

from typing import Any

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.state import Piece, Window

from . import ambush, challenge, close_combat, eligibility, geometry, triggers, units
from .board import ORDER, UNIT, Rules
from .changes import OrderGiven, Walk
from .commands import Live, React
from .words import live_words

REACT = "react"  # the window

NOT_ELIGIBLE = "not_eligible"
OUT_OF_RANGE = "out_of_range"
NEEDS_ZONE = "needs_zone"
NOT_EXPOSED = "not_exposed"
NO_UNIT = "no_unit"
NO_LIVE_TARGET = "no_target"

NO_TRIGGER = {"zone": [], "radius": 0, "within": None, "target_class": None}


def asked(ruling: Rules, side: str) -> tuple[str, ...]:
    """The live sides asked during ``side``'s moves, in turn order from it (public)."""
    sides = ruling.state.sides
    start = sides.index(side)
    return tuple(s for s in (*sides[start + 1 :], *sides[:start]) if s in ruling.scenario.live)


def begin(ruling: Rules, side: str, movers: list[str]) -> None:
    """A move begins: if anyone is asked, fix its leg length on the movers (in secret)."""
    if not asked(ruling, side):
        return
    routes = {m: ruling.piece(m).secret["route"] for m in movers}
    seen = [m for m in movers if not ruling.piece(m).public.get("concealed")]
    longest = max(geometry.path_length(routes[m]) for m in (seen or movers))
    leg = longest / ruling.scenario.legs
    for n, m in enumerate(movers):
        walk = {"leg": leg, "along": 0, "walked": [routes[m][0]], "n": n}
        ruling.update(m, secret={"walk": walk})
    ruling.change(Walk(walk={"side": side, "prompted": 0}))


def leg_left(ruling: Rules, walkers: list[str]) -> float | None:
    """How far the movers walk before this leg ends; None: to their ends (the last leg, or
    nobody is asked)."""
    walk = ruling.board.walk
    if walk is None or int(walk["prompted"]) >= ruling.scenario.legs - 1:
        return None
    secrets = [ruling.piece(m).secret.get("walk") for m in walkers]
    found = [w for w in secrets if w is not None]
    if not found:
        return 0.0  # the column stopped: the leg ends where it stands
    leg = float(found[0]["leg"])
    along = max(float(w["along"]) for w in found)
    return max((int(walk["prompted"]) + 1) * leg - along, 0.0)


def prompt(ruling: Rules, side: str) -> None:
    """A leg has ended: ask the live sides, the same way every time."""
    walk = ruling.board.walk
    assert walk is not None
    ruling.change(Walk(walk={**walk, "prompted": int(walk["prompted"]) + 1}))
    ruling.open_window(REACT, asks=asked(ruling, side), limit=ruling.scenario.prompt_seconds)


def move_ends(ruling: Rules, side: str) -> None:
    """The movers have arrived and the missiles landed: the last prompt, or the walk's end."""
    scenario = ruling.scenario
    walk = ruling.board.walk
    if walk is None:
        return
    if int(walk["prompted"]) < scenario.legs:
        ruling.change(Walk(walk={**walk, "prompted": scenario.legs}))
        ruling.open_window(REACT, asks=asked(ruling, side), limit=scenario.prompt_seconds)
        return
    ruling.change(Walk())


def walking(ruling: Rules, side: str) -> list[str]:
    """The units of ``side`` still on the way, in the order the move gave them."""
    found = [p for p in ruling.state.owned(side, UNIT) if "route" in p.secret]
    return [p.id for p in sorted(found, key=lambda p: int(p.secret.get("walk", {}).get("n", 0)))]


OUT_OF_REACH = (
    "Its target is beyond its reach: half its running distance over the ground between them."
)


def check(ruling: Rules, side: str, command: React) -> None:
    """Refuse a reaction the rules do not allow now (the state unchanged)."""
    scenario = ruling.scenario
    if command.reaction is Live.HOLD:
        return
    if command.unit is None or command.target is None:
        raise Refusal(NO_UNIT, "Choose the unit that reacts and its target.", field="unit")
    unit = lookup.own(ruling.state, side, command.unit, [UNIT])
    target = lookup.enemy(ruling.state, side, command.target, [UNIT])
    if not ruling.state.can_see(side, target.id) or target.public.get("concealed"):
        raise Refusal(NO_LIVE_TARGET, "React at an enemy unit in view.", field="target")
    reaction = command.reaction.value
    if reaction == "challenge" and scenario.switches.challenge_requires_zone:
        raise Refusal(
            NEEDS_ZONE,
            "Challenge Fire is taken at a zone given in advance: give it as a standing order.",
            field="reaction",
        )
    barred = eligibility.barred(unit, reaction, ruling.board.turn)
    if barred is not None:
        raise Refusal(NOT_ELIGIBLE, barred, field="unit")
    if any(
        p.kind == ORDER and p.secret.get("unit") == unit.id and "flight" in p.secret
        for p in ruling.state.owned(side, ORDER)
    ):
        raise Refusal(NOT_ELIGIBLE, "Its missile is still in flight.", field="unit")
    at, firer = units.where(target), units.where(unit)
    far = geometry.distance(at, firer)
    if reaction == "close_combat":
        # BMF-R15, T08: measured over the ground the dash crosses (woods slow it); a dash
        # blocked by impassable ground within its reach is made, and fails (R19).
        if not geometry.reaches(firer, at, unit.secret["running"], units.ground(scenario)):
            raise Refusal(OUT_OF_RANGE, OUT_OF_REACH, field="target")
        return
    if not geometry.in_ambush_range(far):
        raise Refusal(OUT_OF_RANGE, "Its target is beyond 1250 metres.", field="target")
    if reaction == "challenge" and units.ground(scenario).is_concealing(at):
        raise Refusal(
            NOT_EXPOSED, "Challenge Fire takes a target on exposed ground.", field="target"
        )


def close(ruling: Rules, window: Window) -> None:
    """Every side asked has answered: carry out the first reaction given, if any; then the
    walk goes on (or, after the last leg, the move is over)."""
    walk = ruling.board.walk
    assert walk is not None
    side = str(walk["side"])
    movers = walking(ruling, side)
    for asked_side in window.asks:
        answer = window.answers[asked_side]
        if answer.get("reaction", Live.HOLD.value) != Live.HOLD.value:
            _carry_out(ruling, side, asked_side, answer, movers)
            return
    units.go_on(ruling, side, movers)


def _carry_out(
    ruling: Rules,
    side: str,
    owner: str,
    answer: dict[str, Any] | Any,
    movers: list[str],
) -> None:
    """The reaction, as a standing order written now that fires at once at its target."""
    # Named as the check read them (a key or an id alike): the answer is kept as given.
    unit = lookup.own(ruling.state, owner, str(answer["unit"]), [UNIT])
    target = lookup.enemy(ruling.state, owner, str(answer["target"]), [UNIT])
    reaction = str(answer["reaction"])
    chance = int(answer.get("chance", 0))
    number = ruling.board.orders.get(owner, 0) + 1
    ruling.change(OrderGiven(owner))
    secret = {
        "unit": unit.id,
        "reaction": reaction,
        "trigger": dict(NO_TRIGGER),
        "order": live_words(str(unit.public["name"]), reaction, str(target.public["name"]), chance),
        "chance": chance,
    }
    public = {"number": number, "live": True}
    order = ruling.place(Piece(ruling.new_id(), owner, ORDER, public, secret))
    fired = triggers.Fired(order.id, target.id, 0.0, units.where(target))
    if reaction == "ambush":
        if ambush.unseen_launch(ruling, fired):
            ambush.launch(ruling, side, fired, movers)
            units.go_on(ruling, side, movers)  # it flies unseen (BMF-A23)
        else:
            ambush.fire(ruling, side, fired, movers)
    elif reaction == "close_combat":
        close_combat.attack(ruling, side, fired, movers)
    else:
        challenge.fire(ruling, side, fired, movers)
