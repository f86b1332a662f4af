"""Activations and what every action shares: the acting unit, spending actions,
measuring, and a hidden sniper giving itself away."""

from __future__ import annotations

from dataclasses import dataclass

from ghillie import lookup
from ghillie.dice.steps import Die
from ghillie.errors import Refusal
from ghillie.measure.tabletop import Cover
from ghillie.measuring import MapMeasure, Measure, Measured, TableMeasure, refuse_entered_on_map
from ghillie.scenario import Mode
from ghillie.state import SPECTATOR, Facts, Piece
from ghillie.words import Say, say, says

from .board import ACTIONS_PER_ACTIVATION, MARKER, SNIPER_MARKER, UNIT, Rules, Status, where
from .changes import Activated, ActivationEnded, NextTurn, Passed, Spent
from .commands import Activate, EndActivation, OtherAction, Pass
from .reveal import Found, expose, reveal_sniper
from .scenario import SuspiciousPlacesScenario as Scenario
from .scenario import UnitKind
from .story import die as die_words
from .story import name, owner_roll, shown, then

NOT_ACTIVATED = "not_activated"
NO_ACTIONS_LEFT = "no_actions_left"
ALREADY_ACTIVATED = "already_activated"
NOT_ON_TABLE = "not_on_table"
NO_LINE_OF_SIGHT = "no_line_of_sight"
NO_SUCH_MEANS = "no_such_means"
HIDDEN = "hidden"
NOT_HIDDEN = "not_hidden"
NOT_A_SNIPER = "not_a_sniper"
KNOWN_MINEFIELD = "known_minefield"
ATTACHED = "attached"
BAD_MOVE = "bad_move"

NO_CHANGE = "no_change"


def activate(ruling: Rules, side: str, command: Activate) -> None:
    scenario = ruling.scenario
    unit = lookup.own(ruling.state, side, command.unit, [UNIT])
    if unit.public["status"] == Status.OFF_TABLE:
        raise Refusal(NOT_ON_TABLE, "That unit has left the table.")
    if unit.id in ruling.board.activated:
        raise Refusal(ALREADY_ACTIVATED, "That unit has already been activated this turn.")
    ruling.change(Activated(unit.id))
    rules = ("SW-R18",) if unit.public["unit_kind"] == UnitKind.LONE else ("SW-R10",)
    activates = says(
        "{unit} activates: {n} action.",
        "{unit} activates: {n} actions.",
        ACTIONS_PER_ACTIVATION,
        rules=rules,
        unit=name(unit),
    )
    line: Facts = {"event": "activate", "unit": unit.id, "text": activates}
    if unit.public["status"] == Status.CAMOUFLAGED and scenario.switches.activation_reveals:
        # SW-R06 / SW-A14: activating a camouflaged squad replaces its marker with the squad.
        found = expose(
            ruling, ruling.piece(unit.secret["marker"]), rules=("SW-R06",), by_owner=True
        )
        line = {**line, **found, "text": then(activates, found["text"])}
    ruling.tell_public(line)


def pass_turn(ruling: Rules, side: str, command: Pass) -> None:
    scenario = ruling.scenario
    other = ruling.state.others(side)[0]
    ruling.change(Passed(other))
    ruling.tell_public(
        {
            "event": "pass",
            "side": side,
            "text": say("{side} passes.", side=scenario.side_name(side)),
        }
    )
    if ruling.board.passes >= 2:
        ruling.change(NextTurn())
        first = ruling.board.first
        assert first is not None
        ruling.tell_public(
            {
                "event": "turn",
                "turn": ruling.board.turn,
                "side": first,
                "text": say(
                    "Two passes in a row end the turn. Turn {turn}: {side} activates first.",
                    turn=ruling.board.turn,
                    side=scenario.side_name(first),
                ),
            }
        )


def end_activation(ruling: Rules, side: str, command: EndActivation) -> None:
    activation = ruling.board.activation
    assert activation is not None
    unit = ruling.piece(activation.unit)
    ruling.change(ActivationEnded(ruling.state.others(side)[0]))
    text = (
        says(
            "{unit} ends its activation with {n} action unused.",
            "{unit} ends its activation with {n} actions unused.",
            activation.actions,
            unit=name(unit),
        )
        if activation.actions
        else say("{unit} ends its activation.", unit=name(unit))
    )
    ruling.tell_public({"event": "end_activation", "unit": unit.id, "text": text})


def acting_unit(ruling: Rules, side: str, ref: str | None) -> Piece:
    """The unit that spends an action: the activated one, or the squad its officer is with
    (SW-R19: officers may "передавать действия", transfer actions, to their squad)."""
    activation = ruling.board.activation
    assert activation is not None
    activated = ruling.piece(activation.unit)
    unit = activated if ref is None else lookup.own(ruling.state, side, ref, [UNIT])
    if unit.id != activated.id and not (
        activated.public["officer"] and activated.public["attached_to"] == unit.id
    ):
        raise Refusal(
            NOT_ACTIVATED, "Only the activated unit, or the squad its officer is with, may act."
        )
    if activation.actions <= 0:
        # RULES-SPEC SW-T05: "действий у него не осталось" — no actions left.
        raise Refusal(NO_ACTIONS_LEFT, "This activation has no actions left.")
    if unit.public["status"] == Status.OFF_TABLE:
        raise Refusal(NOT_ON_TABLE, "That unit has left the table.")
    return unit


