"""ambush-fields in the players' words: its orders, its ships and fields, and where the game
stands.

Everything a chooser offers, and everything said of the state of play, is built from what
the reader can see (ghillie.forms): its own ships and fields (their secrets are its own),
the enemy ships it has detected or identified — named as it knows them, a counter by its
hex — the enemy fields it has located, the partial information its own scans and the
enemy's mistakes gave it, and the turn as everyone sees it. Nothing here reads another
side's secrets beyond what the rules have shown that side; the two-worlds tests hold every
view to that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghillie.forms import Ask, Choice, Order
from ghillie.state import REFEREE, Level, Phase, Piece
from ghillie.words import N_, Say, say, says
from ghillie.words.piece import PieceWords

from .board import FieldState, State, Step
from .fields import Visibility
from .fugitives import PURSUERS, may_hide
from .hangar import fighters
from .pieces import FIELD, SHIP, is_off_board, ship_class, ships, where
from .scenario import ShipClass
from .story import category, counter, field_name, level, phase, ship_name

# --- what a field may name ---------------------------------------------------------------


def _own(state: State, side: str) -> list[Piece]:
    """The side's ships, in the scenario's order (flights launched since at the end)."""
    return [s for s in ships(state) if s.owner == side]


def _on_map(state: State, side: str) -> list[Piece]:
    return [s for s in _own(state, side) if where(state, s) is not None]


def _pick(state: State, side: str, pieces: list[Piece]) -> list[Choice]:
    return [Choice(p.id, ship_name(state, side, p)) for p in pieces]


def _points_left(state: State, scout: Piece) -> int:
    spent = int(scout.secret.get("spent", {}).get(str(state.board.turn), 0))
    return state.scenario.host.scout_points - spent


def _scouts(state: State, side: str) -> list[Piece]:
    """Own scouts on the map with scout points left this turn."""
    return [
        s
        for s in _on_map(state, side)
        if ship_class(s) is ShipClass.SCOUT and _points_left(state, s) > 0
    ]


def _enemy_on_map(state: State, side: str) -> list[Piece]:
    """Enemy ships on the side's board: detected or identified, and on the map."""
    return [
        s
        for s in ships(state)
        if s.owner != side
        and state.known(side, s.id).level >= Level.DETECTED
        and where(state, s) is not None
    ]


def deployable(state: State, side: str) -> list[Choice]:
    """Own ships whose starting hex the scenario leaves to the players."""
    scenario = state.scenario
    keys = {s.key for s in scenario.ships if s.at is None}
    return _pick(state, side, [s for s in _own(state, side) if s.secret.get("key") in keys])


def deploy_rows(state: State, side: str) -> Mapping[str, Any]:
    """The deployment starts with one row per ship to set up, where it stands if it has a
    hex already."""
    rows = []
    for choice in deployable(state, side):
        ship = state.pieces[choice.value]
        row: dict[str, Any] = {"ship": ship.id, "heading": ship.public.get("heading", "A")}
        if ship.public.get("at"):
            row["at"] = ship.public["at"]
        rows.append(row)
    return {"ships": rows} if rows else {}


def movers(state: State, side: str) -> list[Choice]:
    """Own ships to plot: choosing one starts its move from where it stands (or, off the
    board, from the edge hex where it left)."""
    out = []
    for ship in _own(state, side):
        at = ship.public.get("at") or ship.public.get("left_from")
        if not at:
            continue
        fills = {"to": at, "heading": ship.public.get("heading", "A")}
        name = ship.secret["name"]
        label: str | Say = say("{ship} (off the board)", ship=name) if is_off_board(ship) else name
        out.append(Choice(ship.id, label, fills))
    return out


def on_map(state: State, side: str) -> list[Choice]:
    return _pick(state, side, _on_map(state, side))


def scan_defaults(state: State, side: str) -> Mapping[str, Any]:
    """The scan starts from the ships declared already this turn, if any."""
    declared = state.board.scanners.get(side)
    return {"ships": sorted(declared)} if declared else {}


