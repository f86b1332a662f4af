"""ambush-fire in the players' words: its orders, its units, where the game stands. Every
chooser and sentence is built from what the reader can see."""

from __future__ import annotations

from typing import Any

from ghillie.forms import Ask, Choice, Order
from ghillie.state import REFEREE, Phase, Piece
from ghillie.words import N_, Say, say
from ghillie.words.piece import PieceWords

from . import facing
from .board import ORDER, UNIT, State, Step

CLASS_WORDS = {
    "infantry": N_("infantry"),
    "at_gun": N_("AT gun"),
    "atgm": N_("ATGM team"),
    "vehicle": N_("vehicle"),
    "artillery": N_("artillery"),
    "animal": N_("animal"),
}


def _own(state: State, side: str) -> list[Choice]:
    return [Choice(p.id, str(p.public["name"])) for p in state.owned(side, UNIT)]


def _movers(state: State, side: str) -> list[Choice]:
    """The side's units for a move, each with what moving it would void of its own standing
    orders (BMF-R07, R14, R02: ``voids``), shown once it is chosen."""
    from .voids import warnings

    return [
        Choice(p.id, str(p.public["name"]), warn=tuple(warnings(state, p)))
        for p in state.owned(side, UNIT)
    ]


def _enemies(state: State, side: str) -> list[Choice]:
    return [
        Choice(pid, str(state.pieces[pid].public["name"]))
        for pid in state.knowledge.get(side, {})
        if pid in state.pieces
        and state.pieces[pid].kind == UNIT
        and state.pieces[pid].owner != side
    ]


def _concealed(state: State, side: str) -> list[Choice]:
    return [
        Choice(p.id, str(p.public["name"]))
        for p in state.owned(side, UNIT)
        if p.public.get("concealed")
    ]


def _conceal_rows(state: State, side: str) -> dict[str, Any]:
    return {"units": [{"unit": c.value} for c in _concealed(state, side)]}


PATH_HELP = N_(
    "Waypoints, the last where it stops: inches across from the table's left edge and down "
    "from its top edge."
)

ORDERS: dict[str, Order] = {
    "conceal": Order(
        N_("Record the concealed units"),
        N_("Where each concealed unit waits, and which way it faces: only you and ghillie know."),
        fields={
            "units": Ask(N_("Concealed units"), item=N_("unit")),
            "units.unit": Ask(N_("Unit"), pieces=_concealed),
            "units.at": Ask(N_("Waits at"), kind="place", where="point"),
            "units.facing": Ask(
                N_("Faces"),
                N_(
                    "Degrees clockwise from the table's top edge: 0 toward the top, 90 toward "
                    "the right. As secret as the place."
                ),
                unit=N_("degrees"),
            ),
            "units.turret": Ask(
                N_("Turret faces"), N_("Only for a unit with a turret."), unit=N_("degrees")
            ),
            "units.note": Ask(N_("Note"), N_("For your eyes only.")),
        },
        defaults=_conceal_rows,
    ),
    "ready": Order(
        N_("Ready, with your standing orders"),
        N_(
            "Your forces are set up. Give here all your standing orders, if any: written in "
            "secret now, carried out by ghillie the moment the trigger comes, with no prompt; "
            "the proof shows they were given before. The enemy learns only that you are ready, "
            "never how many orders you gave. They cannot be changed once you are ready."
        ),
        fields={
            "orders": Ask(N_("Standing orders"), item=N_("standing order")),
            "orders.unit": Ask(N_("Unit"), pieces=_own),
            "orders.reaction": Ask(
                N_("Reaction"),
                options=(
                    ("challenge", N_("Challenge Fire at a zone")),
                    ("ambush", N_("Ambush Fire")),
                    ("close_combat", N_("Ambush Close Combat")),
                ),
            ),
            "orders.trigger": Ask(N_("Trigger")),
            "orders.trigger.zone": Ask(
                N_("Zone"),
                N_("A point, a gap (two points) or a street."),
                item=N_("point"),
                line=True,
            ),
            "orders.trigger.radius": Ask(N_("Zone radius"), unit=N_("metres")),
            "orders.trigger.within": Ask(N_("Fire at the first enemy within"), unit=N_("metres")),
            "orders.trigger.target_class": Ask(
                N_("Only at"), options=tuple((k, w) for k, w in CLASS_WORDS.items())
            ),
            "orders.chance": Ask(N_("Base chance to hit"), N_("From the host's tables."), unit="%"),
            "orders.note": Ask(N_("Note"), N_("For your eyes only.")),
        },
        rules=("BMF-A04",),
    ),
    "move": Order(
        N_("Move"),
        N_("A unit, or a column nose to tail through the same gap."),
        fields={
            "units": Ask(N_("Units"), item=N_("unit")),
            "units.unit": Ask(N_("Unit"), pieces=_movers),
            "units.path": Ask(N_("Path"), PATH_HELP, item=N_("waypoint"), line=True, starts="unit"),
        },
    ),
    "return_fire": Order(
        N_("Fire back or hold"),
        fields={
            "fire": Ask(N_("Fire back")),
            "chance": Ask(N_("Base chance to hit"), N_("From the host's tables."), unit="%"),
        },
        rules=("BMF-R04", "BMF-R12", "BMF-R17"),
    ),
    "retreat": Order(
        N_("Retreat or stay"),
        N_("Up to 50 metres away from the enemy, never through impassable ground; no path: stay."),
        fields={"path": Ask(N_("Path"), PATH_HELP, item=N_("waypoint"), line=True)},
        rules=("BMF-R13", "BMF-R18"),
    ),
    "react": Order(
        N_("React or hold"),
        N_(
            "Asked after every leg of every enemy move, whatever your units could do: hold, "
            "or react now with a unit at an enemy unit in view."
        ),
        fields={
            "reaction": Ask(
                N_("Reaction"),
                options=(
                    ("hold", N_("Hold fire")),
                    ("ambush", N_("Ambush Fire")),
                    ("close_combat", N_("Ambush Close Combat")),
                    ("challenge", N_("Challenge Fire")),
                ),
            ),
            "unit": Ask(N_("Unit"), pieces=_own),
            "target": Ask(N_("Target"), pieces=_enemies),
            "chance": Ask(N_("Base chance to hit"), N_("From the host's tables."), unit="%"),
        },
        rules=("BMF-R07", "BMF-R14", "BMF-A17"),
    ),
    "fire": Order(
        N_("Fire"),
        N_("At an enemy unit in view, with the base chance from the host's tables."),
        fields={
            "unit": Ask(N_("Firer"), pieces=_own),
            "target": Ask(N_("Target"), pieces=_enemies),
            "chance": Ask(N_("Base chance to hit"), unit="%"),
        },
        rules=("BMF-R05", "BMF-R19", "BMF-A22"),
    ),
    "end_step": Order(
        N_("End this step"),
        confirm=N_("End this step for your side? Your units cannot act in it any more."),
    ),
    "end_game": Order(N_("End the game"), confirm=N_("End the game for both sides?")),
}


