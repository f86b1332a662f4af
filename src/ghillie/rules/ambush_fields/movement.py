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
from ghillie.state import Facts, Level, Piece
from ghillie.words import N_, Say, say, says

from .board import FieldKnown, FieldState, Hint, HoldsPI, Rules, State
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
from .pieces import identity, is_off_board, ship_class, ships, visibility, where
from .story import category, field_name, ship_name, sight, tell_sighted


def carry_out_plots(ruling: Rules) -> None:
    """Every plotted move at once. A move with ``leave`` ends off the board, having left it
    at its edge hex; a ship off the board comes back at the edge hex it is plotted to. A
    side that sees the ship — and only such a side — sees it move, leave or come back."""
    state = ruling.state
    carried: dict[str, list[Say]] = {}
    seen_moving: dict[str, list[Say]] = {}
    for ship in ships(state):
        plot = ship.secret.get("plot")
        if plot is None:
            continue
        motion = {"heading": plot["heading"], "speed": plot["speed"]}
        note = {"note": plot.get("note", "")}
        name = ship.secret["name"]
        if plot.get("leave"):
            _tell_watchers(ruling, ship, "left_board", plot["to"])
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
            _tell_watchers(ruling, ship, "entered_board", plot["to"])
        else:
            moved = (ship.public.get("at"), ship.public.get("heading")) != (
                plot["to"],
                plot["heading"],
            )
            for other in state.others(ship.owner):
                if moved and visibility(state, other, ship) is not Visibility.HIDDEN:
                    seen_moving.setdefault(other, []).append(
                        say(
                            "{ship} to hex {hex}, heading {heading}",
                            ship=ship_name(state, other, ship),
                            hex=plot["to"],
                            heading=plot["heading"],
                        )
                    )
            ruling.update(
                ship.id, public={"at": plot["to"], **motion}, secret=note, unset=("plot",)
            )
            carried.setdefault(ship.owner, []).append(
                say(
                    "{ship} to hex {hex}, heading {heading}, speed {speed}",
                    ship=name,
                    hex=plot["to"],
                    heading=plot["heading"],
                    speed=plot["speed"],
                )
            )
    for side, moves in carried.items():
        ruling.tell(
            side,
            {
                "event": "moved",
                "text": says(
                    "Your plotted move is carried out: {moves}.",
                    "Your {n} plotted moves are carried out: {moves}.",
                    len(moves),
                    moves=moves,
                    rules=("BSG-R06",),
                ),
            },
        )
    for side, moves in seen_moving.items():
        ruling.tell(
            side,
            {
                "event": "seen_moving",
                "text": says(
                    "You see an enemy ship move: {moves}.",
                    "You see {n} enemy ships move: {moves}.",
                    len(moves),
                    moves=moves,
                    rules=("BSG-R10",),
                ),
            },
        )


LEAVES = {
    "left_board": "{ship} leaves the board at hex {hex}.",
    "entered_board": "{ship} comes back onto the board at hex {hex}.",
}


def _tell_watchers(ruling: Rules, ship: Piece, event: str, at: str) -> None:
    """The owner, and every other side that sees ``ship``, is told it leaves the board or
    comes back onto it at ``at``: named as each knows it (before it leaves; a counter that
    comes back, by its new hex)."""
    state = ruling.state
    template = LEAVES[event]
    ruling.tell(
        ship.owner,
        {"event": event, "ship": ship.id, "text": say(template, ship=ship.secret["name"], hex=at)},
    )
    for other in state.others(ship.owner):
        seen = visibility(state, other, ship)
        if seen is Visibility.HIDDEN:
            continue
        if seen is Visibility.IDENTIFIED or event == "left_board":
            text = say(template, ship=ship_name(state, other, ship, first=True), hex=at)
        else:
            text = say(
                "A {category} counter comes back onto the board at hex {hex}.",
                category=category(ship),
                hex=at,
            )
        ruling.tell(other, {"event": event, "ship": ship.id, "text": text})


