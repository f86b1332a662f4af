"""An Order: its first skill, the AROs, its second skill, the delayed AROs (INF-R11, R12),
through the engine's reaction windows, and the cancellation each declaration may bring about
for the whole Order (INF-R13, R14)."""

from __future__ import annotations

from typing import Any

from ghillie.errors import OFF_TABLE, Refusal
from ghillie.measuring import Measured
from ghillie.state import Facts, Piece, Window
from ghillie.words import N_, Say, say

from . import camo, checks, declare, where
from .board import MARKER, Game, OrderState, Rules, Stage, State
from .changes import ArosDeclared, OrderGiven, SecondDeclared, StageReached
from .codes import (
    ARO_AGAINST_MARKER,
    ARO_GIVEN,
    ARO_LOST,
    ARO_NOT_DELAYED,
    DISCOVER_LOCKED,
    LONG_SKILL_ALONE,
    NOT_A_MARKER,
    NOT_AN_ARO,
    NOT_AN_ATTACK,
    NOT_THE_SECOND_SKILL,
    NOTHING_TO_DELAY,
    OUT_OF_RANGE,
)
from .commands import Aros, Declared, FirstSkill, SecondSkill
from .route import route
from .scenario import CamouflageScenario
from .skills import AGAINST_A_MARKER, SKILLS, SkillName
from .where import at, on_route

FIRST_AROS = "first_aros"
SECOND_AROS = "second_aros"

SKILL_WORDS: dict[SkillName, str] = {
    SkillName.MOVE: N_("Move"),
    SkillName.CAUTIOUS_MOVE: N_("Cautious Movement"),
    SkillName.BS_ATTACK: N_("BS Attack"),
    SkillName.DISCOVER: N_("Discover"),
    SkillName.SENSOR: N_("Sensor"),
    SkillName.LOOK_OUT: N_("Look Out!"),
    SkillName.DODGE: N_("Dodge"),
    SkillName.RESET: N_("Reset"),
    SkillName.CAMOUFLAGE: N_("Camouflage (a Long Skill to go back into the state)"),
    SkillName.OTHER_LONG: N_("another Long Skill"),
    SkillName.OTHER_ROLL: N_("another skill that requires a Roll"),
    SkillName.IDLE: N_("Idle"),
    SkillName.DELAY: N_("Delay"),
}


def label(piece: Piece) -> Say | str:
    """A piece as it stands on the table: its marker's number, or the model's name."""
    if piece.kind == MARKER:
        return say("Marker {n}", n=piece.public["number"])
    return str(piece.public["name"])


def cancel_reason(name: SkillName) -> str | None:
    """Why declaring this skill cancels its user's Camouflaged State (INF-R13 a, b)."""
    skill = SKILLS[name]
    if skill.attack:
        return "attack"
    if name is SkillName.LOOK_OUT:
        return "look_out"
    if skill.roll:
        return "roll"
    if skill.long and skill.cancels:
        return "long"
    return None


def _reveal_reason(trooper: Piece, declared: Declared, contact: Piece | None) -> str | None:
    """Why this declaration cancels the trooper's Camouflaged State, if it is camouflaged
    and it does: a cancelling skill, or a move into Silhouette contact with an enemy model
    (INF-R13)."""
    if not trooper.public.get("marker"):
        return None
    why = cancel_reason(declared.skill)
    if why is None and contact is not None and contact.kind != MARKER:
        why = "contact"
    return why


def _reveal_if(ruling: Rules, trooper: Piece, declared: Declared, contact: Piece | None) -> Piece:
    """A camouflaged trooper that declares a cancelling skill, or moves into Silhouette
    contact with an enemy model, is revealed now, for the whole Order (INF-R13, R14)."""
    why = _reveal_reason(trooper, declared, contact)
    if why is None:
        return trooper
    return camo.reveal(ruling, trooper.public["marker"], why)


