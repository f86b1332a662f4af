"""Commands a side could sensibly give now, from what it can see (random games in the
contract tests; choices for clients).

They play as a player would, so that random games run for several turns with the fields up:
deploy and be ready; in each phase do what it is for, once, and end it — plot the fleet's
moves and declare the scanners in the Movement Phase, fire and spend the scout points that
are left in the Combat Phase. A side that has ended the phase has nothing to give (now and
then, late in the game, it ends the game instead); a field is dropped only now and then,
and not before the third turn. The fleets close on the middle of the map, so that scans
come within range and fields get found.

Now and then a ship makes for the nearest edge of the map and leaves the board there; a
ship off the board comes back where it left. Carriers launch their fighters in two turns of
three and, in the third, take aboard a flight that is in their hex. A fugitive that has
shaken off its pursuers may hide, in any phase.

One's own ships are named by scenario key or by piece id (both are accepted, see
:func:`.pieces.own_ship`), turn about, so that the error oracle can put an unseen piece
where an own ship's id stands. Several plots, scans and deployments differ only in their
secret fields, so that the two-worlds tests can give the worlds different hidden moves.
"""

from __future__ import annotations

from collections.abc import Callable

from ghillie.measure.hexes import Hex, HexMap, direction, distance, line
from ghillie.state import Facts, Level, Phase, Piece

from .board import FieldState, State, Step
from .fugitives import may_hide
from .hangar import fighters
from .pieces import FIELD, SHIP, edges, is_off_board, ship_class, ships, where
from .pieces import fields as field_geometry
from .scenario import ShipClass
from .scouting import mass_identify_reaches

END_GAME_FROM = 4  # the first turn in which a waiting side may end the game
DROP_FROM = 3  # the first turn in which a controller may drop its field
SPEED = 3  # hexes a ship closes on the middle of the map in a turn

Namer = Callable[[Piece], str]


def candidates(state: State, side: str) -> list[Facts]:
    board = state.board
    if state.phase is Phase.OVER:
        return []
    name = _namer(state.seq)
    if state.phase is Phase.SETUP:
        setting_up = _setup(state, side) if side not in board.ready else []
        # Rarely a side asks to end the game before it begins (both must: turns.end_game).
        if side not in board.ending and state.seq % 11 == 5:
            setting_up.append({"type": "end_game"})
        return setting_up
    if side in board.done:
        # Waiting for the other side: nothing to give. Rarely, once the fields have had a
        # few turns to matter, a player ends the game instead.
        late = board.turn >= END_GAME_FROM and state.seq % 13 == 0
        return [{"type": "end_game"}] if late else []
    own = [s for s in ships(state) if s.owner == side and where(state, s) is not None]
    away = [s for s in ships(state) if s.owner == side and is_off_board(s)]
    out: list[Facts] = [{"type": "end_phase"}]
    out += [{"type": "hide", "ship": name(s)} for s in own if may_hide(state, s)]
    if board.step is Step.INITIATIVE:
        if board.turn >= DROP_FROM and state.seq % 3 == 0:
            out += [
                {"type": "drop_field", "field": p.secret["key"]}
                for p in state.pieces.values()
                if p.kind == FIELD and p.owner == side and p.secret["active"]
            ]
    elif board.step is Step.MOVEMENT and (own or away):
        if any("plot" not in s.secret for s in own + away):
            for variant in range(5):
                moves = _moves(state, own, variant, name)
                if variant in (2, 3):
                    moves += _back(state, away, name)
                if moves:
                    out.append({"type": "plot", "moves": moves})
        if side not in board.scanners and own:
            refs = [name(s) for s in own]
            out += [{"type": "scan", "ships": refs}, {"type": "scan", "ships": refs[:1]}]
        out += _hangars(state, own, name)
    elif board.step is Step.COMBAT and own:
        out += _combat(state, side, own, name)
    return out


def _namer(seq: int) -> Namer:
    """Own ships by piece id at odd steps, by scenario key at even ones."""
    if seq % 2:
        return lambda ship: ship.id
    return lambda ship: str(ship.secret["key"])


