"""Activations and the actions units spend: observe, fire, move, and the sniper's own.

Each handler writes what every side is told. The rule that matters most here is RULES-SPEC
§6: an observation with one die higher on a mine, an IED or a sniper's true marker, and any
observation with no die higher, must read exactly the same to the observer — the observer's
line is built only from what the observer already knows (its own dice, the marker, the
range die's size) and the result word, and that word is "no_change" in all those cases.
"""

from __future__ import annotations

from typing import Any

from ghillie import lookup
from ghillie.dice.steps import Die
from ghillie.errors import OFF_TABLE, Refusal
from ghillie.measure import MapMeasure, Measure, Measured, TableMeasure, refuse_entered_on_map
from ghillie.measure.tabletop import Cover
from ghillie.ruling import Ruling
from ghillie.scenario import Mode
from ghillie.state import SPECTATOR, Facts, Piece

from . import setup
from .board import MARKER, SNIPER_MARKER, UNIT, Board, Face, Status, where
from .bookkeeping import SUPPRESSION_CAP
from .checks import Shot, covert_move, fire_die, observation, observation_die, shot
from .commands import (
    Activate,
    CovertMove,
    EndActivation,
    Fire,
    Move,
    Observe,
    OtherAction,
    Pass,
    Rehide,
)
from .reveal import (
    expose,
    expose_markers,
    exposed_on_map,
    flip,
    reveal_sniper,
    sniper_markers,
)
from .scenario import MEANS, FullOnMine, PartialFire, RangeDie, SniperHit, UnitKind
from .scenario import SuspiciousPlacesScenario as Scenario

NOT_ACTIVATED = "not_activated"
NO_ACTIONS_LEFT = "no_actions_left"
ALREADY_ACTIVATED = "already_activated"
NOT_ON_TABLE = "not_on_table"
NO_LINE_OF_SIGHT = "no_line_of_sight"
NO_SUCH_MEANS = "no_such_means"
HIDDEN = "hidden"
NOT_HIDDEN = "not_hidden"
KNOWN_MINEFIELD = "known_minefield"
ATTACHED = "attached"
BAD_MOVE = "bad_move"

NO_CHANGE = "no_change"


# --- activations -----------------------------------------------------------------------------


def activate(ruling: Ruling[Board], scenario: Scenario, side: str, command: Activate) -> None:
    unit = lookup.own(ruling.state, side, command.unit, [UNIT])
    if unit.public["status"] == Status.OFF_TABLE:
        raise Refusal(NOT_ON_TABLE, "That unit has left the table.")
    if unit.id in ruling.board.activated:
        raise Refusal(ALREADY_ACTIVATED, "That unit has already been activated this turn.")
    ruling.change_board("activate", unit=unit.id)
    line: Facts = {
        "event": "activate",
        "unit": unit.id,
        "text": f"{unit.public['name']} activates (2 actions).",
    }
    if unit.public["status"] == Status.CAMOUFLAGED and scenario.switches.activation_reveals:
        # SW-R06 / SW-A14: activating a camouflaged squad replaces its marker with the squad.
        found = expose(ruling, ruling.piece(unit.secret["marker"]))
        line = {**line, **found, "text": f"{unit.public['name']} activates. {found['text']}"}
    ruling.tell_public(line)


def pass_turn(ruling: Ruling[Board], scenario: Scenario, side: str, command: Pass) -> None:
    other = ruling.state.others(side)[0]
    ruling.change_board("pass", next=other)
    ruling.tell_public(
        {"event": "pass", "side": side, "text": f"{scenario.side_name(side)} passes."}
    )
    if ruling.board.passes >= 2:
        ruling.change_board("next_turn")
        first = ruling.board.first
        assert first is not None
        ruling.tell_public(
            {
                "event": "turn",
                "turn": ruling.board.turn,
                "side": first,
                "text": f"Turn {ruling.board.turn}: {scenario.side_name(first)} activates first.",
            }
        )


