"""camouflage in the players' words: its orders, its troopers and markers, where the game
stands. Every chooser and every sentence is built from what the reader can see: its own
pieces (their secrets are its own), what the enemy's show to everyone, and the Order as
everyone sees it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ghillie.forms import Ask, Choice, Order, measured
from ghillie.state import REFEREE, Phase, Piece
from ghillie.words import N_, Say, say
from ghillie.words.piece import PieceWords

from . import dice_plan
from .board import EQUIPMENT, MARKER, TROOPER, Game, Stage, State
from .route import ROUTE
from .skills import AROS, ORDER_SKILLS, SkillName

SKILL_CHOICES: dict[SkillName, str] = {
    SkillName.MOVE: N_("Move"),
    SkillName.CAUTIOUS_MOVE: N_("Cautious Movement"),
    SkillName.BS_ATTACK: N_("BS Attack"),
    SkillName.DISCOVER: N_("Discover"),
    SkillName.SENSOR: N_("Sensor"),
    SkillName.LOOK_OUT: N_("Look Out!"),
    SkillName.DODGE: N_("Dodge"),
    SkillName.RESET: N_("Reset"),
    SkillName.CAMOUFLAGE: N_("Go back into Camouflaged State (a Long Skill)"),
    SkillName.OTHER_LONG: N_("Another Long Skill"),
    SkillName.OTHER_ROLL: N_("Another skill that requires a Roll"),
    SkillName.IDLE: N_("Idle"),
    SkillName.DELAY: N_("Delay the ARO to the second half of the Order"),
}


def _name(piece: Piece, observer: str) -> str | Say:
    if piece.kind == MARKER:
        return say("Marker {n}", n=piece.public["number"])
    return str(piece.public["name"])


def _own_actors(state: Game, side: str) -> list[Choice]:
    """The side's troopers that can act: a model by its name, a camouflaged one by its
    name and its marker (the side's own secret)."""
    out = []
    for p in state.owned(side, TROOPER):
        if p.public["state"] == State.DOWN:
            continue
        marker = p.public.get("marker")
        if marker:
            n = state.piece(marker).public["number"]
            out.append(Choice(marker, say("{name} (Marker {n})", name=p.public["name"], n=n)))
        else:
            out.append(Choice(p.id, str(p.public["name"])))
    return out


def _own_models(state: Game, side: str) -> list[Choice]:
    """The side's troopers on the table as models: the only ones a Fireteam takes (INF-R08)."""
    return [
        Choice(p.id, str(p.public["name"]))
        for p in state.owned(side, TROOPER)
        if p.public["state"] == State.MODEL
    ]


def _camouflaged(state: Game, side: str) -> list[Choice]:
    return [
        Choice(p.id, str(p.public["name"]))
        for p in state.owned(side)
        if p.kind in (TROOPER, EQUIPMENT)
        and p.public["state"] == State.CAMOUFLAGED
        and not p.public.get("marker")
    ]


def _enemies(state: Game, side: str) -> list[Choice]:
    out = []
    for pid, _known in state.knowledge.get(side, {}).items():
        piece = state.pieces.get(pid)
        if piece is None or piece.owner == side:
            continue
        if piece.kind == MARKER or piece.public.get("state") == State.MODEL:
            out.append(Choice(pid, _name(piece, side)))
    return out


def _models(state: Game, side: str) -> list[Choice]:
    """Enemy models only: no trooper may touch an enemy marker (INF-R09)."""
    return [c for c in _enemies(state, side) if state.pieces[c.value].kind != MARKER]


def _markers(state: Game, side: str) -> list[Choice]:
    return [c for c in _enemies(state, side) if state.pieces[c.value].kind == MARKER]


def _deploy_rows(state: Game, side: str) -> dict[str, Any]:
    return {"markers": [{"piece": c.value} for c in _camouflaged(state, side)]}


def _attack(path: str) -> dict[str, Ask]:
    """The numbers of an Attack, from the weapon's profile (a skill's or an ARO's)."""
    return {
        path: Ask(N_("The attack"), N_("From the weapon's profile.")),
        f"{path}.weapon": Ask(N_("Weapon")),
        f"{path}.burst": Ask(N_("Burst")),
        f"{path}.range_mod": Ask(N_("Range MOD"), N_("The weapon's MOD at this range.")),
        f"{path}.mods": Ask(N_("Other MODs")),
        f"{path}.ps": Ask(N_("PS"), N_("The weapon's PS, for the target's saving roll.")),
    }


def _when(asks: dict[str, Ask], path: str, name: str, *skills: SkillName) -> dict[str, Ask]:
    """``asks`` with the field at ``path`` asked only for these skills (``name``: the field
    of its group that says which skill it is)."""
    return {**asks, path: replace(asks[path], when={name: tuple(s.value for s in skills)})}


AIMED = (SkillName.DISCOVER, SkillName.BS_ATTACK)
MOVES = (SkillName.MOVE, SkillName.CAUTIOUS_MOVE)
AT_A_POINT = tuple(s for s in AROS if s is not SkillName.DELAY)

_SKILL = {
    "skill": Ask(N_("The skill")),
    "skill.skill": Ask(
        N_("Skill"), options=tuple((s.value, SKILL_CHOICES[s]) for s in ORDER_SKILLS)
    ),
    "skill.target": Ask(
        N_("Aimed at"), N_("The enemy trooper or marker."), pieces=_enemies, when={"skill": AIMED}
    ),
    "skill.to": Ask(
        N_("Moves to"),
        kind="place",
        where="point",
        only="map",
        when={"skill": MOVES},
        starts="piece",
    ),
    **_when(measured("skill.measured"), "skill.measured", "skill", *AIMED),
    **_when(_attack("skill.attack"), "skill.attack", "skill", SkillName.BS_ATTACK),
    "skill.contact": Ask(
        N_("Ends in Silhouette contact with"),
        N_("The enemy model it touches, if any."),
        pieces=_models,
        when={"skill": MOVES},
    ),
    "skill.caught": Ask(
        N_("Markers under the Template"),
        N_("Enemy markers a Template aimed at the target also covers."),
        pieces=_markers,
        item=N_("marker"),
        when={"skill": (SkillName.BS_ATTACK,)},
    ),
    "skill.zone": Ask(
        N_("Markers in its Zone of Control"),
        N_("The enemy markers within 8 inches of the trooper: a Sensor needs no line of fire."),
        pieces=_markers,
        item=N_("marker"),
        only="table",
        when={"skill": (SkillName.SENSOR,)},
    ),
    "skill.unseen": Ask(
        N_("No enemy can see it"),
        N_("Going back into Camouflaged State: no enemy model or marker has line of fire to it."),
        when={"skill": (SkillName.CAMOUFLAGE,)},
    ),
    "skill.outside_sensor": Ask(
        N_("No enemy Sensor within 8 inches"),
        N_(
            "Going back into Camouflaged State: it is outside the Zone of Control of every "
            "enemy trooper with Sensor on the table."
        ),
        only="table",
        when={"skill": (SkillName.CAMOUFLAGE,)},
    ),
}

_DICE = {
    "rolls": Ask(
        N_("Dice rolled at the table"),
        N_(
            "Leave this closed and ghillie rolls; open it to type in every one of your own "
            "troopers' d20s, in the order they are rolled. ghillie rolls the other side's."
        ),
        typed=True,
    ),
    "rolls.dice": Ask(N_("Your d20s, in order"), item=N_("die")),
}

ORDERS: dict[str, Order] = {
    "deploy": Order(
        N_("Lay out the Camouflaged Markers"),
        N_("One marker for each camouflaged trooper and item: what it stands for stays secret."),
        fields={
            "markers": Ask(
                N_("Camouflaged pieces"),
                N_(
                    "One row for each camouflaged trooper and item. ghillie numbers the markers "
                    "itself, in no order the enemy could read, and tells you which is which."
                ),
                item=N_("camouflaged piece"),
            ),
            "markers.piece": Ask(N_("Stands for"), pieces=_camouflaged),
            "markers.at": Ask(N_("Placed at"), kind="place", where="point", only="map"),
            "markers.note": Ask(N_("Note"), N_("For your eyes only: where it waits, and why.")),
        },
        defaults=_deploy_rows,
        rules=("INF-R01", "INF-R03"),
    ),
    "first_skill": Order(
        N_("Give an Order"),
        N_("Activate a trooper, or one of your markers, and declare its first skill."),
        fields={"piece": Ask(N_("Trooper"), pieces=_own_actors), **_SKILL},
        rules=("INF-R09", "INF-R13"),
    ),
    "second_skill": Order(
        N_("Declare the second skill"),
        # No trooper field: the active trooper's route is not drawn from it here.
        fields={**_SKILL, "skill.to": replace(_SKILL["skill.to"], starts="")},
        rules=("INF-R12", "INF-R14"),
    ),
    "aros": Order(
        N_("Declare AROs"),
        N_(
            "Each of your troopers with line of fire may react, delay, or do nothing: leave it out."
        ),
        fields={
            "aros": Ask(N_("AROs"), item=N_("ARO")),
            "aros.piece": Ask(N_("Trooper"), pieces=_own_actors),
            "aros.aro": Ask(N_("ARO"), options=tuple((s.value, SKILL_CHOICES[s]) for s in AROS)),
            "aros.at": Ask(
                N_("At the point"),
                N_(
                    "The point of the active trooper's route it answers. The route is drawn on "
                    "the map, and a tap near it lands on it. Left empty, the ARO answers the "
                    "end of the route: where the skill it answers ends."
                ),
                kind="place",
                where="point",
                snap=ROUTE,
                only="map",
                when={"aro": AT_A_POINT},
            ),
            "aros.gained_lof": Ask(
                N_("No line of fire during the first skill"),
                N_(
                    "After a marker's second skill: this trooper could not react to its first "
                    "skill, so it had no ARO to declare or delay then."
                ),
                when={"aro": AT_A_POINT},
            ),
            **_when(measured("aros.measured"), "aros.measured", "aro", *AIMED),
            **_when(_attack("aros.attack"), "aros.attack", "aro", SkillName.BS_ATTACK),
            "aros.caught": Ask(
                N_("Markers under the Template"),
                N_("Enemy markers a Template aimed at the active trooper also covers."),
                pieces=_markers,
                item=N_("marker"),
                when={"aro": (SkillName.BS_ATTACK,)},
            ),
        },
        rules=("INF-R11", "INF-R12"),
    ),
    "resolve_order": Order(
        N_("Roll the Order"),
        N_("Every skill and ARO is declared: roll them."),
        fields=dict(_DICE),
        notes=lambda state, side: {"rolls": dice_plan.order_note(state, side)},
    ),
    "saving_rolls": Order(
        N_("Make the saving rolls"),
        fields=dict(_DICE),
        notes=lambda state, side: {"rolls": dice_plan.saves_note(state, side)},
    ),
    "face": Order(
        N_("Turn a model"),
        N_("A model that replaced its marker faces as you choose."),
        fields={
            "piece": Ask(
                N_("Model"),
                pieces=lambda s, side: [
                    Choice(p.id, str(p.public["name"]))
                    for p in s.owned(side)
                    if p.public.get("face_due")
                ],
            ),
            "facing": Ask(N_("Facing"), unit=N_("degrees, clockwise from the top edge")),
        },
        only="map",
        rules=("INF-R15",),
    ),
    "end_turn": Order(N_("End the Player Turn"), confirm=N_("End your Player Turn?")),
    "impetuous": Order(
        N_("A trooper becomes Impetuous"),
        fields={"piece": Ask(N_("Trooper"), pieces=_own_actors)},
        rules=("INF-R13",),
    ),
    "retreat": Order(
        N_("Your army enters Retreat!"),
        confirm=N_("Does your army enter the Retreat! State?"),
        rules=("INF-R13",),
    ),
    "fireteam": Order(
        N_("Form or join a Fireteam"),
        N_(
            "Troopers on the table as models join a Fireteam, leaving any other. A trooper in "
            "Camouflaged State cannot be part of one."
        ),
        fields={
            "team": Ask(
                N_("Fireteam"),
                N_("Its name. Leave it empty and the troopers leave their Fireteams."),
            ),
            "members": Ask(N_("Troopers"), pieces=_own_models, item=N_("trooper")),
        },
        rules=("INF-R08",),
    ),
    "end_game": Order(N_("End the game"), confirm=N_("End the game for both sides?")),
}


def describe(state: Game, observer: str, piece: Piece) -> PieceWords:
    if piece.kind == MARKER:
        return _marker(state, observer, piece)
    p = piece.public
    about: list[str | Say] = []
    if p["state"] == State.CAMOUFLAGED and piece.kind != EQUIPMENT:
        about.append(N_("camouflaged"))
    elif p["state"] == State.DOWN:
        about.append(N_("out of the game"))
    if p.get("wounds_left", 1) < p.get("wounds", 1) and p["state"] != State.DOWN:
        about.append(say("{n} wounds left", n=p["wounds_left"]))
    if piece.kind == EQUIPMENT:
        about.append(N_("a camouflaged weapon or piece of equipment"))
        return PieceWords(str(p["name"]), about, ((N_("Silhouette"), 2),))
    details: list[tuple[str, Any]] = [
        (N_("WIP"), p["wip"]),
        (N_("BS"), p["bs"]),
        (N_("PH"), p["ph"]),
        (N_("ARM"), p["arm"]),
        (N_("Silhouette"), p["silhouette"]),
    ]
    if p["mimetism"]:
        details.append((N_("Mimetism"), p["mimetism"]))
    if p["msv"]:
        details.append((N_("Multispectral Visor"), p["msv"]))
    if p["sensor"]:
        details.append((N_("Sensor"), N_("yes")))
    if p.get("fireteam"):
        details.append((N_("Fireteam"), p["fireteam"]))
    if p["weapons"]:
        details.append((N_("Weapons"), ", ".join(p["weapons"])))
    return PieceWords(str(p["name"]), about, details)


def _marker(state: Game, observer: str, piece: Piece) -> PieceWords:
    """A Camouflaged Marker as ``observer`` knows it: its owner (and the referee) read what
    it stands for and the owner's note."""
    p = piece.public
    about: list[str | Say] = [say("Silhouette {s}", s=p["silhouette"])]

    if p["mimetism"]:
        about.append(say("Mimetism {m}", m=p["mimetism"]))
    seen = (
        state.known(observer, piece.id).facts.get("stands_for") if observer in state.sides else None
    )
    if seen and seen in state.pieces and observer != piece.owner:
        # INF-A12: its opponent watched this model go back under the marker.
        about.append(say("{name} went back under it", name=state.pieces[seen].public["name"]))
    if observer in (piece.owner, REFEREE):
        hidden = state.pieces.get(piece.secret.get("hides", ""))
        if hidden is not None:
            about.append(say("stands for {name}", name=hidden.public["name"]))
        note = piece.secret.get("note")
        if note:
            return PieceWords(
                _name(piece, observer),
                about,
                (
                    (
                        N_("Your note") if observer == piece.owner else N_("Its owner's note"),
                        note,
                    ),
                ),
            )
    return PieceWords(_name(piece, observer), about)


def board_view(state: Game, observer: str) -> dict[str, Any]:
    board = state.board
    out: dict[str, Any] = {"turn": board.turn, "active": board.active}
    return out


def status(state: Game, observer: str) -> list[str | Say]:
    scenario = state.scenario
    board = state.board
    if state.phase is Phase.OVER:
        return [N_("The game is over.")]
    if state.phase is Phase.SETUP:
        lines: list[str | Say] = [N_("Deployment: each side lays out its Camouflaged Markers.")]
        for side in state.sides:
            if side in board.deployed:
                continue
            if side == observer:
                lines.append(N_("Lay out your markers: say which trooper or item each stands for."))
            else:
                lines.append(
                    say(
                        "Waiting for {side} to lay out their markers.",
                        side=scenario.side_name(side),
                    )
                )
        return lines
    assert board.active is not None
    lines = [
        say(
            "Player Turn {turn}: {side} are the active player.",
            turn=board.turn,
            side=scenario.side_name(board.active),
        )
    ]
    order = board.order
    if order is not None and state.window is None:
        active = scenario.side_name(board.active)
        mine = observer == board.active
        if order.stage is Stage.SECOND:
            lines.append(
                N_("Declare the second skill of the Order.")
                if mine
                else say("Waiting for {side} to declare the second skill.", side=active)
            )
        elif order.stage is Stage.RESOLVE:
            lines.append(
                N_("Every skill and ARO is declared: roll the Order.")
                if mine
                else say("Waiting for {side} to roll the Order.", side=active)
            )
        elif order.stage is Stage.SAVES:
            owing = sorted({state.piece(s.piece).owner for s in board.saves})
            if observer in owing:
                lines.append(N_("Make your saving rolls."))
            others = [scenario.side_name(s) for s in owing if s != observer]
            if others:
                lines.append(say("Waiting for the saving rolls of {sides}.", sides=others))
    return lines