def launchers(state: State, side: str) -> list[Choice]:
    """Own carriers on the map with a fighter flight aboard."""
    out = []
    for ship in _on_map(state, side):
        aboard = ship.secret.get("hangar") or []
        if fighters(state.scenario, ship) is not None and aboard:
            label = says(
                "{ship} ({n} flight aboard)",
                "{ship} ({n} flights aboard)",
                len(aboard),
                ship=name_of(ship),
            )
            out.append(Choice(ship.id, label))
    return out


def _landings(state: State, side: str) -> list[tuple[Piece, Piece]]:
    """(flight, carrier): own flights in the hex of an own carrier with room in its bays."""
    scenario = state.scenario
    out = []
    carriers = [
        (c, spec) for c in _on_map(state, side) if (spec := fighters(scenario, c)) is not None
    ]
    for flight in _on_map(state, side):
        if ship_class(flight) is not ShipClass.FIGHTER_FLIGHT:
            continue
        for carrier, spec in carriers:
            room = len(carrier.secret.get("hangar") or []) < spec.bays
            if room and where(state, carrier) == where(state, flight):
                out.append((flight, carrier))
    return out


def landing_flights(state: State, side: str) -> list[Choice]:
    flights: list[Piece] = []
    for flight, _ in _landings(state, side):
        if flight not in flights:
            flights.append(flight)
    return _pick(state, side, flights)


def landing_carriers(state: State, side: str) -> list[Choice]:
    """The carriers the chosen flight may land on: in its hex, with room."""
    return [
        Choice(carrier.id, name_of(carrier), when={"flight": flight.id})
        for flight, carrier in _landings(state, side)
    ]


def fugitives(state: State, side: str) -> list[Choice]:
    """Own ships that have shaken off their pursuers and are in one of the side's fields."""
    return _pick(state, side, [s for s in _own(state, side) if may_hide(state, s)])


def own_fields(state: State, side: str) -> list[Choice]:
    """The side's fields still up, by piece id: "your field veil (Basestar Nemesis)"."""
    return [
        Choice(f.id, field_name(state, side, f))
        for f in state.pieces.values()
        if f.kind == FIELD and f.owner == side and f.secret["active"]
    ]


def located_fields(state: State, side: str) -> list[Choice]:
    """Enemy fields the side has located and that are still up (BSG-R25)."""
    return [
        Choice(f.id, field_name(state, side, f))
        for f in state.pieces.values()
        if f.kind == FIELD
        and f.owner != side
        and state.board.knows(side, f.id) is FieldState.LOCATED
        and f.secret["active"]
    ]


def scouts(state: State, side: str) -> list[Choice]:
    """Own scouts on the map with points left this turn, with how many."""
    return [
        Choice(
            s.id,
            says(
                "{ship} ({n} scout point left)",
                "{ship} ({n} scout points left)",
                _points_left(state, s),
                ship=name_of(s),
            ),
        )
        for s in _scouts(state, side)
    ]


def targets(state: State, side: str) -> list[Choice]:
    """Enemy ships on the side's board: only a detected or identified ship may be attacked
    (BSG-R20). Named as the side knows them: a counter by its hex."""
    return _pick(state, side, _enemy_on_map(state, side))


def counters(state: State, side: str) -> list[Choice]:
    """Enemy counters not yet identified: what Identify is for (BSG-R24)."""
    return _pick(
        state,
        side,
        [s for s in _enemy_on_map(state, side) if state.known(side, s.id).level < Level.IDENTIFIED],
    )


def losses(state: State, side: str) -> list[Choice]:
    """Own ships on the map not already reported lost."""
    return _pick(state, side, [s for s in _on_map(state, side) if not s.secret.get("destroyed")])


def name_of(ship: Piece) -> str:
    """One's own ship by its name (choosers name only the side's own ships so)."""
    return str(ship.secret["name"])


# --- the orders ----------------------------------------------------------------------------

HEADINGS = (
    ("A", N_("A (up the map)")),
    ("B", N_("B (up and right)")),
    ("C", N_("C (down and right)")),
    ("D", N_("D (down the map)")),
    ("E", N_("E (down and left)")),
    ("F", N_("F (up and left)")),
)
HEX_HELP = N_("Type it as column then row, like 0412, or tap it on the map.")
POINTS = N_("scout points")