def _told_skill(
    ruling: Rules, who: Piece, declared: Declared, aimed: Piece | None, half: str
) -> None:
    words = SKILL_WORDS[declared.skill]
    if aimed is not None:
        text = say(
            "{who} declares {skill} at {target} as the {half} skill of its Order.",
            who=label(who),
            skill=Say(words),
            target=label(aimed),
            half=Say(half),
        )
    else:
        text = say(
            "{who} declares {skill} as the {half} skill of its Order.",
            who=label(who),
            skill=Say(words),
            half=Say(half),
        )
    ruling.tell_public({"text": text})


def first_skill(ruling: Rules, side: str, command: FirstSkill) -> None:
    state, scenario = ruling.state, ruling.scenario
    trooper = declare.actor(state, side, command.piece, "piece")
    declared = command.skill
    aimed = declare.check_skill(state, side, trooper, declared, "skill")
    _check_move(scenario, declared, "skill")
    who = declare.shown(state, trooper)
    contact = _contact(ruling, side, declared)
    source = who.public.get("at")
    found = measured_at(scenario, side, declared, source, aimed)
    # Is a Camouflaged Marker what the first AROs answer? Then a reactive trooper delays
    # explicitly or has had its time (INF-R12, the N3 FAQ).
    marked = who.kind == MARKER and _reveal_reason(trooper, declared, contact) is None
    ruling.change(
        OrderGiven(
            piece=trooper.id,
            first={
                **_as_ids(state, side, declared, aimed, contact),
                "from": source,
                "marked": marked,  # a Camouflaged Marker answered by the first AROs
                **found,
            },
            stage=Stage.SECOND,
        )
    )
    ruling.tell_public(
        {
            "text": say(
                "{side} give an Order to {who}.",
                side=scenario.side_name(side),
                who=label(who),
            )
        }
    )
    _told_skill(ruling, who, declared, aimed, N_("first"))
    if declared.skill is SkillName.CAMOUFLAGE:
        _warn_if_seen(ruling, side, who)
    _reveal_if(ruling, trooper, declared, contact)
    ruling.open_window(
        FIRST_AROS, about={"piece": declare.shown(ruling.state, ruling.piece(trooper.id)).id}
    )


def second_skill(ruling: Rules, side: str, command: SecondSkill) -> None:
    state, scenario = ruling.state, ruling.scenario
    order = ruling.board.order
    assert order is not None
    trooper = state.piece(order.piece)
    declared = command.skill
    if SKILLS[declared.skill].long:
        raise Refusal(
            LONG_SKILL_ALONE,
            "A Long Skill takes the whole Order: it cannot be the second skill.",
            field="skill.skill",
        )
    aimed = declare.check_skill(state, side, trooper, declared, "skill", dict(order.first))
    _check_move(scenario, declared, "skill")
    contact = _contact(ruling, side, declared)
    who = declare.shown(state, trooper)
    moved = order.first.get("to") or order.first.get("from")
    found = measured_at(scenario, side, declared, moved, aimed)
    ruling.change(
        SecondDeclared(
            second={**_as_ids(state, side, declared, aimed, contact), "from": moved, **found}
        )
    )
    _told_skill(ruling, who, declared, aimed, N_("second"))
    _reveal_if(ruling, trooper, declared, contact)
    ruling.open_window(
        SECOND_AROS, about={"piece": declare.shown(ruling.state, ruling.piece(trooper.id)).id}
    )


def measured_at(
    scenario: CamouflageScenario, side: str, declared: Declared, source: Any, aimed: Piece | None
) -> dict[str, Any]:
    """A declared skill's measurement from ``source`` to what it is aimed at (none if it
    names nothing)."""
    if aimed is None:
        return {}
    return measured(
        scenario, side, declared.skill, declared.measured, source, aimed.public.get("at"), "skill"
    )