def end_activation(
    ruling: Ruling[Board], scenario: Scenario, side: str, command: EndActivation
) -> None:
    activation = ruling.board.activation
    assert activation is not None
    unit = ruling.piece(activation.unit)
    ruling.change_board("end_activation", next=ruling.state.others(side)[0])
    ruling.tell_public(
        {
            "event": "end_activation",
            "unit": unit.id,
            "text": f"{unit.public['name']} ends its activation.",
        }
    )


def acting_unit(ruling: Ruling[Board], side: str, ref: str | None) -> Piece:
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


def spend(ruling: Ruling[Board]) -> None:
    ruling.change_board("spend")


def measure_for(
    ruling: Ruling[Board], scenario: Scenario, side: str, entered: Measured | None
) -> Measure:
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


def _unhide_to_act(ruling: Ruling[Board], unit: Piece) -> Facts | None:
    """SW-A14 option (``sw.activation_reveals = false``): a camouflaged squad stays hidden
    while it observes; it is revealed when it moves or fires."""
    if unit.public["status"] == Status.CAMOUFLAGED:
        return expose(ruling, ruling.piece(unit.secret["marker"]))
    return None


# --- observation -----------------------------------------------------------------------------


def observe(ruling: Ruling[Board], scenario: Scenario, side: str, command: Observe) -> None:
    """SW-R10..R14 (and SW-A06, A07, A10, R35a)."""
    unit = acting_unit(ruling, side, command.unit)
    target = lookup.enemy(ruling.state, side, command.marker, [MARKER, SNIPER_MARKER])
    if target.public.get("face") == Face.MINEFIELD:
        raise Refusal(KNOWN_MINEFIELD, "That marker is a known minefield.")
    means_name: str = command.means or max(unit.public["means"], key=lambda m: MEANS[m].faces)
    if means_name not in unit.public["means"]:
        raise Refusal(NO_SUCH_MEANS, "That unit has no such means of observation.")
    measure = measure_for(ruling, scenario, side, command.measured)
    if scenario.switches.observe_needs_los and not measure.line_of_sight(unit, target):
        raise Refusal(NO_LINE_OF_SIGHT, "The observer cannot see that marker (SW-A06).")
    distance = measure.range(unit, target)
    cover = marker_cover(scenario, measure, target)
    spend(ruling)

    target_die = observation_die(distance, cover, scenario.switches)
    quality, means = Die.parse(unit.public["quality"]), MEANS[means_name]
    # SW-R34: nothing the enemy receives may say where a hidden sniper is, and the range die
    # (so its size) depends on which of its markers is true.
    concealed = is_hidden_sniper(unit)
    check = observation(target_die, quality, means, sniper=concealed)
    secret = concealed or scenario.switches.range_die is RangeDie.SECRET
    values, outcome = check.roll(
        lambda label, die: ruling.roll(label, die, secret=secret and label == "target")
    )

    found = _observation_effect(ruling, scenario, target, outcome.higher)
    label = target.public["label"]
    result = NO_CHANGE if found is None else ("flipped" if found.get("flipped") else "revealed")
    words = {
        NO_CHANGE: "no change.",
        "flipped": "the marker is flipped: someone is certainly there!",
        "revealed": (found or {}).get("text", ""),
    }[result]
    rolled = f"rolled {values['quality']} and {values['means']}"
    public: dict[str, Any] = {
        "event": "observe",
        "unit": unit.id,
        "marker": target.id,
        "label": label,
        "means": means_name,
        "dice": {"quality": values["quality"], "means": values["means"]},
        "result": result,
        **(found or {}),
        "text": f"{unit.public['name']} observes {label}: {rolled} — {words}",
    }
    die: dict[str, Any] = {"range_die": str(target_die)}
    if not secret:
        die["target"] = values["target"]
    die_text = (
        f"{unit.public['name']} observes {label} (range die {target_die}): {rolled} — {words}"
    )
    own = {**public, **die, "text": die_text, **measure.asserted()}
    ruling.tell(side, own)
    owner_line = {**public, "content": _content(target)}
    if not concealed:
        owner_line |= {
            **die,
            "target": values["target"],
            "higher": outcome.higher,
            "text": die_text,
        }
    ruling.tell(target.owner, owner_line)
    ruling.tell(SPECTATOR, public if concealed else {**public, **die, "text": die_text})
    if outcome.betrayed:
        _betrayal(ruling, unit)


