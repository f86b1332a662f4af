"""The Combat Phase: EW, fire through the field, the scouts' abilities, and segment 10.

Everything here is ruled on at once (the host game's own combat is played out at the table
or in its own program); segment 10 — the end of the phase — applies losses, and a field
whose controller was lost drops then (BSG-R28).
"""

from __future__ import annotations

from ghillie import lookup
from ghillie.errors import NOT_NOW, UNKNOWN_PIECE, Refusal
from ghillie.state import Facts
from ghillie.words import N_, Say, say, says

from .board import FieldState, Rules
from .commands import AssignEW, Destroyed, Fire, Identify, MassIdentify
from .dropping import dropped_for_good
from .fields import (
    Field,
    Visibility,
    capped,
    contains,
    cover_rating,
    field_lost,
    protective_modifier,
)
from .movement import apply, came_out, partial, raise_to, units
from .pieces import FIELD, SHIP, own_ship, ship_class, ships, visibility, where
from .pieces import fields as field_geometry
from .scenario import ShipClass
from .scouting import identify, mass_identify, mass_identify_reaches
from .story import dropped, field_name, identified_as, ship_name, sight, tell_sighted

OUT_OF_RANGE = "out_of_range"
NOT_A_SCOUT = "not_a_scout"
NO_POINTS = "no_points_left"


def _scout(ruling: Rules, side: str, ref: str, points: int) -> Facts:
    scout = own_ship(ruling.state, side, ref)
    if ship_class(scout) is not ShipClass.SCOUT:
        raise Refusal(NOT_A_SCOUT, "Only a scout spends scout points.")
    spent = int(scout.secret.get("spent", {}).get(str(ruling.board.turn), 0))
    if spent + points > ruling.scenario.host.scout_points:
        raise Refusal(NO_POINTS, "That scout has not that many points left this turn.")
    ruling.update(scout.id, secret={"spent": {str(ruling.board.turn): spent + points}})
    return {"id": scout.id, "name": scout.secret["name"]}


def assign_ew(ruling: Rules, side: str, command: AssignEW) -> None:
    """BSG-R07, R08: EW on a ship in a field is safe up to the field's rating; more gives it
    away (detected), and the other side gains partial information on the field (R16).

    BSG-A03: the points count "on" the ship they are applied to; under
    ``bsg.count_emitted_points`` they count on the scout that spends them as well."""
    _scout(ruling, side, command.scout, command.points)
    target = own_ship(ruling.state, side, command.target)
    scout = own_ship(ruling.state, side, command.scout)
    spent = says(
        "{scout} spends {n} scout point of EW on {ship}",
        "{scout} spends {n} scout points of EW on {ship}",
        command.points,
        scout=scout.secret["name"],
        ship=target.secret["name"],
    )
    on, rating = _load(ruling, side, target.id, command.points)
    ruling.tell(side, {"event": "ew", "text": _verdict(spent, on, rating)})
    given_away = [target.id] if rating is not None and on > rating else []
    if ruling.scenario.switches.count_emitted_points and scout.id != target.id:
        emitted, rating = _load(ruling, side, scout.id, command.points)
        if rating is not None:
            counted = say("The points {scout} emits count on it too", scout=scout.secret["name"])
            ruling.tell(side, {"event": "ew", "text": _verdict(counted, emitted, rating)})
            if emitted > rating:
                given_away.append(scout.id)
    for ship_id in given_away:
        _give_away(ruling, ship_id, rules=("BSG-R08",))


def _load(ruling: Rules, side: str, ship_id: str, points: int) -> tuple[int, int | None]:
    """Count ``points`` more of EW on a ship this turn: the total on it, and the rating of
    the field it hides in (None outside any)."""
    ship = ruling.piece(ship_id)
    turn = str(ruling.board.turn)
    on = int(ship.secret.get("ew_on", {}).get(turn, 0)) + points
    ruling.update(ship.id, secret={"ew_on": {turn: on}})
    at = where(ruling.state, ship)
    return on, cover_rating(at, side, field_geometry(ruling.state)) if at else None


def _verdict(spent: Say, on: int, rating: int | None) -> Say:
    """What the owner reads of ``on`` points of EW on a ship this turn in a field of
    ``rating`` (None: in no field), after ``spent``, what the points were."""
    if rating is None:
        return say("{spent}.", spent=spent)
    if on > rating:
        return says(
            "{spent}: {total} point on it this turn, more than the rating of its field, "
            "{rating}, so it gives itself away.",
            "{spent}: {total} points on it this turn, more than the rating of its field, "
            "{rating}, so it gives itself away.",
            on,
            spent=spent,
            total=on,
            rating=rating,
            rules=("BSG-R08", "BSG-A03", "BSG-A04"),
        )
    return says(
        "{spent}: {total} point on it this turn, within the rating of its field, {rating}: "
        "it stays hidden.",
        "{spent}: {total} points on it this turn, within the rating of its field, "
        "{rating}: it stays hidden.",
        on,
        spent=spent,
        total=on,
        rating=rating,
        rules=("BSG-R07", "BSG-R08"),
    )


