"""The end of the Movement Phase: plots carried out, containment, and segment 7's rolls.

Both sides' plots are carried out together once both have ended the phase (BSG-R06: "at
the end of the movement phase"). Then who is hidden is settled (R06, R11, R16, R26), and
every ship a side declared as scanning rolls, in secret, against every enemy field it has
not located (R12-R19, A05, A06) — fields the side does not know of included. Each scanner's
report is one line: "no contact" whatever the reason (no field there, out of range, failed
by two or more: RULES-SPEC §6), or what a partial result or a located field tells.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ghillie.measure.hexes import line
from ghillie.ruling import Ruling
from ghillie.state import Facts, GameState, Level, Piece

from .board import Board, FieldState
from .detection import Outcome, detection_check
from .fields import (
    Field,
    Reveal,
    UnitAt,
    Visibility,
    contains,
    end_of_movement,
    invasion,
    partial_information,
    range_to_field,
)
from .fugitives import track
from .pieces import fields as field_geometry
from .pieces import identity, is_off_board, known_as, sentence, ship_class, ships, visibility, where
from .scenario import AmbushFieldsScenario


def carry_out_plots(ruling: Ruling[Board]) -> None:
    """Every plotted move at once. A move with ``leave`` ends off the board, having left it
    at its edge hex; a ship off the board comes back at the edge hex it is plotted to. A
    side that sees the ship — and only such a side — sees it leave or come back."""
    for ship in ships(ruling.state):
        plot = ship.secret.get("plot")
        if plot is None:
            continue
        motion = {"heading": plot["heading"], "speed": plot["speed"]}
        note = {"note": plot.get("note", "")}
        if plot.get("leave"):
            _tell_watchers(ruling, ship, "left_board", "leaves the board at", plot["to"])
            ruling.update(
                ship.id,
                public={"at": None, "off_board": True, "left_from": plot["to"], **motion},
                secret=note,
                unset=("plot",),
            )
        elif is_off_board(ship):
            ruling.update(
                ship.id,
                public={"at": plot["to"], **motion},
                secret=note,
                unset=("plot", "off_board", "left_from"),
            )
            _tell_watchers(
                ruling, ship, "entered_board", "comes back onto the board at", plot["to"]
            )
        else:
            ruling.update(
                ship.id, public={"at": plot["to"], **motion}, secret=note, unset=("plot",)
            )


def _tell_watchers(ruling: Ruling[Board], ship: Piece, event: str, words: str, at: str) -> None:
    """The owner, and every other side that sees ``ship``, is told it ``words`` ``at``."""
    ruling.tell(
        ship.owner,
        {"event": event, "ship": ship.id, "text": f"{ship.secret['name']} {words} {at}."},
    )
    for other in ruling.state.others(ship.owner):
        if visibility(ruling.state, other, ship) is Visibility.HIDDEN:
            continue
        what = sentence(known_as(ruling.state, other, ship))
        ruling.tell(other, {"event": event, "ship": ship.id, "text": f"{what} {words} {at}."})


def crossings(state: GameState[Board], scenario: AmbushFieldsScenario) -> list[str]:
    """Under ``bsg.enter_trigger = immediate`` (BSG-A15's option): the enemy fields that a
    plotted move passes through, even if it ends outside them (taken before the plots are
    carried out, with each field where it stood)."""
    crossed: list[str] = []
    shapes = [f for f in field_geometry(state) if f.active]
    for ship in ships(state):
        plot, start = ship.secret.get("plot"), where(state, ship)
        if plot is None or start is None:
            continue
        path = line(start, scenario.hex_map.from_label(plot["to"]))
        for shape in shapes:
            entered = any(contains(shape, step) for step in path)
            if shape.owner != ship.owner and entered and shape.key not in crossed:
                crossed.append(shape.key)
    return crossed


def invade(ruling: Ruling[Board], field_id: str) -> None:
    """BSG-R26: an enemy went into the field: every unit in it identified, the field
    located."""
    shape = next(f for f in field_geometry(ruling.state) if f.key == field_id)
    if not shape.active:
        return
    apply(ruling, invasion(shape, units(ruling.state)))
    for other in ruling.state.others(shape.owner):
        locate(ruling, other, field_id)


def units(state: GameState[Board]) -> list[UnitAt]:
    """Every ship on the map as the pure rules see it (two sides: how the other sees it)."""
    out = []
    for ship in ships(state):
        at = where(state, ship)
        if at is None:
            continue
        other = next(iter(state.others(ship.owner)))
        out.append(
            UnitAt(
                key=ship.id,
                side=ship.owner,
                at=at,
                visibility=visibility(state, other, ship),
                ship_class=ship_class(ship),
                was_in=tuple(ship.secret.get("in_fields", ())),
            )
        )
    return out


def apply(ruling: Ruling[Board], reveals: Iterable[Reveal]) -> None:
    for reveal in reveals:
        ship = ruling.piece(reveal.unit)
        for other in ruling.state.others(ship.owner):
            raise_to(ruling, ship.id, other, reveal.visibility)


def settle(ruling: Ruling[Board], scenario: AmbushFieldsScenario) -> None:
    """BSG-R06, R11, R16, R26 at the end of the phase, for each side's ships; then the
    fugitives' pursuits (R27, A19)."""
    geometry = field_geometry(ruling.state)
    present = units(ruling.state)
    was_in = {s.id: list(s.secret.get("in_fields", [])) for s in ships(ruling.state)}
    result = end_of_movement(present, geometry)
    apply(ruling, result.reveals)
    for field_id in result.partial_information:
        for other in ruling.state.others(ruling.piece(field_id).owner):
            _partial(ruling, other, field_id)
    for field_id in result.located:
        for other in ruling.state.others(ruling.piece(field_id).owner):
            locate(ruling, other, field_id)
    # Which friendly fields each ship is now in: R16 needs to know which one it leaves, and
    # A19 when it entered. A ship off the board is in none.
    for ship in ships(ruling.state):
        at = where(ruling.state, ship)
        inside = [
            f.key for f in geometry if f.owner == ship.owner and at is not None and contains(f, at)
        ]
        if was_in[ship.id] != inside:
            ruling.update(ship.id, secret={"in_fields": inside})
    track(ruling, was_in)


def detect(ruling: Ruling[Board], scenario: AmbushFieldsScenario) -> None:
    """Segment 7: every declared scanner against every enemy field (BSG-R12, R13, A05)."""
    state = ruling.state
    geometry = {f.key: f for f in field_geometry(state) if f.active}
    for side in state.sides:
        for scanner_id in sorted(ruling.board.scanners.get(side, ())):
            scanner = state.pieces.get(scanner_id)
            at = where(state, scanner) if scanner is not None else None
            if scanner is None or at is None:
                continue
            results: list[Facts] = []
            for field_id in sorted(geometry):
                field = geometry[field_id]
                if field.owner == side or ruling.board.knows(side, field_id) is FieldState.LOCATED:
                    continue
                result = _roll(ruling, scenario, side, scanner_id, field)
                if result is not None:
                    results.append(result)
            name = scanner.secret["name"]
            text = f"{name}: " + ("; ".join(r["text"] for r in results) or "no contact")
            ruling.tell(
                side, {"event": "scan", "ship": scanner_id, "results": results, "text": text}
            )


def _roll(
    ruling: Ruling[Board], scenario: AmbushFieldsScenario, side: str, scanner_id: str, field: Field
) -> Facts | None:
    state = ruling.state
    scanner = state.pieces[scanner_id]
    at = where(state, scanner)
    assert at is not None
    distance = range_to_field(at, field, scenario.switches.range_to)
    if distance is None:
        return None  # inside the field: R26 settled it at the end of movement
    controller = state.pieces[state.pieces[field.key].secret["controller"]]
    speed = int(controller.public.get("speed", 0))
    kind = ship_class(scanner)
    check = detection_check(
        distance,
        field.rating,
        fighter=kind.small,
        flag=bool(scanner.secret.get("flag")),
        partial=ruling.board.has_pi(side, field.key),
        speed=speed,
        cap_detection_mods=scenario.switches.cap_detection_mods,
    )
    if check is None:
        return None  # BSG-A11: no roll possible, and no different report
    _, outcome = check.roll(lambda label, die: ruling.roll(f"detect:{label}", die, secret=True))
    if outcome is Outcome.NO_CONTACT:
        return None
    if outcome is Outcome.PARTIAL:
        base = check.args[0]
        shown = partial_information(
            at,
            "ABCDEF".index(scanner.public.get("heading", "A")),
            field,
            scenario.host.arc_scheme,
            scenario.switches.arc_report,
            base_number=base,
            moving=speed > 0,
            heading="ABCDEF".index(controller.public.get("heading", "A")),
        )
        _partial(ruling, side, field.key)
        return {"result": "partial", **shown, "text": f"partial: {_describe(shown)}"}
    _locate(ruling, side, field)
    centre = scenario.hex_map.to_label(field.centre)
    return {
        "result": "located",
        "centre": centre,
        "radius": field.radius,
        "rating": field.rating,
        "speed": speed,
        "heading": controller.public.get("heading", "A"),
        "text": f"a field located at {centre}, radius {field.radius}, rating {field.rating}",
    }


def _describe(shown: Any) -> str:
    parts = [f"{k.replace('_', ' ')} {v}" for k, v in dict(shown).items()]
    return ", ".join(parts)


def _partial(ruling: Ruling[Board], side: str, field_id: str) -> None:
    ruling.change_board("pi", side=side, field=field_id)
    if ruling.board.knows(side, field_id) is FieldState.UNKNOWN:
        ruling.change_board("field", side=side, field=field_id, state=FieldState.PARTIAL.value)


def _locate(ruling: Ruling[Board], side: str, field: Field) -> None:
    """BSG-R17: the field's place, extent, strength and motion, and every unit inside it
    detected."""
    locate(ruling, side, field.key)
    for ship in ships(ruling.state):
        at = where(ruling.state, ship)
        if ship.owner == field.owner and at is not None and contains(field, at):
            raise_to(ruling, ship.id, side, Visibility.DETECTED)


def locate(ruling: Ruling[Board], side: str, field_id: str) -> None:
    """From now on ``side`` sees the field (BSG-R17: "always visible on the board"): it is
    a piece that side knows, so its id may be shown to it and named in its commands."""
    ruling.change_board("field", side=side, field=field_id, state=FieldState.LOCATED.value)
    if ruling.state.known(side, field_id).level < Level.DETECTED:
        ruling.reveal(field_id, side, Level.DETECTED)


def raise_to(ruling: Ruling[Board], ship_id: str, side: str, to: Visibility) -> None:
    """Knowledge only ever rises (BSG-A17)."""
    ship = ruling.piece(ship_id)
    now = visibility(ruling.state, side, ship)
    if to is Visibility.IDENTIFIED and now is not Visibility.IDENTIFIED:
        ruling.reveal(ship.id, side, Level.IDENTIFIED, identity(ship))
    elif to is Visibility.DETECTED and now is Visibility.HIDDEN:
        ruling.reveal(ship.id, side, Level.DETECTED)