def _content(marker: Piece) -> str:
    if marker.kind == SNIPER_MARKER:
        return "sniper" if marker.secret["true"] else "false sniper marker"
    return str(marker.secret.get("content", "nothing"))


def _observation_effect(
    ruling: Ruling[Board], scenario: Scenario, target: Piece, h: int
) -> Facts | None:
    """The SW-R14 table; None means "no change" (and looks the same whatever the cause)."""
    if target.kind == SNIPER_MARKER:
        if target.secret["true"]:
            return (
                reveal_sniper(ruling, ruling.piece(target.public["sniper"]), "is spotted")
                if h == 2
                else None
            )
        # SW-A10: a false sniper marker has nothing under it.
        if h >= 1 and scenario.switches.sniper_false_marker_removable:
            ruling.remove(target.id)
            return {
                "revealed": "nothing",
                "text": f"{target.public['label']} removed: a false sniper marker.",
            }
        return None
    content = target.secret.get("content", "nothing")
    if content == "unit":
        if h == 1:
            flip(ruling, target)
            return {"flipped": True}
        return expose(ruling, target) if h == 2 else None
    if content in ("mine", "ied"):
        # SW-R14: h = 1 changes nothing; SW-A07: h = 2 reveals the minefield.
        reveal = h == 2 and scenario.switches.full_observation_on_mine is FullOnMine.REVEAL
        return expose(ruling, target) if reveal else None
    return expose(ruling, target) if h >= 1 else None


def is_hidden_sniper(unit: Piece) -> bool:
    return bool(
        unit.public["unit_kind"] == UnitKind.SNIPER and unit.public["status"] == Status.HIDDEN
    )


def _betrayal(ruling: Ruling[Board], sniper: Piece) -> None:
    """SW-R35b: the sniper's quality die showed 1 — it gives itself away."""
    ruling.tell_public(
        {
            "event": "sniper_betrayed",
            **reveal_sniper(
                ruling, ruling.piece(sniper.id), "gives himself away (a 1 on his quality die)"
            ),
        }
    )


# --- fire --------------------------------------------------------------------------------------