def spend(ruling: Rules) -> None:
    ruling.change(Spent())


def measure_for(ruling: Rules, side: str, entered: Measured | None) -> Measure:
    scenario = ruling.scenario
    if scenario.mode is Mode.MAP:
        refuse_entered_on_map(entered)
        state = ruling.state
        return MapMeasure(scenario.tabletop, lambda piece: where(state, piece))
    return TableMeasure(entered, side)


def marker_cover(scenario: Scenario, measure: Measure, target: Piece) -> Cover:
    if target.kind == MARKER:
        return Cover(target.public["cover"])  # agreed or read from the map when it was laid
    if target.kind == SNIPER_MARKER and scenario.mode is Mode.MAP:
        return scenario.tabletop.cover_at(tuple(target.public["at"]))
    return measure.cover(target)


def unhide_to_act(ruling: Rules, unit: Piece) -> Facts | None:
    """SW-A14 option (``sw.activation_reveals = false``): a camouflaged squad stays hidden
    while it observes; it is revealed when it moves or fires."""
    if unit.public["status"] == Status.CAMOUFLAGED:
        marker = ruling.piece(unit.secret["marker"])
        return expose(ruling, marker, rules=("SW-R06", "SW-A14"), by_owner=True)
    return None


def is_hidden_sniper(unit: Piece) -> bool:
    return bool(
        unit.public["unit_kind"] == UnitKind.SNIPER and unit.public["status"] == Status.HIDDEN
    )


def betrayal(ruling: Rules, sniper: Piece) -> None:
    """SW-R35b: the sniper's quality die showed 1 — it gives itself away."""
    ruling.tell_public(
        {
            "event": "sniper_betrayed",
            **reveal_sniper(ruling, ruling.piece(sniper.id), Found.BETRAYED),
        }
    )


def content(target: Piece) -> str:
    """What a target is, as its owner knows it."""
    if target.kind == UNIT:
        return "unit"
    if target.kind == SNIPER_MARKER:
        return "sniper" if target.secret["true"] else "false sniper marker"
    return str(target.secret.get("content", "nothing"))


def other_action(ruling: Rules, side: str, command: OtherAction) -> None:
    unit = acting_unit(ruling, side, command.unit)
    spend(ruling)
    text = (
        say("{unit} spends an action: {what}.", unit=name(unit), what=command.what)
        if command.what
        else say("{unit} spends an action.", unit=name(unit))
    )
    ruling.tell_public(
        {"event": "other_action", "unit": unit.id, "what": command.what, "text": text}
    )


@dataclass(frozen=True)
class Roll:
    """An observation or a shot in words, for each reader: the rules tell each side a
    different part of one roll (tell_roll)."""

    rolled: Say  # who rolled what at what: everyone reads it
    result: Say  # what came of it, as every side sees it
    explained: Say  # the range die and the steps that built it: for the side that measured
    owner_result: Say | None = None  # for the target's owner: why it came out so


def roll_die(ruling: Rules, side: str, target: Piece, label: str, die: Die, secret: bool) -> int:
    """One die of an observation or a shot. The acting unit's quality die and its means or
    weapon die are its side's own, which it may type in at a table (SW-R13); the range die
    (``target``) is the target's owner's (SW-R12, A13), which ghillie rolls for it — in
    secret when ``secret`` — and which the acting side may never type in."""
    if label == "target":
        return ruling.roll(label, die, secret=secret, of=target.owner, typed=label)
    return ruling.roll(label, die, of=side, typed=label)


def tell_roll(
    ruling: Rules,
    side: str,
    target: Piece,
    public: Facts,
    die: Facts,
    words: Roll,
    measure: Measure,
    owner_extra: Facts,
    concealed: bool,
) -> None:
    """Tell an observation's or a shot's result. Everyone gets ``public``; the acting side
    also its range die and measurements; the target's owner also what was under it and —
    unless a hidden sniper acted (SW-R34: the die would point at its true marker) — the
    range die and the roll on it; spectators what lies open on the table."""
    target_roll = die.get("target", die.get("target_roll"))
    plain = then(words.rolled, words.result)
    actor = then(words.rolled, words.explained, shown(target_roll), words.result)
    ruling.tell(side, {**public, **die, "text": actor, **measure.asserted()})
    owner_line = {**public, "content": content(target), "text": plain}
    if not concealed:
        rolled = owner_extra.get("target", owner_extra.get("target_roll"))
        assert isinstance(rolled, int)
        owner_text = then(
            words.rolled,
            owner_roll(str(die["range_die"]), rolled),
            words.owner_result or words.result,
        )
        owner_line |= {**die, **owner_extra, "text": owner_text}
    ruling.tell(target.owner, owner_line)
    if concealed:
        ruling.tell(SPECTATOR, {**public, "text": plain})
    else:
        watched = then(
            words.rolled,
            say("Range die {die}.", die=die_words(str(die["range_die"]))),
            shown(target_roll),
            words.result,
        )
        ruling.tell(SPECTATOR, {**public, **die, "text": watched})