def crossings(state: State) -> list[str]:
    """Under ``bsg.enter_trigger = immediate`` (BSG-A15's option): the enemy fields that a
    plotted move passes through, even if it ends outside them (taken before the plots are
    carried out, with each field where it stood)."""
    crossed: list[str] = []
    shapes = [f for f in field_geometry(state) if f.active]
    for ship in ships(state):
        plot, start = ship.secret.get("plot"), where(state, ship)
        if plot is None or start is None:
            continue
        path = line(start, state.scenario.hex_map.from_label(plot["to"]))
        for shape in shapes:
            entered = any(contains(shape, step) for step in path)
            if shape.owner != ship.owner and entered and shape.key not in crossed:
                crossed.append(shape.key)
    return crossed


def invade(ruling: Rules, field_id: str) -> None:
    """BSG-R26 under ``bsg.enter_trigger = immediate``: an enemy's course went into the
    field: every unit in it identified, the field located."""
    shape = next(f for f in field_geometry(ruling.state) if f.key == field_id)
    if not shape.active:
        return
    before = sight(ruling.state)
    apply(ruling, invasion(shape, units(ruling.state)))
    field = ruling.piece(field_id)
    for other in ruling.state.others(shape.owner):
        locate(ruling, other, field_id)
        ruling.tell(
            other,
            {
                "event": "field_located",
                "field": field_id,
                "text": say(
                    "Your ships' course crosses {field}: it is located, and every ship in it "
                    "is identified.",
                    field=field_name(ruling.state, other, field),
                    rules=("BSG-R26", "BSG-A15"),
                ),
            },
        )
        ruling.tell(
            field.owner,
            {
                "event": "field_located",
                "field": field_id,
                "text": say(
                    "An enemy ship's course crosses {field}: the enemy has located it, and "
                    "every ship in it is identified.",
                    field=field_name(ruling.state, field.owner, field),
                    rules=("BSG-R26", "BSG-A15"),
                ),
            },
        )
    tell_sighted(ruling, before, rules=("BSG-R26",))


def units(state: State) -> list[UnitAt]:
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


def apply(ruling: Rules, reveals: Iterable[Reveal]) -> None:
    for reveal in reveals:
        ship = ruling.piece(reveal.unit)
        for other in ruling.state.others(ship.owner):
            raise_to(ruling, ship.id, other, reveal.visibility)


def settle(ruling: Rules) -> None:
    """BSG-R06, R11, R16, R26 at the end of the phase, for each side's ships; then the
    fugitives' pursuits (R27, A19). Each side is told what appears on its board and why;
    each owner, what the enemy now sees and knows of its fleet and fields."""
    state = ruling.state
    geometry = field_geometry(state)
    present = units(state)
    was_in = {s.id: list(s.secret.get("in_fields", [])) for s in ships(state)}
    result = end_of_movement(present, geometry)
    # R26 first: the fields an enemy has moved into, located, and every ship in them.
    invasions = [r for r in result.reveals if r.rule == "BSG-R26"]
    before = sight(state)
    apply(ruling, invasions)
    for field_id in result.located:
        for other in ruling.state.others(ruling.piece(field_id).owner):
            locate(ruling, other, field_id)
            _moved_in(ruling, other, field_id, present)
    tell_sighted(ruling, before, rules=("BSG-R26",))
    # R06: hidden ships that ended outside every friendly field, identified; R16: the enemy
    # gains partial information on the fields they came out of. R11: detected ones, too.
    for rule in ("BSG-R06", "BSG-R11"):
        before = sight(ruling.state)
        apply(ruling, [r for r in result.reveals if r.rule == rule])
        tell_sighted(ruling, before, rules=(rule,))
    for field_id in result.partial_information:
        for other in ruling.state.others(ruling.piece(field_id).owner):
            partial(ruling, other, field_id)
    for reveal in result.reveals:
        ship = ruling.piece(reveal.unit)
        left = [f for f in was_in[ship.id] if f in result.partial_information]
        if reveal.rule == "BSG-R06" and left:
            for other in ruling.state.others(ship.owner):
                came_out(ruling, other, ship, left, gave_away=False)
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