def fire(ruling: Ruling[Board], scenario: Scenario, side: str, command: Fire) -> None:
    """Fire at a marker (SW-R15..R17, A08) or at a unit (general rules; SW-R21, R30..R32)."""
    unit = acting_unit(ruling, side, command.unit)
    target = lookup.enemy(ruling.state, side, command.target, [MARKER, SNIPER_MARKER, UNIT])
    if target.kind == UNIT:
        if target.public["status"] != Status.ON_TABLE:
            raise Refusal(NOT_ON_TABLE, "That unit is not on the table.")
        if target.public["attached_to"]:
            raise Refusal(ATTACHED, "Fire at the squad the figure is with (SW-R20).")
    elif target.public.get("face") == Face.MINEFIELD:
        raise Refusal(KNOWN_MINEFIELD, "That marker is a known minefield.")
    weapon = _weapon_die(command.weapon or unit.public["weapon"])
    measure = measure_for(ruling, scenario, side, command.measured)
    if not measure.line_of_sight(unit, target):
        raise Refusal(NO_LINE_OF_SIGHT, "The shooter cannot see the target.")
    distance = measure.range(unit, target)
    cover = marker_cover(scenario, measure, target)
    spend(ruling)
    unhidden = _unhide_to_act(ruling, unit)

    sniper = unit.public["unit_kind"] == UnitKind.SNIPER
    lone = target.kind == UNIT and target.public["unit_kind"] == UnitKind.LONE
    quality = Die.parse(unit.public["quality"])
    target_die = fire_die(distance, cover, quality, scenario.switches, sniper=sniper, lone=lone)
    # SW-R34: a hidden sniper's range die depends on which marker is true, so the enemy
    # learns neither it nor the roll on it; a marker's range die is secret as in observation.
    concealed = is_hidden_sniper(unit)
    secret = concealed or (target.kind != UNIT and scenario.switches.range_die is RangeDie.SECRET)
    check = shot(target_die, quality, weapon, sniper=sniper and concealed)
    values, outcome = check.roll(
        lambda label, die: ruling.roll(label, die, secret=secret and label == "target")
    )

    if target.kind == UNIT:
        found = _hit_unit(ruling, scenario, unit, target, outcome, sniper)
    else:
        found = _hit_marker(ruling, scenario, target, outcome, sniper)
    name = target.public.get("label") or target.public["name"]
    rolled = f"rolled {values['quality']} and {values['weapon']} — {found['text']}"
    public: dict[str, Any] = {
        "event": "fire",
        "unit": unit.id,
        "target": target.id,
        "dice": {"quality": values["quality"], "weapon": values["weapon"]},
        **found,
        "text": f"{unit.public['name']} fires at {name}: {rolled}",
    }
    die: dict[str, Any] = {"range_die": str(target_die)}
    if not secret or (concealed and target.kind == UNIT):
        die["target_roll"] = values["target"]
    die_text = f"{unit.public['name']} fires at {name} (range die {target_die}): {rolled}"
    if unhidden:
        public["text"] = f"{unhidden['text']} {public['text']}"
        die_text = f"{unhidden['text']} {die_text}"
    ruling.tell(side, {**public, **die, "text": die_text, **measure.asserted()})
    owner_line = {**public, "content": _content(target) if target.kind != UNIT else "unit"}
    if not concealed:
        owner_line |= {
            **die,
            "target_roll": values["target"],
            "higher": outcome.hits,
            "text": die_text,
        }
    ruling.tell(target.owner, owner_line)
    ruling.tell(SPECTATOR, public if concealed else {**public, **die, "text": die_text})
    if outcome.betrayed:
        _betrayal(ruling, unit)


def _weapon_die(text: str) -> Die:
    try:
        return Die.parse(text)
    except ValueError:
        raise Refusal("bad_weapon", "Give the weapon die as d4, d6, d8, d10 or d12.") from None


def _hit_marker(
    ruling: Ruling[Board], scenario: Scenario, target: Piece, outcome: Shot, sniper: bool
) -> Facts:
    # SW-R31: a sniper's fire gives two suppression markers for one, at most 3 in all.
    suppression = 2 if sniper else 1
    if outcome.hits == 2:
        if target.kind == SNIPER_MARKER:
            if target.secret["true"] or not scenario.switches.sniper_false_marker_removable:
                # SW-R17; SW-A10 option: a false marker never reacts, so it looks the same.
                return {
                    "result": "marker_stays",
                    "text": "full success, but the marker stays (SW-R17).",
                }
            ruling.remove(target.id)
            return {
                "result": "revealed",
                "revealed": "nothing",
                "text": f"{target.public['label']} removed: a false sniper marker.",
            }
        content = target.secret.get("content", "nothing")
        if content in ("mine", "ied"):
            # SW-R17: a marker over mines or an IED is not removed.
            return {
                "result": "marker_stays",
                "text": "full success, but the marker stays (SW-R17).",
            }
        # SW-R16: the enemy under it is placed with one suppression marker (SW-A08: no losses).
        return {
            "result": "revealed",
            **expose(
                ruling,
                target,
                suppression=suppression if content == "unit" else 0,
                cap=SUPPRESSION_CAP if sniper else None,
            ),
        }
    if (
        outcome.hits == 1
        and target.kind == MARKER
        and target.secret.get("content") == "unit"
        and scenario.switches.partial_fire_on_marker is PartialFire.HIDDEN_SUPPRESSION
    ):
        unit = ruling.piece(target.secret["unit"])
        hidden = unit.secret.get("hidden_suppression", 0) + suppression
        if sniper:
            hidden = min(hidden, SUPPRESSION_CAP)
        ruling.update(unit.id, secret={"hidden_suppression": hidden})
    # SW-A08: one die higher (or none) has no visible effect on a marker.
    return {"result": NO_CHANGE, "text": "no visible effect."}