def _give_away(ruling: Rules, ship_id: str, rules: tuple[str, ...]) -> None:
    """A hidden ship becomes detected (R08, R09), and its field is partly known (R16): the
    other side sees a counter appear, and its owner is told so."""
    ship = ruling.piece(ship_id)
    before = sight(ruling.state)
    gave: list[tuple[str, list[str]]] = []
    for other in ruling.state.others(ship.owner):
        if visibility(ruling.state, other, ship) is Visibility.HIDDEN:
            raise_to(ruling, ship.id, other, Visibility.DETECTED)
            hiding = list(ship.secret.get("in_fields", []))
            for field_id in hiding:
                partial(ruling, other, field_id)
            if hiding:
                gave.append((other, hiding))
    # The ship is seen where it is, but the other side is not told why: the rule ids of its
    # line name only what it sees, a counter.
    tell_sighted(ruling, before, rules=("BSG-R10",), owner=False)
    tell_sighted(ruling, before, rules=rules, seer=False)
    for other, hiding in gave:
        came_out(ruling, other, ruling.piece(ship_id), hiding, gave_away=True)


def fire(ruling: Rules, side: str, command: Fire) -> None:
    firer = own_ship(ruling.state, side, command.ship)
    target = lookup.enemy(ruling.state, side, command.target, kinds=(SHIP,))
    source, aim = where(ruling.state, firer), where(ruling.state, target)
    if source is None or aim is None:
        raise Refusal(NOT_NOW, "Both ships must be on the map.")
    shapes = field_geometry(ruling.state)
    field = protected = protective_modifier(source, aim, target.owner, shapes)
    if command.eccm:
        # BSG-R23: counter-EW cancels the field's penalty on this target, point for point.
        if command.eccm_scout is None:
            raise Refusal(NOT_A_SCOUT, "Only a scout spends scout points.")
        _scout(ruling, side, command.eccm_scout, command.eccm)
        field = max(0, field - command.eccm)
    total = capped(field + command.modifiers)
    _give_away(ruling, firer.id, rules=("BSG-R09",))  # BSG-R09: firing gives a hidden ship away
    why: list[Say] = []
    if protected:
        why.append(say("the field's {n}", n=f"{protected:+d}"))
        if command.eccm:
            why.append(say("counter-EW cancelling {n}", n=protected - field, rules=("BSG-R23",)))
    else:
        why.append(say("no field in the way"))
    if command.modifiers:
        why.append(say("other modifiers {n}", n=f"{command.modifiers:+d}"))
    if total != field + command.modifiers:
        why.append(say("held to {n}", n=f"{total:+d}"))
    for reader in (side, target.owner):
        ruling.tell(
            reader,
            {
                "event": "fire",
                "by": side,
                "ship": firer.id,
                "target": target.id,
                "modifier": total,
                "text": say(
                    "{ship} fires at {target}: total modifier {total} ({why}).",
                    ship=ship_name(ruling.state, reader, firer, first=True),
                    target=ship_name(ruling.state, reader, target),
                    total=f"{total:+d}",
                    why=why,
                    rules=("BSG-R20", "BSG-R21", "BSG-R22"),
                ),
            },
        )


def do_identify(ruling: Rules, side: str, command: Identify) -> None:
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
        ruling.scenario.host.identify_ewe,
    )
    if result.refused == OUT_OF_RANGE:
        raise Refusal(OUT_OF_RANGE, "The target is beyond the ability's range.")
    if result.refused is not None:
        raise Refusal(NOT_NOW, "That ship cannot be identified now.")
    scout = _scout(ruling, side, command.scout, command.points)
    state = ruling.state
    was = ship_name(state, side, target)
    if result.identified:
        raise_to(ruling, target.id, side, Visibility.IDENTIFIED)
    # BSG-R24: success or failure only, never the rating.
    word = "identified" if result.identified else "not identified"
    spent = says(
        "{scout} spends {n} scout point to identify {target}",
        "{scout} spends {n} scout points to identify {target}",
        command.points,
        scout=scout["name"],
        target=was,
    )
    ruling.tell(
        side,
        {
            "event": "identify",
            "result": word,
            "text": say(
                "{spent}: identified, it is {ship}.",
                spent=spent,
                ship=identified_as(ruling.state, side, target),
                rules=("BSG-R24",),
            )
            if result.identified
            else say("{spent}: not identified.", spent=spent, rules=("BSG-R24", "BSG-A13")),
        },
    )
    # The field's owner answers the attempt at the table (R24: "only whether their
    # identifying attempt has worked or not"): it is told of it, either way.
    tried = says(
        "{scout} spends {n} scout point to identify {ship}",
        "{scout} spends {n} scout points to identify {ship}",
        command.points,
        scout=ship_name(state, target.owner, scout_ship, first=True),
        ship=target.secret["name"],
    )
    ruling.tell(
        target.owner,
        {
            "event": "identify",
            "result": word,
            "ship": target.id,
            "text": say("{tried}: the enemy has identified it.", tried=tried, rules=("BSG-R24",))
            if result.identified
            else say(
                "{tried}: not enough, it stays unidentified.", tried=tried, rules=("BSG-R24",)
            ),
        },
    )