def _moved_in(ruling: Rules, side: str, field_id: str, present: list[UnitAt]) -> None:
    """R26: ``side``'s ships ended the phase inside the enemy field ``field_id``."""
    state = ruling.state
    field = ruling.piece(field_id)
    shape = next(f for f in field_geometry(state) if f.key == field_id)
    inside = [state.pieces[u.key] for u in present if u.side == side and contains(shape, u.at)]
    ruling.tell(
        side,
        {
            "event": "field_located",
            "field": field_id,
            "text": says(
                "{ships} is inside {field}: it is located, and every ship in it is identified.",
                "{ships} are inside {field}: it is located, and every ship in it is identified.",
                len(inside),
                ships=[s.secret["name"] for s in inside],
                field=field_name(state, side, field),
                rules=("BSG-R26", "BSG-R17"),
            ),
        },
    )
    ruling.tell(
        field.owner,
        {
            "event": "field_located",
            "field": field_id,
            "text": says(
                "{ships} has moved into {field}: the enemy has located it, and every ship in "
                "it is identified.",
                "{ships} have moved into {field}: the enemy has located it, and every ship "
                "in it is identified.",
                len(inside),
                ships=[ship_name(state, field.owner, s) for s in inside],
                field=field_name(state, field.owner, field),
                rules=("BSG-R26", "BSG-R17"),
            ),
        },
    )


def came_out(ruling: Rules, side: str, ship: Piece, fields: list[str], *, gave_away: bool) -> None:
    """BSG-R16, A14: ``side`` gains partial information on ``fields``, which ``ship`` hid
    in: it is shown only the ship itself, where it appeared; the owner is told of it."""
    state = ruling.state
    at = ship.public.get("at")
    hint(ruling, side, kind="appeared", ship=ship.id, at=at)
    seen = ship_name(state, side, ship, first=True)
    ruling.tell(
        side,
        {
            "event": "partial_information",
            "ship": ship.id,
            "text": say(
                "{ship} gave itself away inside an ambush field: you gain partial "
                "information on that field (-1 on your later rolls against it)."
                if gave_away
                else "{ship} came out of an ambush field: you gain partial information on "
                "that field (-1 on your later rolls against it).",
                ship=seen,
                rules=("BSG-R16", "BSG-A14"),
            ),
        },
    )
    owner = ship.owner
    ruling.tell(
        owner,
        {
            "event": "partial_information",
            "ship": ship.id,
            "fields": list(fields),
            "text": say(
                "The enemy gains partial information on {fields}: {ship} gave itself away in it."
                if gave_away
                else "The enemy gains partial information on {fields}: {ship} was seen coming "
                "out of it.",
                fields=[field_name(state, owner, ruling.piece(f)) for f in fields],
                ship=ship.secret["name"],
                rules=("BSG-R16", "BSG-A14"),
            ),
        },
    )


def hint(ruling: Rules, side: str, **facts: Any) -> None:
    """Keep what ``side`` was shown of a piece of partial information, for its status."""
    ruling.change(Hint(side, {"turn": ruling.board.turn, **facts}))


def detect(ruling: Rules) -> None:
    """Segment 7: every declared scanner against every enemy field (BSG-R12, R13, A05).

    Each scanner's side reads one line: "no contact" whatever the reason (RULES-SPEC §6), or
    what a partial result or a located field tells. The field's owner — who makes these
    rolls at the table (R18) and must give the partial answer (R15) — is told of every
    partial result and every field located; of an attempt that found nothing, nothing."""
    state = ruling.state
    geometry = {f.key: f for f in field_geometry(state) if f.active}
    before = sight(state)
    for side in state.sides:
        for scanner_id in sorted(ruling.board.scanners.get(side, ())):
            scanner = state.pieces.get(scanner_id)
            at = where(state, scanner) if scanner is not None else None
            if scanner is None or at is None:
                continue
            results: list[Facts] = []
            said: list[Say] = []
            for field_id in sorted(geometry):
                field = geometry[field_id]
                if field.owner == side or ruling.board.knows(side, field_id) is FieldState.LOCATED:
                    continue
                result = _roll(ruling, side, scanner_id, field)
                if result is not None:
                    said.append(result.pop("said"))
                    results.append({**result, "text": said[-1].json()})
            text = say(
                "{ship} scans: {results}.",
                ship=scanner.secret["name"],
                results=said or say(NO_CONTACT),
                rules=("BSG-R18",),
            )
            ruling.tell(
                side, {"event": "scan", "ship": scanner_id, "results": results, "text": text}
            )
    tell_sighted(ruling, before, rules=("BSG-R17",))


NO_CONTACT = N_("no contact")