def _hit_unit(
    ruling: Ruling[Board],
    scenario: Scenario,
    shooter: Piece,
    target: Piece,
    outcome: Shot,
    sniper: bool,
) -> Facts:
    hits = outcome.hits
    if not sniper:
        words = {
            0: "a miss.",
            1: "one die higher: apply the host rules (suppression).",
            2: "both dice higher: apply the host rules' hits.",
        }
        return {"result": ("miss", "partial", "full")[hits], "text": words[hits]}
    if hits == 0:
        return {"result": "miss", "text": "a miss."}
    if hits == 1:
        # SW-R32: one hit, allocated at random within the target group — and SW-R20: lone
        # figures attached to it are in the group, so they can be hit like anyone else.
        models = target.public["models"]
        attached = _attached(ruling, target)
        group = models + len(attached)
        model = ruling.roll("hit", Die(group)) if group > 1 else 1
        doubled = (
            " plus the host rules' suppression, doubled (SW-R31, A16)"
            if scenario.switches.sniper_hit is SniperHit.DOUBLED
            else ""
        )
        hit: dict[str, Any] = {"result": "partial", "hit_model": model}
        if model > models:
            figure = attached[model - models - 1]
            return {
                **hit,
                "hit_unit": figure.id,
                "text": f"one hit, on {figure.public['name']} with the group{doubled}.",
            }
        return {**hit, "text": f"one hit, on model {model} of the group{doubled}."}
    return {
        "result": "full",
        "text": "both dice higher: one hit on a model the sniper's owner chooses (SW-R32).",
    }


def _attached(ruling: Ruling[Board], squad: Piece) -> list[Piece]:
    """Lone figures with the squad (SW-R19), in a fixed order: after the squad's models."""
    return [
        p
        for p in ruling.state.pieces.values()
        if p.kind == UNIT and p.public.get("attached_to") == squad.id
    ]


# --- movement ----------------------------------------------------------------------------------


def move(ruling: Ruling[Board], scenario: Scenario, side: str, command: Move) -> None:
    """A move; then SW-R07 (an enemy marker in the open now in sight) and SW-R08 (a marker
    now inside the squad) remove markers and place what they hid."""
    unit = acting_unit(ruling, side, command.unit)
    if is_hidden_sniper(unit):
        raise Refusal(HIDDEN, "A hidden sniper moves only by a covert move (SW-R36).")
    if unit.public["attached_to"]:
        raise Refusal(ATTACHED, "An attached figure moves with its squad.")
    lines: list[Facts] = []
    if scenario.mode is Mode.MAP:
        if command.to is None or command.exposes:
            raise Refusal(
                BAD_MOVE, "On a map, give the unit's new centre; ghillie finds what it exposes."
            )
        if not scenario.tabletop.on_table(command.to):
            raise Refusal(OFF_TABLE, "The unit must stay on the table.")
    else:
        if command.to is not None:
            raise Refusal(
                BAD_MOVE, "At a table, move the models there and name the markers it exposed."
            )
        exposed = [
            lookup.enemy(ruling.state, side, ref, [MARKER, SNIPER_MARKER])
            for ref in command.exposes
        ]
    spend(ruling)
    unhidden = _unhide_to_act(ruling, unit)
    if unhidden:
        lines.append(unhidden)
    if scenario.mode is Mode.MAP:
        assert command.to is not None
        ruling.update(unit.id, public={"at": list(command.to)})
        exposed = exposed_on_map(ruling.state, scenario, ruling.piece(unit.id))
    ruling.tell_public({"event": "move", "unit": unit.id, "text": f"{unit.public['name']} moves."})
    lines += expose_markers(ruling, scenario, exposed)
    for line in lines:
        ruling.tell_public(
            {
                "event": "exposed",
                **line,
                **({"asserted_by": side} if scenario.mode is Mode.TABLE else {}),
            }
        )