ORDERS: dict[str, Order] = {
    "deploy": Order(
        N_("Deploy your ships"),
        N_(
            "In secret, the hex where each ship starts, as you set it up at the table. When "
            "both sides are ready, a ship inside one of your fields stays hidden, and every "
            "other ship is on the board for the enemy to see, identified. Deploying a ship "
            "again moves it."
        ),
        {
            "ships": Ask(N_("Ships"), item=N_("ship")),
            "ships.ship": Ask(
                N_("Ship"),
                N_("One of your ships whose starting hex the scenario leaves to you."),
                pieces=deployable,
            ),
            "ships.at": Ask(N_("Starting hex"), HEX_HELP, kind="place", where="hex"),
            "ships.heading": Ask(
                N_("Heading"), N_("The hexside its bow points across."), options=HEADINGS
            ),
        },
        defaults=deploy_rows,
        rules=("BSG-R01", "BSG-R05"),
    ),
    "ready": Order(
        N_("Ready"),
        N_(
            "Your fleet is set up. Play starts when both sides are ready: ships inside your "
            "fields are hidden, the others are on the board."
        ),
        rules=("BSG-R05",),
    ),
    "plot": Order(
        N_("Plot your moves"),
        N_(
            "In secret, where each ship ends this Movement Phase, as on a scrap of paper. "
            "Every plot is carried out at once when both sides have ended the phase; a ship "
            "inside one of your fields at the end of the phase stays hidden, one outside is "
            "identified. A ship you do not plot stays where it is. Plot a ship again to "
            "change its move."
        ),
        {
            "moves": Ask(N_("Moves"), item=N_("move")),
            "moves.ship": Ask(
                N_("Ship"),
                N_("Choosing it starts its move from where it stands now."),
                pieces=movers,
            ),
            "moves.to": Ask(
                N_("Ends the phase in hex"),
                N_(
                    "Type it as column then row, like 0412, or tap it on the map. A ship "
                    "leaving the board, or coming back onto it, does so at an edge hex."
                ),
                kind="place",
                where="hex",
                starts="ship",
            ),
            "moves.heading": Ask(
                N_("Heading"),
                N_("The hexside its bow points across at the end of the move."),
                options=HEADINGS,
            ),
            "moves.speed": Ask(
                N_("Speed this turn"),
                N_(
                    "As your game counts it. The faster a field's controlling ship goes, "
                    "the easier the enemy finds the field."
                ),
                unit=N_("hexes per turn"),
            ),
            "moves.note": Ask(N_("Private note"), N_("For you alone: the enemy never reads it.")),
            "moves.leave": Ask(
                N_("Leaves the board"),
                N_("The ship ends its move off the board, across the map edge at that hex."),
            ),
        },
        rules=("BSG-R05", "BSG-R06", "BSG-R07"),
    ),
    "scan": Order(
        N_("Scan for ambush fields"),
        N_(
            "The ships whose sensors pan actively this turn. At the end of the Movement "
            "Phase each of them rolls in secret, once against every enemy field, whether you "
            "know of it or not. Each reports no contact, partial information (the arc the "
            "field lies in and the number needed to find it) or a located field. Declaring "
            "again replaces the list; an empty list scans with none."
        ),
        {
            "ships": Ask(
                N_("Scanning ships"),
                N_(
                    "Your ships on the map. A fighter or shuttle finds a field 5 hexes off at most."
                ),
                pieces=on_map,
                item=N_("ship"),
            ),
        },
        defaults=scan_defaults,
        rules=("BSG-R12", "BSG-R13", "BSG-R14", "BSG-R15", "BSG-R17", "BSG-R18"),
    ),
    "launch": Order(
        N_("Launch fighters"),
        N_(
            "A carrier launches one of the fighter flights aboard onto its own hex. Inside "
            "one of your fields this gives nothing away, and the flight is hidden too; in the "
            "open the enemy sees it at once."
        ),
        {"carrier": Ask(N_("Carrier"), pieces=launchers)},
        rules=("BSG-R07",),
    ),
    "recover": Order(
        N_("Recover fighters"),
        N_(
            "A fighter flight lands aboard one of your carriers in its own hex, if the bays "
            "have room. The carrier gives nothing away; if the enemy saw the flight, it sees "
            "it leave the board."
        ),
        {
            "flight": Ask(N_("Fighter flight"), pieces=landing_flights),
            "carrier": Ask(
                N_("Carrier"), N_("A carrier in the flight's hex."), pieces=landing_carriers
            ),
        },
        rules=("BSG-R07",),
    ),
    "hide": Order(
        N_("Go dark and hide"),
        N_(
            "A ship that fled into your field with the enemy on its tail has shaken off its "
            "pursuers: it shuts down and hides. The enemy loses its trail; if the enemy has "
            "located the field, a new counter shows where it was."
        ),
        {"ship": Ask(N_("Ship"), pieces=fugitives)},
        rules=("BSG-R27", "BSG-A19"),
    ),
    "drop_field": Order(
        N_("Drop a field"),
        N_(
            "In the Initiative Phase its controlling ship drops the field for good: it can "
            "never be raised again, and every ship that was in it is identified and on the "
            "board."
        ),
        {"field": Ask(N_("Field"), pieces=own_fields)},
        confirm=N_("Drop this field for good? Every ship in it will be seen."),
        rules=("BSG-R29", "BSG-R30"),
    ),
    "end_phase": Order(
        N_("End the phase"),
        N_(
            "You are done with this phase. It ends when both sides are: the Initiative "
            "Phase, then the Movement Phase (plots carried out, hidden ships checked, scans "
            "rolled), then the Combat Phase (losses applied at its end)."
        ),
        confirm=N_("End this phase for your side? Your ships cannot act in it any more."),
    ),
    "assign_ew": Order(
        N_("Electronic warfare"),
        N_(
            "A scout spends scout points on one of your ships (ECM and the like). Inside a "
            "field, more points on one ship this turn than the field's rating give that ship "
            "away: the enemy sees its counter, and learns something of the field."
        ),
        {
            "scout": Ask(N_("Scout"), pieces=scouts),
            "target": Ask(N_("On your ship"), pieces=on_map),
            "points": Ask(N_("Points"), unit=POINTS),
        },
        rules=("BSG-R07", "BSG-R08", "BSG-A03", "BSG-A04"),
    ),
    "fire": Order(
        N_("Fire"),
        N_(
            "A ship fires at an enemy ship on your board; a hidden ship that fires is seen, "
            "as a counter. Fire from outside into a field suffers its rating; from inside, "
            "none; the total stays within 3 either way. ghillie gives the modifier, and the "
            "shot is your game's own."
        ),
        {
            "ship": Ask(N_("Firing ship"), pieces=on_map),
            "target": Ask(N_("Target"), pieces=targets),
            "modifiers": Ask(
                N_("Other modifiers"),
                N_("Your game's own modifiers on this shot, besides the field's."),
            ),
            "eccm_scout": Ask(
                N_("Scout giving counter-EW"),
                N_("A scout spending points to cancel the field's penalty on this target."),
                pieces=scouts,
            ),
            "eccm": Ask(N_("Counter-EW"), unit=POINTS),
        },
        rules=("BSG-R09", "BSG-R20", "BSG-R21", "BSG-R22", "BSG-R23"),
    ),
    "identify": Order(
        N_("Identify a counter"),
        N_(
            "A scout spends points to learn what a counter is, up to 20 hexes away; the field "
            "need not be located. It takes as many points as the field's rating, which you "
            "are never told: only whether it worked. The points are spent either way."
        ),
        {
            "scout": Ask(N_("Scout"), pieces=scouts),
            "target": Ask(N_("Counter"), pieces=counters),
            "points": Ask(N_("Points"), unit=POINTS),
        },
        rules=("BSG-R24", "BSG-A13"),
    ),
    "mass_identify": Order(
        N_("Mass identify a field"),
        N_(
            "Scouts within normal EW range pool points against a field you have located: "
            "twice its rating shows every ship in it as a counter, three times its rating "
            "identifies them all. The points are spent either way."
        ),
        {
            "scouts": Ask(N_("Scouts"), pieces=scouts, item=N_("scout")),
            "field": Ask(N_("Field"), pieces=located_fields),
            "points": Ask(
                N_("Points pooled"),
                N_("Shared out among the scouts, as evenly as can be."),
                unit=POINTS,
            ),
        },
        rules=("BSG-R25", "BSG-A12", "BSG-A20"),
    ),
    "destroyed": Order(
        N_("Report a ship lost"),
        N_(
            "Your game's combat destroyed this ship. It is taken off at the end of the "
            "Combat Phase; a field it controls drops then, and every ship in it is seen."
        ),
        {"ship": Ask(N_("Ship"), pieces=losses)},
        confirm=N_("Report this ship destroyed? This cannot be taken back."),
        rules=("BSG-R28",),
    ),
    "end_game": Order(
        N_("End the game"),
        N_(
            "The game ends for both sides, and the record with every secret is published. "
            "Before play begins it ends only when both sides ask."
        ),
        confirm=N_("End the game for everyone? This cannot be taken back."),
    ),
}

