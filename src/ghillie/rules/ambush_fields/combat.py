"""The Combat Phase: EW, fire through the field, the scouts' abilities, and segment 10.

Everything here is ruled on at once (the host game's own combat is played out at the table
or in its own program); segment 10 — the end of the phase — applies losses, and a field
whose controller was lost drops then (BSG-R28).
"""

from __future__ import annotations

from ghillie import lookup
from ghillie.errors import NOT_NOW, UNKNOWN_PIECE, Refusal
from ghillie.ruling import Ruling
from ghillie.state import Facts

from .board import Board, FieldState
from .commands import AssignEW, Destroyed, Fire, Identify, MassIdentify
from .fields import (
    Field,
    Visibility,
    capped,
    contains,
    cover_rating,
    field_lost,
    protective_modifier,
)
from .movement import apply, raise_to, units
from .pieces import FIELD, SHIP, own_ship, ship_class, ships, visibility, where
from .pieces import fields as field_geometry
from .scenario import AmbushFieldsScenario, ShipClass
from .scouting import identify, mass_identify, mass_identify_reaches

OUT_OF_RANGE = "out_of_range"
NOT_A_SCOUT = "not_a_scout"
NO_POINTS = "no_points_left"


def _scout(
    ruling: Ruling[Board], scenario: AmbushFieldsScenario, side: str, ref: str, points: int
) -> Facts:
    scout = own_ship(ruling.state, side, ref)
    if ship_class(scout) is not ShipClass.SCOUT:
        raise Refusal(NOT_A_SCOUT, "Only a scout spends scout points.")
    spent = int(scout.secret.get("spent", {}).get(str(ruling.board.turn), 0))
    if spent + points > scenario.host.scout_points:
        raise Refusal(NO_POINTS, "That scout has not that many points left this turn.")
    ruling.update(scout.id, secret={"spent": {str(ruling.board.turn): spent + points}})
    return {"id": scout.id, "name": scout.secret["name"]}


def assign_ew(
    ruling: Ruling[Board], scenario: AmbushFieldsScenario, side: str, command: AssignEW
) -> None:
    """BSG-R07, R08: EW on a ship in a field is safe up to the field's rating; more gives it
    away (detected), and the other side gains partial information on the field (R16)."""
    _scout(ruling, scenario, side, command.scout, command.points)
    target = own_ship(ruling.state, side, command.target)
    turn = str(ruling.board.turn)
    on = int(target.secret.get("ew_on", {}).get(turn, 0)) + command.points
    ruling.update(target.id, secret={"ew_on": {turn: on}})
    at = where(ruling.state, target)
    rating = cover_rating(at, side, field_geometry(ruling.state)) if at else None
    if rating is not None and on > rating:
        _give_away(ruling, target.id)
    ruling.tell(side, {"event": "ew", "text": f"{command.points} point(s) of EW assigned."})


def _give_away(ruling: Ruling[Board], ship_id: str) -> None:
    """A hidden ship becomes detected (R08, R09), and its field is partly known (R16)."""
    ship = ruling.piece(ship_id)
    for other in ruling.state.others(ship.owner):
        if visibility(ruling.state, other, ship) is Visibility.HIDDEN:
            raise_to(ruling, ship.id, other, Visibility.DETECTED)
            for field_id in ship.secret.get("in_fields", []):
                ruling.change_board("pi", side=other, field=field_id)
                if ruling.board.knows(other, field_id) is FieldState.UNKNOWN:
                    ruling.change_board("field", side=other, field=field_id, state="partial")


def fire(ruling: Ruling[Board], scenario: AmbushFieldsScenario, side: str, command: Fire) -> None:
    firer = own_ship(ruling.state, side, command.ship)
    target = lookup.enemy(ruling.state, side, command.target, kinds=(SHIP,))
    source, aim = where(ruling.state, firer), where(ruling.state, target)
    if source is None or aim is None:
        raise Refusal(NOT_NOW, "Both ships must be on the map.")
    shapes = field_geometry(ruling.state)
    field = protective_modifier(source, aim, target.owner, shapes)
    if command.eccm:
        # BSG-R23: counter-EW cancels the field's penalty on this target, point for point.
        if command.eccm_scout is None:
            raise Refusal(NOT_A_SCOUT, "Only a scout spends scout points.")
        _scout(ruling, scenario, side, command.eccm_scout, command.eccm)
        field = max(0, field - command.eccm)
    modifier = capped(field + command.modifiers)
    _give_away(ruling, firer.id)  # BSG-R09: firing gives a hidden ship away
    line = {
        "event": "fire",
        "ship": firer.id,
        "target": target.id,
        "modifier": modifier,
        "text": f"{firer.secret['name']} fires: total modifier {modifier:+d} "
        "(the field's, then the ±3 cap).",
    }
    ruling.tell(side, line)
    ruling.tell(target.owner, {**line, "text": f"A ship fires at {target.secret['name']}."})