# --- the sniper's own actions ------------------------------------------------------------------


def covert(ruling: Ruling[Board], scenario: Scenario, side: str, command: CovertMove) -> None:
    """SW-R36: roll the quality die higher than the sniper's own leadership (SW-A11) to slip
    to another marker; the opponent never learns whether it moved (bluff)."""
    unit = acting_unit(ruling, side, None)
    if not is_hidden_sniper(unit):
        raise Refusal(NOT_HIDDEN, "Only a hidden sniper moves between its markers.")
    markers = sniper_markers(ruling, unit.id)
    to = None
    if command.to is not None:
        to = lookup.own(ruling.state, side, command.to, [SNIPER_MARKER])
        if to not in markers:
            raise Refusal("bad_marker", "That is not one of this sniper's markers.")
    if scenario.switches.covert_move_costs_action:
        spend(ruling)  # SW-A12
    leadership = unit.public["leadership"]
    against = Die.parse(leadership) if isinstance(leadership, str) else int(leadership)
    check = covert_move(
        Die.parse(unit.public["quality"]), against, scenario.switches.leadership_die
    )
    values, outcome = check.roll(lambda label, die: ruling.roll(label, die))
    moved = False
    if outcome.value == "success" and to is not None and not to.secret["true"]:
        current = next(m for m in markers if m.secret["true"])
        ruling.update(current.id, secret={"true": False})
        ruling.update(to.id, secret={"true": True})
        moved = True
    rolled = ", ".join(map(str, values.values()))
    text = f"{unit.public['name']} tests a covert move: rolled {rolled}."
    public = {"event": "covert_move", "unit": unit.id, "dice": dict(values), "text": text}
    result = {"success": "success", "failure": "failure", "betrayed": "betrayed"}[outcome.value]
    where_now = f" Now under {to.public['label']}." if moved and to else " Stays put."
    ruling.tell(
        side,
        {
            **public,
            "result": result,
            "moved": moved,
            "to": to.id if to else None,
            "text": text + where_now,
        },
    )
    for other in ruling.state.others(side):
        ruling.tell(other, public)
    ruling.tell(SPECTATOR, public)
    if outcome.value == "betrayed":
        _betrayal(ruling, unit)


def rehide(ruling: Ruling[Board], scenario: Scenario, side: str, command: Rehide) -> None:
    """SW-R37: a revealed sniper that passed its reaction test at threat +2 hides again: the
    true marker where it stands, two false ones within 6" (SW-R37 DEFAULT)."""
    unit = acting_unit(ruling, side, None)
    if unit.public["unit_kind"] != UnitKind.SNIPER or unit.public["status"] != Status.ON_TABLE:
        raise Refusal(NOT_HIDDEN, "Only a sniper on the table hides again.")
    here = unit.public.get("at") or (0.0, 0.0)
    spots = None
    if command.markers is not None:
        spots = ((float(here[0]), float(here[1])), *command.markers)
    points = setup.check_sniper_spots(scenario, spots)
    spend(ruling)
    if not command.passed_reaction_test:
        ruling.tell_public(
            {
                "event": "rehide",
                "unit": unit.id,
                "text": f"{unit.public['name']} fails to hide again.",
            }
        )
        return
    setup.lay_sniper_markers(ruling, unit, points, 0, command.note)


def other_action(
    ruling: Ruling[Board], scenario: Scenario, side: str, command: OtherAction
) -> None:
    unit = acting_unit(ruling, side, command.unit)
    spend(ruling)
    what = f": {command.what}" if command.what else ""
    ruling.tell_public(
        {
            "event": "other_action",
            "unit": unit.id,
            "what": command.what,
            "text": f"{unit.public['name']} spends an action{what}.",
        }
    )