# --- ships, fields and the state of play ---------------------------------------------------

CLASSES = {
    ShipClass.CAPITAL: N_("capital ship"),
    ShipClass.SCOUT: N_("scout"),
    ShipClass.PATROL_BOAT: N_("patrol boat"),
    ShipClass.CIVILIAN: N_("civilian ship"),
    ShipClass.FIGHTER_FLIGHT: N_("fighter flight"),
    ShipClass.SHUTTLE: N_("shuttle"),
}


def _enemy_of(state: State, side: str) -> list[str]:
    return list(state.others(side))


def _kind(type_: Any, kind: ShipClass) -> str | Say:
    """ "CL, capital ship"; a type that only repeats the class ("Scout") once."""
    word = CLASSES[kind]
    if not type_ or str(type_).casefold() == word.casefold():
        return word
    return say("{type}, {kind}", type=type_, kind=say(word))


def _place(piece: Piece) -> Say:
    p = piece.public
    return say(
        "at hex {hex}, heading {heading}, speed {speed}",
        hex=p.get("at"),
        heading=p.get("heading", "A"),
        speed=p.get("speed", 0),
    )


def describe(state: State, observer: str, piece: Piece) -> PieceWords:
    """A ship or a field as ``observer`` knows it. Secrets are told to their owner and the
    referee only — a spectator is neither; an enemy's ship or field as the observer's side
    has seen it. Words of the piece and of what the observer knows of it only, never of
    the turn: a view rebuilds them only when an event changed a piece."""
    if piece.kind == FIELD:
        return _describe_field(state, observer, piece)
    if piece.kind != SHIP:
        return PieceWords(piece.kind)
    if observer in (piece.owner, REFEREE):
        return _own_ship(state, observer, piece)
    return _enemy_ship(state, observer, piece)