def measured(
    scenario: CamouflageScenario,
    side: str,
    name: SkillName,
    entered: Measured | None,
    source: Any,
    point: Any,
    field: str,
) -> dict[str, Any]:
    """Range and cover for a skill or ARO that names a target, measured now, when it is
    declared: entered at a real table (asserted by the declaring side), worked out from the
    points declared on the map (INF-T01 c: each skill from its own point). A Discover past
    the last Discover band cannot be declared."""
    source_xy = (float(source[0]), float(source[1])) if source is not None else None
    point_xy = (float(point[0]), float(point[1])) if point is not None else None
    m = where.measure(scenario, side, entered, source_xy, point_xy, f"{field}.measured")
    if name is SkillName.DISCOVER:
        try:
            checks.range_mod(m.range, scenario.switches.band_edge)
        except checks.OutOfRange:
            raise Refusal(
                OUT_OF_RANGE,
                "That marker is beyond the longest Discover range (96 inches).",
                field=f"{field}.measured",
            ) from None
    return {"range": m.range, "cover": m.cover, **m.asserted}


def _as_ids(
    state: Game,
    side: str,
    declared: Declared,
    aimed: Piece | None,
    contact: Piece | None,
) -> dict[str, Any]:
    """The skill as declared, every piece it names by its id (a player may name one by its
    key or its marker's label): what the board keeps and the resolution reads."""
    from ghillie import lookup

    facts = declared.model_dump(mode="json")
    facts["target"] = aimed.id if aimed is not None else None
    facts["contact"] = contact.id if contact is not None else None
    facts["caught"] = [lookup.enemy(state, side, ref, [MARKER]).id for ref in declared.caught]
    facts["zone"] = [declare.on_table(state, side, ref, "skill.zone").id for ref in declared.zone]
    return facts


def _warn_if_seen(ruling: Rules, side: str, who: Piece) -> None:
    """INF-A02: going back into the state is checked against the enemy models and markers
    on the table. The players say no enemy has line of fire; on the map ghillie sees the
    terrain but not heights, so where its flat map shows an enemy with a clear line it
    warns the side instead of refusing (the side's own pieces and the enemy it sees only)."""
    scenario = ruling.scenario
    where_ = at(who)
    if scenario.mode.value != "map" or where_ is None:
        return
    seeing = []
    for pid, _known in ruling.state.knowledge.get(side, {}).items():
        enemy = ruling.state.pieces.get(pid)
        if enemy is None or enemy.owner == side or enemy.public.get("state") == State.DOWN:
            continue
        point = at(enemy)
        if point is not None and scenario.table.line_of_sight(point, where_):
            seeing.append(label(enemy))
    if seeing:
        ruling.tell(
            side,
            {
                "text": say(
                    "On the map nothing blocks the line between {who} and {enemies}: ghillie "
                    "cannot see heights and takes your word that none of them has line of fire.",
                    who=label(who),
                    enemies=seeing,
                    rules=("INF-A02",),
                )
            },
        )


def _check_move(scenario: CamouflageScenario, declared: Declared, field: str) -> None:
    if declared.to is not None and not scenario.table.on_table(declared.to):
        raise Refusal(OFF_TABLE, "That point is off the table.", field=f"{field}.to")


def _contact(ruling: Rules, side: str, declared: Declared) -> Piece | None:
    if declared.contact is None:
        return None
    return declare.on_table(ruling.state, side, declared.contact, "skill.contact")