def _roll(ruling: Rules, side: str, scanner_id: str, field: Field) -> dict[str, Any] | None:
    """One scanner's roll against one field: None for no contact (no roll possible, or
    failed by two or more); else what the scanning side is told, its words under "said"."""
    state = ruling.state
    scenario = state.scenario
    scanner = state.pieces[scanner_id]
    at = where(state, scanner)
    assert at is not None
    distance = range_to_field(at, field, scenario.switches.range_to)
    if distance is None:
        return None  # inside the field: R26 settled it at the end of movement
    field_piece = state.pieces[field.key]
    controller = state.pieces[field_piece.secret["controller"]]
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
    owner = field.owner
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
        partial(ruling, side, field.key)
        hint(
            ruling,
            side,
            kind="scan",
            ship=scanner_id,
            **{"from": scenario.hex_map.to_label(at)},
            **shown,
        )
        # The owner is not told of a partial scan: which ships scan is the scanning side's
        # secret (BSG-A06), and ghillie, as the referee of R18, makes the roll. A line here
        # would tell the owner which ship scanned, and that one did.
        arcs = shown.get("arcs") or [str(shown.get("arc"))]
        words = say(
            "partial information on an ambush field in its {arc} arc, base number {base}",
            arc=list(arcs),
            base=base,
            rules=("BSG-R15",),
        )
        if "heading" in shown:
            words = say(
                "{found}, moving toward hexside {heading}", found=words, heading=shown["heading"]
            )
        return {"result": "partial", **shown, "said": words}
    _locate(ruling, side, field)
    centre = scenario.hex_map.to_label(field.centre)
    heading = controller.public.get("heading", "A")
    ruling.tell(
        owner,
        {
            "event": "scanned",
            "field": field.key,
            "result": "located",
            # Located is on the board for all to see (R17); which ship's scan did it is
            # the scanning side's secret (A06), so the owner is not told.
            "text": say(
                "The enemy locates {field}: from now on they see it on their board — where "
                "it is, its radius, rating, speed and heading — and every ship in it as a "
                "counter.",
                field=field_name(state, owner, field_piece),
                rules=("BSG-R17",),
            ),
        },
    )
    return {
        "result": "located",
        "centre": centre,
        "radius": field.radius,
        "rating": field.rating,
        "speed": speed,
        "heading": heading,
        "said": say(
            "an ambush field located around hex {hex}, radius {radius}, rating {rating}, "
            "its controlling ship at speed {speed}, heading {heading}",
            hex=centre,
            radius=field.radius,
            rating=field.rating,
            speed=speed,
            heading=heading,
            rules=("BSG-R17",),
        ),
    }


def partial(ruling: Rules, side: str, field_id: str) -> None:
    """``side`` gains partial information on the field (BSG-R15, R16): -1 on its later rolls
    against it, and the field is partly known to it unless it knew more already."""
    ruling.change(HoldsPI(side, field_id))
    if ruling.board.knows(side, field_id) is FieldState.UNKNOWN:
        ruling.change(FieldKnown(side, field_id, FieldState.PARTIAL))


def _locate(ruling: Rules, side: str, field: Field) -> None:
    """BSG-R17: the field's place, extent, strength and motion, and every unit inside it
    detected."""
    locate(ruling, side, field.key)
    for ship in ships(ruling.state):
        at = where(ruling.state, ship)
        if ship.owner == field.owner and at is not None and contains(field, at):
            raise_to(ruling, ship.id, side, Visibility.DETECTED)


def locate(ruling: Rules, side: str, field_id: str) -> None:
    """From now on ``side`` sees the field (BSG-R17: "always visible on the board"): it is
    a piece that side knows, so its id may be shown to it and named in its commands."""
    ruling.change(FieldKnown(side, field_id, FieldState.LOCATED))
    if ruling.state.known(side, field_id).level < Level.DETECTED:
        ruling.reveal(field_id, side, Level.DETECTED)


def raise_to(ruling: Rules, ship_id: str, side: str, to: Visibility) -> None:
    """Knowledge only ever rises (BSG-A17)."""
    ship = ruling.piece(ship_id)
    now = visibility(ruling.state, side, ship)
    if to is Visibility.IDENTIFIED and now is not Visibility.IDENTIFIED:
        ruling.reveal(ship.id, side, Level.IDENTIFIED, identity(ship))
    elif to is Visibility.DETECTED and now is Visibility.HIDDEN:
        ruling.reveal(ship.id, side, Level.DETECTED)
