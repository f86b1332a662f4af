"""The game's first event and its set-up: the units, where the concealed ones wait (their
owner's secret), and standing orders written down before the game (BMF S1), all of a side's
in its Ready: one event whatever their number, so that their number is not told (issue 24)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.state import Level, Phase, Piece
from ghillie.words import say, says

from . import facing, geometry, triggers
from .board import ORDER, UNIT, Rules
from .changes import Deployed, OrderGiven, TurnBegins
from .commands import Conceal, Ready, StandingOrder
from .scenario import AmbushFireScenario
from .words import order_words

BAD_PLACE = "bad_place"
BAD_ZONE = "bad_zone"
NOT_CONCEALED = "not_concealed"
NOT_PLACED = "not_placed"
NEEDS_ZONE = "needs_zone"
NO_TURRET = "no_turret"
# What a standing order's opening shows when it fires: its words, which state its unit, its
# trigger's every number and its base chance (one line on a page, checked against the
# commitment). Its trigger as data and its note stay its owner's.
OPENED = ("order",)


def open_order(ruling: Rules, order_id: str) -> None:
    """A standing order fires: its words opened to every other side, against the commitment
    that proves it was written before. A reaction given live (``live.py``) was written in
    this very event, so there is nothing earlier to prove: its words are told instead."""
    order = ruling.piece(order_id)
    if order.public.get("live"):
        ruling.tell_public({"text": say("Reacting live: {order}.", order=order.secret["order"])})
        return
    for other in ruling.state.others(order.owner):
        ruling.open(order.id, other, *OPENED)


def create(ruling: Rules) -> None:
    for u in ruling.scenario.units:
        public: dict[str, Any] = {
            "key": u.key,
            "name": u.name,
            "class": u.unit_class.value,
            "diet": u.diet.value,
            "turret": u.turret,
            "arc": u.arc,
            "column": u.column,
            "concealed": u.concealed,
            "history": {},
        }
        secret: dict[str, Any] = {"running": dict(u.running)}
        # Its facing is as secret as the unit: a concealed one's is its owner's (``facing``).
        (secret if u.concealed else public).update(
            facing.start(u.facing, u.turret, u.turret_facing)
        )
        if not u.concealed and u.at is not None:
            public["at"] = list(u.at)
        piece = Piece(ruling.new_id(), u.side, UNIT, public, secret)
        # A concealed unit is not on the table at all (BMF S1): the enemy does not know it.
        others = ruling.state.others(u.side)
        ruling.place(piece, {} if u.concealed else dict.fromkeys(others, Level.IDENTIFIED))
    ruling.tell_public({"text": say("The forces are drawn up; the concealed ones wait unseen.")})


def metres(scenario: AmbushFireScenario, at: tuple[float, float]) -> tuple[float, float]:
    """A place as ghillie holds it, in metres on the ground, from a place as a player gives
    it: inches from the table's top-left corner, at the scenario's ground scale — measured
    on a real table, or tapped on ghillie's map, which draws the same table."""
    return geometry.point_to_metres(at, scenario.ground_scale)


def inches(scenario: AmbushFireScenario, at: Sequence[float]) -> tuple[float, float]:
    """A place in metres as a player reads it: inches from the table's top-left corner."""
    scale = scenario.ground_scale
    return (round(float(at[0]) / scale, 1), round(float(at[1]) / scale, 1))


def conceal(ruling: Rules, side: str, command: Conceal) -> None:
    scenario = ruling.scenario
    ground = geometry.Ground(scenario.width, scenario.depth)
    placed: list[Piece] = []
    for i, entry in enumerate(command.units):
        unit = lookup.own(ruling.state, side, entry.unit, [UNIT])
        if not unit.public["concealed"] or unit.id in {p.id for p in placed}:
            raise Refusal(
                NOT_CONCEALED,
                "Give a place to each concealed unit, once.",
                field=f"units.{i}.unit",
            )
        where = metres(scenario, entry.at)
        if not ground.on_ground(where):
            raise Refusal(BAD_PLACE, "That place is off the ground.", field=f"units.{i}.at")
        secret: dict[str, Any] = {"at": list(where)}
        if entry.turret is not None and not unit.public.get("turret"):
            raise Refusal(NO_TURRET, "That unit has no turret.", field=f"units.{i}.turret")
        if entry.facing is not None:
            secret.update(facing.start(entry.facing, False, None))
            if unit.public.get("turret"):  # the turret turns with it (``facing``)
                turned = facing.weapon(unit) + entry.facing - facing.hull(unit)
                secret["turret_facing"] = facing.number(turned)
        if entry.turret is not None:
            secret["turret_facing"] = facing.number(entry.turret)
        if entry.note:
            secret["note"] = entry.note
        ruling.update(unit.id, secret=secret)
        placed.append(unit)
    ruling.tell(
        side,
        {
            "text": says(
                "{n} concealed unit recorded.", "{n} concealed units recorded.", len(placed)
            )
        },
    )