def do_identify(
    ruling: Ruling[Board], scenario: AmbushFieldsScenario, side: str, command: Identify
) -> None:
    target = lookup.enemy(ruling.state, side, command.target, kinds=(SHIP,))
    scout_ship = own_ship(ruling.state, side, command.scout)
    source, aim = where(ruling.state, scout_ship), where(ruling.state, target)
    if source is None or aim is None:
        raise Refusal(NOT_NOW, "Both ships must be on the map.")
    rating = cover_rating(aim, target.owner, field_geometry(ruling.state)) or 0
    result = identify(
        command.points,
        max(rating, 1),
        visibility(ruling.state, side, target),
        source,
        aim,
        scenario.host.identify_ewe,
    )
    if result.refused == OUT_OF_RANGE:
        raise Refusal(OUT_OF_RANGE, "The target is beyond the ability's range.")
    if result.refused is not None:
        raise Refusal(NOT_NOW, "That ship cannot be identified now.")
    scout = _scout(ruling, scenario, side, command.scout, command.points)
    if result.identified:
        raise_to(ruling, target.id, side, Visibility.IDENTIFIED)
    # BSG-R24: success or failure only, never the rating.
    word = "identified" if result.identified else "not identified"
    ruling.tell(side, {"event": "identify", "result": word, "text": f"{scout['name']}: {word}."})


def do_mass_identify(
    ruling: Ruling[Board], scenario: AmbushFieldsScenario, side: str, command: MassIdentify
) -> None:
    state = ruling.state
    field_piece = state.pieces.get(command.field)
    if field_piece is None or field_piece.kind != FIELD or field_piece.owner == side:
        raise Refusal(UNKNOWN_PIECE, "There is no such piece that you can see.")
    located = ruling.board.knows(side, field_piece.id) is FieldState.LOCATED
    if not located:
        # An unlocated field is unseen: answered like no field at all.
        raise Refusal(UNKNOWN_PIECE, "There is no such piece that you can see.")
    shape: Field = next(f for f in field_geometry(state) if f.key == field_piece.id)
    if not shape.active:
        raise Refusal(NOT_NOW, "That field is not on the board now.")
    share, rest = divmod(command.points, len(command.scouts))
    for i, ref in enumerate(command.scouts):
        ship = own_ship(state, side, ref)
        at = where(state, ship)
        if at is None or not mass_identify_reaches(at, shape, scenario.host.normal_ewe):
            raise Refusal(OUT_OF_RANGE, "A scout is beyond normal EW range of the field.")
        _scout(ruling, scenario, side, ref, share + (1 if i < rest else 0))
    result = mass_identify(command.points, shape.rating, located)
    if result.outcome is not None:
        for ship in ships(ruling.state):
            at = where(ruling.state, ship)
            if ship.owner == shape.owner and at is not None and contains(shape, at):
                raise_to(ruling, ship.id, side, result.outcome)
    word = result.outcome.value if result.outcome else "no effect"
    ruling.tell(side, {"event": "mass_identify", "result": word, "text": f"Mass identify: {word}."})


def destroyed(ruling: Ruling[Board], side: str, command: Destroyed) -> None:
    ship = own_ship(ruling.state, side, command.ship)
    ruling.update(ship.id, secret={"destroyed": True})
    ruling.tell(
        side, {"event": "destroyed", "text": f"{ship.secret['name']} is lost at segment 10."}
    )


def segment_10(ruling: Ruling[Board]) -> None:
    """BSG-R28: losses applied; a lost controller's field drops (R30: its ships identified)."""
    state = ruling.state
    lost = [s for s in ships(state) if s.secret.get("destroyed")]
    if not lost:
        return
    gone = {s.id for s in lost}
    shapes = field_geometry(state)
    for piece in list(state.pieces.values()):
        if piece.kind == FIELD and piece.secret["active"] and piece.secret["controller"] in gone:
            shape = next(f for f in shapes if f.key == piece.id)
            remaining = [f for f in shapes if f.key != piece.id]
            survivors = [u for u in units(ruling.state) if u.key not in gone]
            if shape.active:  # a controller lost off the board takes its field's hexes along
                apply(ruling, field_lost(shape, survivors, remaining))
            ruling.update(piece.id, secret={"active": False})
            for other in ruling.state.others(piece.owner):
                ruling.change_board("field", side=other, field=piece.id, state="dropped")
            ruling.tell_public({"event": "field_dropped", "text": "An ambush field is dropped."})
    for ship in lost:
        visible_to = [
            o
            for o in ruling.state.others(ship.owner)
            if visibility(ruling.state, o, ship) is not Visibility.HIDDEN
        ]
        ruling.remove(ship.id)
        for other in visible_to:
            ruling.tell(other, {"event": "lost", "text": "A ship is lost."})