REACTION_WORDS = {
    "challenge": "Challenge Fire",
    "ambush": "Ambush Fire",
    "close_combat": "Ambush Close Combat",
}
ARTICLE_CLASS = {
    "infantry": "infantry unit",
    "at_gun": "AT gun",
    "atgm": "ATGM team",
    "vehicle": "vehicle",
    "artillery": "artillery piece",
    "animal": "animal",
}


def _places(points: list[list[float]]) -> str:
    return " to ".join(f"{p[0]:g}, {p[1]:g}" for p in points)


def order_words(unit: str, reaction: str, trigger: dict[str, Any], chance: int) -> str:
    """A standing order in one sentence that states every number of it, as its owner gave
    it (places in inches from the table's corner, distances in metres). It is what the
    opening shows when the order fires, so both players can check that it fired as it was
    written. It is written into the record once, in English: a secret is a fact, not a line
    to translate."""
    what = ARTICLE_CLASS.get(str(trigger.get("target_class") or ""), "enemy unit")
    zone = trigger.get("zone") or []
    radius = float(trigger.get("radius") or 0)
    if len(zone) == 1:
        where = f"that comes within {max(radius, 1):g} m of {_places(zone)}"
    elif len(zone) == 2 and not radius:
        where = f"that crosses the gap from {_places(zone)}"
    elif zone:
        where = f"on the street from {_places(zone)}, {radius:g} m either side"
    else:
        where = ""
    within = trigger.get("within")
    near = f"within {within:g} m" if within is not None else ""
    if reaction == "close_combat" and not where and not near:
        near = "within its reach"
    condition = " or ".join(w for w in (where, near) if w)
    if not condition:
        condition = "within range"
    return (
        f"{unit}: {REACTION_WORDS[reaction]} at the first {what} {condition}, base chance {chance}%"
    )


def live_words(unit: str, reaction: str, target: str, chance: int) -> str:
    """A reaction given live at a prompt, in one sentence (as :func:`order_words`, for its
    opening): its unit, reaction, target and base chance."""
    return f"{unit}: {REACTION_WORDS[reaction]} at {target}, given live, base chance {chance}%"


def describe(state: State, observer: str, piece: Piece) -> PieceWords:
    p = piece.public
    if piece.kind == ORDER:
        name = say("Standing order {n}", n=p["number"])
        if observer not in (piece.owner, REFEREE):
            return PieceWords(name)
        # Its owner reads what it ordered, as it will be opened when it fires.
        ordered: list[tuple[str, Any]] = [(N_("Order"), str(piece.secret.get("order", "")))]
        if piece.secret.get("note"):
            ordered.append((N_("Note"), piece.secret["note"]))

        return PieceWords(name, (), ordered)
    about: list[str | Say] = [CLASS_WORDS.get(str(p["class"]), str(p["class"]))]
    if p.get("concealed"):
        about.append(N_("concealed"))
    at = p.get("at") or (piece.secret.get("at") if observer in (piece.owner, REFEREE) else None)
    details: list[tuple[str, Any]] = []
    if at is not None:
        scale = state.scenario.ground_scale
        x, y = round(at[0] / scale, 1), round(at[1] / scale, 1)  # inches, as players give them
        details.append((N_("At"), f"{x:g}, {y:g}"))
    details += facing.details(piece, observer in (piece.owner, REFEREE))
    return PieceWords(str(p["name"]), about, details)


def status(state: State, observer: str) -> list[str | Say]:
    scenario = state.scenario
    board = state.board
    if state.phase is Phase.OVER:
        return [N_("The game is over.")]
    if state.phase is Phase.SETUP:
        return [
            N_(
                "Setting up: record where your concealed units wait, then get ready with your "
                "standing orders."
            )
        ]
    from .voids import not_ready

    # Its own standing orders that may not fire now (BMF-R07, R14, R02), for its eyes only.
    own = not_ready(state, observer) if observer in state.sides else []
    if board.step is Step.MOVEMENT and board.moving is not None:
        return [
            say(
                "Turn {turn}: {side} move.", turn=board.turn, side=scenario.side_name(board.moving)
            ),
            *own,
        ]
    return [say("Turn {turn}: the fire phase.", turn=board.turn), *own]