def aros(ruling: Rules, side: str, command: Aros) -> None:
    """The reactive side's answer to a reaction window: each ARO checked against what the
    active trooper shows now — a marker allows only Discover, Dodge, Look Out!, Reset or a
    delay (INF-R11, R12); a model, any ARO."""
    state, scenario = ruling.state, ruling.scenario
    window = state.window
    board = ruling.board
    assert window is not None
    assert board.order is not None
    order = board.order
    active = declare.shown(state, state.piece(order.piece))
    second = window.name == SECOND_AROS
    given: dict[str, Facts] = {}
    delayed: list[str] = []
    for i, entry in enumerate(command.aros):
        field = f"aros.{i}"
        trooper = declare.actor(state, side, entry.piece, f"{field}.piece")
        if trooper.id in given or trooper.id in order.aros:
            raise Refusal(
                ARO_GIVEN,
                "That trooper has declared its ARO in this Order.",
                field=f"{field}.piece",
            )
        _check_aro(state, order, active, second, trooper, entry.aro, field)
        if second:
            _check_late(order, trooper, entry.gained_lof, field)
        elif entry.gained_lof:
            # Said of the first skill, it can only be said once the second is declared: a
            # slip, refused rather than quietly ignored.
            raise Refusal(
                NOT_THE_SECOND_SKILL,
                "A trooper can have had no line of fire during the first skill only in an "
                "ARO to the second skill: leave that box unticked now.",
                field=f"{field}.gained_lof",
            )
        if entry.aro is SkillName.DELAY:
            delayed.append(trooper.id)
            continue
        facts: dict[str, Any] = {
            **entry.model_dump(mode="json"),
            "piece": trooper.id,
            "caught": _caught(state, side, entry.aro, entry.caught, f"{field}.caught"),
        }
        if scenario.mode.value == "map":
            facts["at"] = list(_aro_point(order, entry.at, f"{field}.at", second))
            facts["from"] = list(_placed(declare.shown(state, trooper)))
        if entry.aro in (SkillName.BS_ATTACK, SkillName.DISCOVER):
            facts.update(
                measured(
                    scenario,
                    side,
                    entry.aro,
                    entry.measured,
                    facts.get("from"),
                    facts.get("at"),
                    field,
                )
            )
        given[trooper.id] = {
            **facts,
            "target": order.piece,
            "marker": active.id if active.kind == MARKER else None,
        }
    ruling.change(ArosDeclared(aros=given, delayed=delayed))
    _told_aros(ruling, side, command, given, delayed)
    for trooper_id, aro in given.items():
        trooper = ruling.piece(trooper_id)
        name = SkillName(aro["aro"])
        why = cancel_reason(name)
        if trooper.public.get("marker") and why is not None:
            camo.reveal(ruling, trooper.public["marker"], why)


def _check_aro(
    state: Game,
    order: OrderState,
    active: Piece,
    second: bool,
    trooper: Piece,
    aro: SkillName,
    field: str,
) -> None:
    """Refuse an ARO the rules forbid now: against a marker only Discover, Dodge, Look Out!,
    Reset or a delay (INF-R11, R12); a delay only against a marker, after its first skill;
    a delayed ARO lost when the second half did not reveal it (R12); Discover only at a
    marker, and not by a trooper locked out of it (R10)."""
    is_marker = active.kind == MARKER
    if not SKILLS[aro].aro:
        raise Refusal(NOT_AN_ARO, "That skill cannot be declared as an ARO.", field=f"{field}.aro")
    if second and trooper.id in order.delayed and is_marker:
        raise Refusal(
            ARO_LOST,
            "The marker did not reveal itself in the second half of its Order: the delayed "
            "ARO is lost.",
            field=f"{field}.aro",
        )
    if aro is SkillName.DELAY:
        # A Long Skill is the whole Order: it has no second half to delay to.
        if not is_marker or second or SKILLS[SkillName(order.first["skill"])].long:
            raise Refusal(
                NOTHING_TO_DELAY,
                "An ARO can be delayed only against a Camouflaged trooper, until the second "
                "half of its Order.",
                field=f"{field}.aro",
            )
        return
    if is_marker and aro not in AGAINST_A_MARKER:
        raise Refusal(
            ARO_AGAINST_MARKER,
            "Against a Camouflaged Marker the only AROs are Discover, Dodge, Look Out! and Reset.",
            field=f"{field}.aro",
        )
    if aro is SkillName.DISCOVER:
        if not is_marker:
            raise Refusal(
                NOT_A_MARKER, "Only a Camouflaged Marker can be Discovered.", field=f"{field}.aro"
            )
        if declare.locked(state, trooper.id, active.id):
            raise Refusal(
                DISCOVER_LOCKED,
                "This trooper failed to Discover that marker: it cannot try that marker "
                "again until the next Player Turn.",
                field=f"{field}.aro",
            )