def _own_ship(state: State, observer: str, ship: Piece) -> PieceWords:
    s, p = ship.secret, ship.public
    kind = ShipClass(s["class"])
    about: list[str | Say] = []
    about.append(_kind(s.get("type"), kind))
    if is_off_board(ship):
        about.append(say("off the board (left at hex {hex})", hex=p.get("left_from", "?")))
    elif p.get("at"):
        about.append(_place(ship))
    about.extend(_seen_by_enemy(state, observer, ship))
    details: list[tuple[str, Any]] = []
    if s.get("flag"):
        details.append((N_("Flag rating"), True))
    aboard = [f["name"] for f in s.get("hangar") or []]
    spec = fighters(state.scenario, ship)
    if spec is not None:
        about.append(says("{n} flight aboard", "{n} flights aboard", len(aboard)))
        details.append((N_("Flights aboard"), aboard or say("none, room for {n}", n=spec.bays)))
        details.append((N_("Bays"), says("{n} flight", "{n} flights", spec.bays)))
    # What was spent, by the turn of the latest record (a piece's words are of the piece
    # alone, never of the turn: view.project_update).
    spent = _latest(s.get("spent"))
    if kind is ShipClass.SCOUT:
        details.append((N_("Scout points a turn"), state.scenario.host.scout_points))
        if spent is not None:
            details.append(
                (N_("Scout points spent"), say("{n} in turn {turn}", n=spent[1], turn=spent[0]))
            )
    ew = _latest(s.get("ew_on"))
    if ew is not None:
        details.append(
            (
                N_("EW on it"),
                says("{n} point in turn {turn}", "{n} points in turn {turn}", ew[1], turn=ew[0]),
            )
        )
    plot = s.get("plot")
    if plot is not None:
        details.append((N_("Plotted this turn"), _plotted(plot)))
    if s.get("note"):
        details.append((N_("Private note"), s["note"]))
    if s.get("destroyed"):
        about.append(N_("lost: taken off at the end of the Combat Phase"))
    pursuers = s.get(PURSUERS)
    if pursuers:
        details.append(
            (
                N_("Fugitive"),
                say(
                    "the enemy has its signature: it cannot hide until every enemy ship that "
                    "pursued it has left the board"
                ),
            )
        )
    elif pursuers == [] and may_hide(state, ship):
        details.append((N_("Fugitive"), say("it has shaken off its pursuers and may hide")))
    if observer == REFEREE:
        details.append((N_("Scenario key"), s.get("key", "")))
    return PieceWords(str(s["name"]), about, details)