def do_mass_identify(ruling: Rules, side: str, command: MassIdentify) -> None:
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
        if at is None or not mass_identify_reaches(at, shape, state.scenario.host.normal_ewe):
            raise Refusal(OUT_OF_RANGE, "A scout is beyond normal EW range of the field.")
        _scout(ruling, side, ref, share + (1 if i < rest else 0))
    result = mass_identify(command.points, shape.rating, located)
    known = {s: field_name(ruling.state, s, field_piece) for s in (side, field_piece.owner)}
    before = sight(ruling.state)
    if result.outcome is not None:
        for ship in ships(ruling.state):
            at = where(ruling.state, ship)
            if ship.owner == shape.owner and at is not None and contains(shape, at):
                raise_to(ruling, ship.id, side, result.outcome)
    word = result.outcome.value if result.outcome else "no effect"
    outcome = MASS_OUTCOME[word]
    scouts = [own_ship(state, side, ref) for ref in command.scouts]
    for reader in (side, field_piece.owner):
        pooled = says(
            "{scouts} pool {n} scout point against {field}",
            "{scouts} pool {n} scout points against {field}",
            command.points,
            scouts=[ship_name(ruling.state, reader, s) for s in scouts],
            field=known[reader],
        )
        ruling.tell(
            reader,
            {
                "event": "mass_identify",
                "result": word,
                "text": say(
                    "{pooled}: {outcome}.",
                    pooled=pooled,
                    outcome=say(outcome),
                    rules=("BSG-R25", "BSG-A12", "BSG-A13"),
                ),
            },
        )
    tell_sighted(ruling, before, rules=("BSG-R25",))


def destroyed(ruling: Rules, side: str, command: Destroyed) -> None:
    ship = own_ship(ruling.state, side, command.ship)
    ruling.update(ship.id, secret={"destroyed": True})
    ruling.tell(
        side,
        {
            "event": "destroyed",
            "text": say(
                "{ship} is destroyed: it is taken off the board at the end of the Combat Phase, "
                "when every loss is applied.",
                ship=ship.secret["name"],
                rules=("BSG-R28",),
            ),
        },
    )


def segment_10(ruling: Rules) -> None:
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
            heard = {o: dropped(state, o, piece, "lost") for o in state.others(piece.owner)}
            mine = field_name(state, piece.owner, piece)
            before = sight(ruling.state)
            if shape.active:  # a controller lost off the board takes its field's hexes along
                apply(ruling, field_lost(shape, survivors, remaining))
            ruling.update(piece.id, secret={"active": False})
            dropped_for_good(
                ruling,
                piece,
                before,
                told=say(
                    "{field} drops with its controlling ship: every ship that was in it is "
                    "identified.",
                    field=mine,
                    rules=("BSG-R28", "BSG-R30"),
                ),
                heard=heard,
                spectators=say(
                    "An ambush field of {side} drops.",
                    side=state.scenario.side_name(piece.owner),
                    rules=("BSG-R28",),
                ),
            )
    for ship in lost:
        visible_to = [
            o
            for o in ruling.state.others(ship.owner)
            if visibility(ruling.state, o, ship) is not Visibility.HIDDEN
        ]
        names = {o: ship_name(ruling.state, o, ship, first=True) for o in visible_to}
        ruling.remove(ship.id)
        ruling.tell(
            ship.owner,
            {
                "event": "lost",
                "ship": ship.id,
                "text": say(
                    "{ship} is destroyed and taken off the board.",
                    ship=ship.secret["name"],
                    rules=("BSG-R28",),
                ),
            },
        )
        for other in visible_to:
            ruling.tell(
                other,
                {
                    "event": "lost",
                    "text": say(
                        "{ship} is destroyed and taken off the board.",
                        ship=names[other],
                        rules=("BSG-R28",),
                    ),
                },
            )


MASS_OUTCOME = {
    Visibility.IDENTIFIED.value: N_("every ship in it is identified"),
    Visibility.DETECTED.value: N_("every ship in it shows as a counter"),
    "no effect": N_("not enough, no effect"),
}