def _caught(state: Game, side: str, aro: SkillName, caught: list[str], field: str) -> list[str]:
    """The enemy markers a Template fired in ARO also covers (INF-A07), by their ids."""
    from ghillie import lookup

    if caught and not SKILLS[aro].attack:
        raise Refusal(
            NOT_AN_ATTACK,
            "Only an Attack with a Template catches markers it is not aimed at.",
            field=field,
        )
    return [lookup.enemy(state, side, ref, [MARKER]).id for ref in caught]


def _check_late(order: OrderState, trooper: Piece, gained_lof: bool, field: str) -> None:
    """INF-R12 and the N3 FAQ (RULES-SPEC §5.1): when the first skill was a Camouflaged
    Marker's, a delay must be declared explicitly. A reactive trooper that declared neither
    an ARO nor a delay then has had its time (INF-A06), whether or not the second skill
    reveals the marker, unless it could not react to the first skill at all — no line of
    fire then (the base game's own case, which its side asserts: ``gained_lof``)."""
    if not order.first.get("marked") or trooper.id in order.delayed or gained_lof:
        return
    raise Refusal(
        ARO_NOT_DELAYED,
        "This trooper declared no ARO and no delay when the marker declared its first skill: "
        "a delay must be declared, so it cannot react now (unless it had no line of fire to "
        "the marker during the first skill: then say so).",
        field=f"{field}.piece",
    )


def _placed(piece: Piece) -> tuple[float, float]:
    where = at(piece)
    assert where is not None, "on the map every piece on the table has a place"
    return where


def _aro_point(order: OrderState, point: Any, field: str, second: bool) -> tuple[float, float]:
    """The point of the active trooper's route an ARO answers (map mode): any point of it,
    or, if none is given, where the skill it answers ends."""
    start, *stops = route(order, second)
    if point is None:
        return stops[-1] if stops else start
    on_route(start, stops, (point[0], point[1]), field)
    return (float(point[0]), float(point[1]))


def _told_aros(
    ruling: Rules,
    side: str,
    command: Aros,
    given: dict[str, Facts],
    delayed: list[str],
) -> None:
    if not given and not delayed:
        said = say("{side} declare no ARO.", side=ruling.scenario.side_name(side))
        ruling.tell_public({"text": said})
        return
    state = ruling.state
    for trooper_id in delayed:
        who = declare.shown(state, state.piece(trooper_id))
        ruling.tell_public(
            {"text": say("{who} delays its ARO.", who=label(who), rules=("INF-R12",))}
        )
    for trooper_id, facts in given.items():
        who = declare.shown(state, state.piece(trooper_id))
        ruling.tell_public(
            {
                "text": say(
                    "{who} declares {aro} as its ARO.",
                    who=label(who),
                    aro=Say(SKILL_WORDS[SkillName(facts["aro"])]),
                    rules=("INF-R11",),
                )
            }
        )


def close(ruling: Rules, window: Window) -> None:
    """Every ARO is in. After the first skill's, the active side declares its second skill
    (a Long Skill has none); after the second's, a delaying trooper whose marker did not
    reveal itself has lost its ARO (INF-R12), and the Order is ready to be rolled."""
    order = ruling.board.order
    assert order is not None
    if window.name == FIRST_AROS and not SKILLS[SkillName(order.first["skill"])].long:
        ruling.change(StageReached(stage=Stage.SECOND))
        return
    state = ruling.state
    still_marker = declare.shown(state, state.piece(order.piece)).kind == MARKER
    for trooper_id in order.delayed:
        if still_marker or window.name == FIRST_AROS:
            who = declare.shown(state, state.piece(trooper_id))
            ruling.tell_public(
                {
                    "text": say(
                        "{who} loses its delayed ARO: the marker did not reveal itself.",
                        who=label(who),
                        rules=("INF-R12",),
                    )
                }
            )
    ruling.change(StageReached(stage=Stage.RESOLVE))