def _latest(by_turn: Mapping[str, Any] | None) -> tuple[int, int] | None:
    """The latest (turn, points) of a record kept by turn."""
    if not by_turn:
        return None
    turn = max(by_turn, key=int)
    return int(turn), int(by_turn[turn])


def _plotted(plot: Mapping[str, Any]) -> Say:
    if plot.get("leave"):
        return say("to leave the board at hex {hex}", hex=plot["to"])
    return say(
        "to hex {hex}, heading {heading}, speed {speed}",
        hex=plot["to"],
        heading=plot.get("heading", "A"),
        speed=plot.get("speed", 0),
    )


def _seen_by_enemy(state: State, observer: str, ship: Piece) -> list[str | Say]:
    """What the enemy sees of one's own ship — what the table shows: nothing while it is
    hidden, a face-down counter once detected, a labelled one once identified."""
    out: list[str | Say] = []
    for other in _enemy_of(state, ship.owner):
        seen = level(state, other, ship)
        if seen is Visibility.IDENTIFIED:
            out.append(N_("identified by the enemy"))
        elif seen is Visibility.DETECTED:
            out.append(N_("detected: the enemy sees a face-down counter"))
        else:
            hiding = [
                state.pieces[f] for f in ship.secret.get("in_fields") or [] if f in state.pieces
            ]
            if hiding:
                out.append(
                    say(
                        "hidden in {field}",
                        field=[field_name(state, observer, f) for f in hiding],
                    )
                )
            elif not is_off_board(ship):
                out.append(N_("not yet on the enemy's board"))
    return out


def _enemy_ship(state: State, observer: str, ship: Piece) -> PieceWords:
    seen = level(state, observer, ship)
    about: list[str | Say] = []
    if seen is Visibility.IDENTIFIED:
        facts = state.known(observer, ship.id).facts
        name: str | Say = str(facts["name"]) if facts.get("name") else counter(ship, first=True)
        if facts.get("class"):
            about.append(_kind(facts.get("type"), ShipClass(facts["class"])))
    else:
        name = counter(ship, first=True)
        if observer in state.sides:
            about.append(
                say("a face-down counter: a {category}, nothing more", category=category(ship))
            )
    if is_off_board(ship):
        about.append(say("off the board (left at hex {hex})", hex=ship.public.get("left_from")))
    elif ship.public.get("at"):
        about.append(_place(ship))
    details: list[tuple[str, Any]] = []
    if seen is Visibility.IDENTIFIED:
        facts = state.known(observer, ship.id).facts
        if facts.get("flag"):
            details.append((N_("Flag rating"), True))
    return PieceWords(name, about, details)