def standing_order(
    ruling: Rules,
    side: str,
    order: StandingOrder,
    at: str,
) -> None:
    """A standing order is a piece of its own that only its owner knows, written once: when
    it fires, its opening proves the event that wrote it (docs/fairness.md). ``at`` is where
    the order stands in the command (``orders.2``), for a refusal to name its field."""
    scenario = ruling.scenario
    try:
        unit = lookup.own(ruling.state, side, order.unit, [UNIT])
    except Refusal as refused:
        refused.field = f"{at}.unit"  # the same refusal, beside the order it concerns
        raise
    entered = order.trigger.model_dump(mode="json")
    # The rules read the zone in metres; the words keep the places as the owner gave them.
    trigger = {**entered, "zone": [list(metres(scenario, (p[0], p[1]))) for p in entered["zone"]]}
    ground = geometry.Ground(scenario.width, scenario.depth)
    for i, point in enumerate(trigger["zone"]):
        if not ground.on_ground((point[0], point[1])):
            raise Refusal(
                BAD_PLACE, "That place is off the ground.", field=f"{at}.trigger.zone.{i}"
            )
    try:
        triggers.zone([(p[0], p[1]) for p in trigger["zone"]], float(trigger["radius"]))
    except ValueError:
        # Refused now, or it would break every move of the enemy's it is checked against.
        raise Refusal(
            BAD_ZONE,
            "A zone is a point, a gap between two different points, or a street through "
            "two or more different points.",
            field=f"{at}.trigger.zone",
        ) from None
    if (
        order.reaction.value == "challenge"
        and not trigger["zone"]
        and scenario.switches.challenge_requires_zone
    ):
        # BMF-A04: it would never fire; the side is told so now rather than never.
        raise Refusal(
            NEEDS_ZONE,
            "Challenge Fire is taken at a zone given in advance: give its zone.",
            field=f"{at}.trigger.zone",
        )
    secret: dict[str, Any] = {
        "unit": unit.id,
        "reaction": order.reaction.value,
        "trigger": trigger,
        "order": order_words(str(unit.public["name"]), order.reaction.value, entered, order.chance),
        "chance": order.chance,
    }
    if order.note:
        secret["note"] = order.note
    number = ruling.board.orders.get(side, 0) + 1
    ruling.change(OrderGiven(side))
    ruling.place(Piece(ruling.new_id(), side, ORDER, {"number": number}, secret))
    ruling.tell(
        side,
        {
            # Its owner reads what it ordered, in the words its opening will show (issue 25).
            "text": say(
                "Standing order {n} written: {order}. ghillie carries it out when its trigger "
                "comes, with no prompt.",
                n=number,
                order=secret["order"],
            )
        },
    )


def ready(ruling: Rules, side: str, command: Ready) -> None:
    scenario = ruling.scenario
    unplaced = [
        p for p in ruling.state.owned(side, UNIT) if p.public["concealed"] and "at" not in p.secret
    ]
    if unplaced:
        # Only its owner can be refused this, and it knows its own units: nothing leaks.
        raise Refusal(
            NOT_PLACED,
            "Record where each concealed unit waits before you are ready.",
            field="units",
        )
    for i, order in enumerate(command.orders):
        standing_order(ruling, side, order, f"orders.{i}")
    if not command.orders:
        ruling.tell(side, {"text": say("You give no standing orders.")})
    ruling.change(Deployed(side))
    if ruling.board.deployed >= set(ruling.state.sides):
        ruling.set_phase(Phase.PLAY)
        ruling.change(TurnBegins(1, scenario.first))
        ruling.tell_public(
            {"text": say("Turn 1: {side} move first.", side=scenario.side_name(scenario.first))}
        )