def _setup(state: State, side: str) -> list[Facts]:
    """Deploy the ships the scenario leaves to the players, then be ready. Two deployments
    are offered, in different hexes, for the two-worlds tests."""
    waiting = [s for s in ships(state) if s.owner == side and where(state, s) is None]
    if not waiting:
        return [{"type": "ready"}]
    hex_map = state.scenario.hex_map
    # Each side's fleet gathers round a point of its own third of the map: the first ship
    # there, the others next to it, so inside the fields of their controllers.
    index = state.sides.index(side)
    out: list[Facts] = []
    for variant in (0, 1):
        name = _namer(variant)
        middle = _hex(hex_map, hex_map.columns // 2 + variant, (hex_map.rows * (1 + index)) // 3)
        around = [middle, *(middle + direction(i) for i in range(6))]
        spots = [h for h in around if hex_map.on_map(h)]
        placements = [
            {"ship": name(ship), "at": hex_map.to_label(spots[i % len(spots)])}
            for i, ship in enumerate(waiting)
        ]
        out.append({"type": "deploy", "ships": placements})
    return out


def _hex(hex_map: HexMap, column: int, row: int) -> Hex:
    column = min(max(column, 1), hex_map.columns)
    row = min(max(row, 1), hex_map.rows)
    return hex_map.from_label(f"{column:02d}{row:02d}")


def _moves(state: State, own: list[Piece], variant: int, name: Namer) -> list[Facts]:
    """Variant 0 stays put; 1 moves the whole fleet one hex the same way (a fleet that
    keeps together keeps inside its fields); 2 and 3 close on the middle of the map, where
    the enemy is likely, by 1 and by up to :data:`SPEED` hexes; 4 sends the ship nearest an
    edge off the board there, while the others stay put."""
    hex_map = state.scenario.hex_map
    middle = _hex(hex_map, (hex_map.columns + 1) // 2, (hex_map.rows + 1) // 2)
    moves: list[Facts] = []
    if variant == 4:
        leaving = _to_the_edge(state, hex_map, own, name)
        staying = _moves(state, own, 0, name)
        return leaving + [m for m in staying if leaving and m["ship"] != leaving[0]["ship"]]
    for ship in own:
        at = where(state, ship)
        assert at is not None
        heading = "ABCDEF".index(ship.public.get("heading", "A"))
        to = at
        if variant == 1:
            heading = (2 * state.board.turn + 1) % 6  # the fleet's way this turn
            to = at + direction(heading)
        elif variant >= 2:
            path = line(at, middle)
            to = path[min(len(path) - 1, 1 if variant == 2 else SPEED)]
            if to != at:
                heading = next(i for i in range(6) if path[1] == at + direction(i))
        if hex_map.on_map(to):
            moves.append(
                {
                    "ship": name(ship),
                    "to": hex_map.to_label(to),
                    "heading": "ABCDEF"[heading],
                    "speed": distance(at, to),
                    "note": "",
                }
            )
    return moves


def _to_the_edge(state: State, hex_map: HexMap, own: list[Piece], name: Namer) -> list[Facts]:
    """The ship nearest an edge dashes for it and leaves the board there."""
    nearest: list[tuple[int, str, str, Piece, Hex]] = []
    for ship in own:
        start = where(state, ship)
        assert start is not None
        for edge in edges(hex_map):
            d = distance(start, edge)
            nearest.append((d, ship.secret["key"], hex_map.to_label(edge), ship, edge))
    if not nearest:
        return []
    _, _, _, ship, edge = min(nearest, key=lambda n: n[:3])
    at = where(state, ship)
    assert at is not None
    path = line(at, edge)
    heading = next((i for i in range(6) if len(path) > 1 and path[1] == at + direction(i)), 0)
    move = {
        "ship": name(ship),
        "to": hex_map.to_label(edge),
        "heading": "ABCDEF"[heading],
        "speed": distance(at, edge),
        "note": "",
        "leave": True,
    }
    return [move]


def _back(state: State, away: list[Piece], name: Namer) -> list[Facts]:
    """Ships off the board come back at the edge hex where they left it."""
    return [
        {
            "ship": name(ship),
            "to": ship.public["left_from"],
            "heading": ship.public.get("heading", "A"),
            "speed": 1,
            "note": "",
        }
        for ship in away
        if state.scenario.hex_map.is_label(str(ship.public.get("left_from", "")))
    ]


def _hangars(state: State, own: list[Piece], name: Namer) -> list[Facts]:
    """A launch from each carrier with flights aboard in two turns of three; in the third, a
    landing for one flight in the hex of a carrier with room."""
    carriers = [(c, fighters(state.scenario, c)) for c in own]
    if state.board.turn % 3:
        return [
            {"type": "launch", "carrier": name(c)}
            for c, spec in carriers
            if spec is not None and c.secret.get("hangar")
        ]
    for flight in own:
        if ship_class(flight) is not ShipClass.FIGHTER_FLIGHT:
            continue
        for carrier, spec in carriers:
            room = spec is not None and len(carrier.secret.get("hangar", [])) < spec.bays
            if room and where(state, carrier) == where(state, flight):
                return [{"type": "recover", "flight": name(flight), "carrier": name(carrier)}]
    return []


def _combat(state: State, side: str, own: list[Piece], name: Namer) -> list[Facts]:
    """A shot or two, the scout's points while it has some, and (rarely) a loss. Few of
    each, so that ending the phase stays a likely choice in random games."""
    board = state.board
    host = state.scenario.host
    k = state.seq
    out: list[Facts] = []
    seen = [
        p
        for p in state.pieces.values()
        if p.kind == SHIP
        and p.owner != side
        and state.known(side, p.id).level >= Level.DETECTED
        and where(state, p) is not None
    ]
    firer = own[k % len(own)]
    out += [{"type": "fire", "ship": name(firer), "target": t.id} for t in seen[:2]]
    for scout in [s for s in own if ship_class(s) is ShipClass.SCOUT][:1]:
        at = where(state, scout)
        assert at is not None
        spent = int(scout.secret.get("spent", {}).get(str(board.turn), 0))
        left = host.scout_points - spent
        if left <= 0:
            continue
        # EW on one of its own ships: 1 point is safe in any field, 3 gives away a ship in
        # a field of rating 2 or less (BSG-R08).
        points = min(left, 3 if k % 3 == 0 else 1)
        out.append(
            {
                "type": "assign_ew",
                "scout": name(scout),
                "target": name(own[k % len(own)]),
                "points": points,
            }
        )
        counters = [
            t
            for t in seen
            if state.known(side, t.id).level < Level.IDENTIFIED
            and (aim := where(state, t)) is not None
            and distance(at, aim) <= host.identify_ewe
        ]
        out += [
            {"type": "identify", "scout": name(scout), "target": t.id, "points": min(left, 3)}
            for t in counters[:2]
        ]
        out += [
            {"type": "mass_identify", "scouts": [name(scout)], "field": f.key, "points": left}
            for f in field_geometry(state)
            if f.owner != side
            and f.active
            and board.knows(side, f.key) is FieldState.LOCATED
            and mass_identify_reaches(at, f, host.normal_ewe)
        ]
    if board.turn >= 3 and k % 11 == 0:
        # The host game's combat sinks a ship now and then (segment 10 applies it).
        out.append({"type": "destroyed", "ship": name(own[-1])})
    return out