def _describe_field(state: State, observer: str, field: Piece) -> PieceWords:
    s = field.secret
    if observer in (field.owner, REFEREE):
        controller = state.pieces.get(s["controller"])
        at = where(state, controller) if controller is not None else None
        about: list[str | Say] = []
        if not s["active"]:
            about.append(N_("dropped: gone for good"))
        elif at is None:
            about.append(N_("its controller is off the board: it covers no hex"))
        else:
            about.append(
                say(
                    "radius {radius} around hex {hex}, rating {rating}",
                    radius=s["radius"],
                    hex=state.scenario.hex_map.to_label(at),
                    rating=s["rating"],
                )
            )
        about.extend(_field_known(state, field))
        details: list[tuple[str, Any]] = [
            (N_("Controlled by"), controller.secret["name"] if controller else say("lost")),
            (N_("Radius"), says("{n} hex", "{n} hexes", int(s["radius"]))),
            (N_("Rating"), s["rating"]),
        ]
        return PieceWords(field_name(state, observer, field, first=True), about, details)
    # Another side's field: a side sees what it has located of it (R17), and nothing for a
    # spectator beyond that the field is there.
    name = field_name(state, observer, field, first=True)
    if observer not in state.sides:
        return PieceWords(name)
    known = state.board.knows(observer, field.id)
    if known is FieldState.DROPPED or not s["active"]:
        return PieceWords(name, [N_("dropped: gone for good")])
    if known is not FieldState.LOCATED:
        return PieceWords(name)
    controller = state.pieces.get(s["controller"])
    about = [
        say("radius {radius}, rating {rating}", radius=s["radius"], rating=s["rating"]),
        N_("located: always on your board"),
    ]
    details = [
        (N_("Radius"), says("{n} hex", "{n} hexes", int(s["radius"]))),
        (N_("Rating"), s["rating"]),
    ]
    if controller is not None:
        details.append(
            (
                N_("Moving"),
                say(
                    "speed {speed}, heading {heading}",
                    speed=controller.public.get("speed", 0),
                    heading=controller.public.get("heading", "A"),
                ),
            )
        )
    return PieceWords(name, about, details)


def _field_known(state: State, field: Piece) -> list[str | Say]:
    """Whether the enemy has located one's own field: it is then on the enemy's board, for
    all to see (R17). (Partial information is in the owner's status: it changes no piece.)"""
    if not field.secret["active"]:
        return []
    out: list[str | Say] = []
    for other in _enemy_of(state, field.owner):
        if state.known(other, field.id).level >= Level.DETECTED:
            out.append(N_("located by the enemy: on their board"))
        else:
            out.append(N_("not located by the enemy"))
    return out


def status(state: State, observer: str) -> list[str | Say]:
    scenario = state.scenario
    board = state.board
    if state.phase is Phase.OVER:
        return [N_("The game is over.")]
    if state.phase is Phase.SETUP:
        return _setting_up(state, observer)
    step = board.step
    lines: list[str | Say] = []
    mine = observer in state.sides
    if mine and observer not in board.done:
        lines.append(
            say(
                "Turn {turn} — {phase}: {what}",
                turn=board.turn,
                phase=phase(step),
                what=say(_todo(state, observer)),
            )
        )
    else:
        lines.append(say("Turn {turn} — {phase}.", turn=board.turn, phase=phase(step)))
    done = [scenario.side_name(s) for s in state.sides if s in board.done]
    waiting = [scenario.side_name(s) for s in state.sides if s not in board.done]
    if mine and observer in board.done:
        lines.append(say("You are done with this phase; waiting for {sides}.", sides=waiting))
    elif done:
        lines.append(say("Done with this phase: {sides}.", sides=done))
    if mine:
        lines.extend(_own_status(state, observer))
    return lines


def _todo(state: State, side: str) -> str:
    step = state.board.step
    if step is Step.INITIATIVE:
        if any(c for c in own_fields(state, side)):
            return N_("you may drop a field now, then end the phase.")
        return N_("nothing to do but end the phase.")
    if step is Step.MOVEMENT:
        return N_(
            "plot your moves, say which ships scan, launch or recover fighters, then end the phase."
        )
    return N_("fire, spend scout points, report your losses, then end the phase.")


def _setting_up(state: State, observer: str) -> list[str | Say]:
    scenario = state.scenario
    board = state.board
    ready = [scenario.side_name(s) for s in state.sides if s in board.ready]
    lines: list[str | Say] = [
        say("Setting up. Ready: {sides}.", sides=ready) if ready else N_("Setting up.")
    ]
    if observer in state.sides and observer not in board.ready:
        waiting = [s for s in _own(state, observer) if where(state, s) is None]
        if waiting:
            lines.append(
                says(
                    "Deploy your ships: {n} has no hex yet.",
                    "Deploy your ships: {n} have no hex yet.",
                    len(waiting),
                )
            )
        else:
            lines.append(N_("Say you are ready when your fleet is set up."))
    for side in sorted(board.ending):
        if side == observer:
            lines.append(N_("You asked to end the game before it begins."))
        else:
            lines.append(
                say("{side} ask to end the game before it begins.", side=scenario.side_name(side))
            )
    return lines


def _own_status(state: State, side: str) -> list[str | Say]:
    board = state.board
    lines: list[str | Say] = []
    if board.step is Step.MOVEMENT:
        plotted = [s.secret["name"] for s in _own(state, side) if "plot" in s.secret]
        if plotted:
            lines.append(say("Plotted: {ships}.", ships=plotted))
        declared = board.scanners.get(side)
        if declared is not None:
            names = [state.pieces[s].secret["name"] for s in sorted(declared) if s in state.pieces]
            lines.append(
                say("Scanning this turn: {ships}.", ships=names)
                if names
                else N_("No ship of yours scans this turn.")
            )
    for choice in fugitives(state, side):
        lines.append(say("{ship} has shaken off its pursuers: it may hide.", ship=choice.label))
    # Not "the enemy holds partial information on your field": a scan that gained it is the
    # scanning side's secret (BSG-A06); the owner's log says when a ship of its own gave it
    # away (R16), which the table shows.
    lines.extend(partial_information(state, side))
    return lines


def partial_information(state: State, side: str) -> list[str | Say]:
    """BSG-R15, R16: what the side holds on enemy fields it has not located, each piece of
    partial information as it was given — where it came from, the arc, the base number —
    and never which field it was (the side is not told that)."""
    hints = state.board.hints.get(side, ())
    if not hints:
        return []
    lines: list[str | Say] = [
        say(
            "Partial information on enemy ambush fields (-1 on your later rolls against the "
            "field concerned):",
            rules=("BSG-R15", "BSG-R16"),
        )
    ]
    lines.extend(hint_words(state, side, hint) for hint in hints)
    return lines


def hint_words(state: State, side: str, hint: Mapping[str, Any]) -> Say:
    ship = state.pieces.get(str(hint.get("ship")))
    named: str | Say = ship_name(state, side, ship) if ship is not None else say(CATEGORIES_LOST)
    if hint.get("kind") == "scan":
        arcs = hint.get("arcs") or [hint.get("arc")]
        found = say(
            "turn {turn}: {ship} at hex {hex} had a field in its {arc} arc, base number {base}",
            turn=hint["turn"],
            ship=named,
            hex=hint.get("from"),
            arc=list(arcs),
            base=hint.get("base_number"),
            rules=("BSG-R15",),
        )
        if hint.get("heading"):
            return say(
                "{found}, the field moving toward hexside {heading}.",
                found=found,
                heading=hint["heading"],
            )
        return say("{found}.", found=found)
    return say(
        "turn {turn}: {ship} came out of hiding at hex {hex}.",
        turn=hint["turn"],
        ship=named,
        hex=hint.get("at"),
        rules=("BSG-R16",),
    )


CATEGORIES_LOST = N_("a ship since gone")
