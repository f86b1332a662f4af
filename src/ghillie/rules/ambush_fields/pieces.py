"""Ships and fields as pieces, and what the other side knows of each.

A ship's public facts are what a face-down counter shows — its category (ship, fighter
flight or shuttle), its hex, heading and speed (BSG-R10) — so its name, type and class are
secret facts, given to the other side as knowledge facts only when it is identified. Its
scenario key is secret too: a key like ``basestar`` would name a ship that is only a
counter. A field's facts are all secret; what a side has located of it is on the board.
"""

from __future__ import annotations

from collections import Counter

from ghillie.errors import UNKNOWN_PIECE, Refusal
from ghillie.measure.hexes import Hex, HexMap, to_offset
from ghillie.state import Facts, Level, Piece

from .board import State
from .fields import Field, Visibility
from .scenario import AmbushFieldsScenario, ShipClass

SHIP = "ship"
FIELD = "field"
OFF_BOARD = "off_board"  # refusal: that ship has left the board
SHIP_FACTS = 11
FIELD_FACTS = 5


def identity(ship: Piece) -> Facts:
    """What identifying a ship tells the other side (RULES-SPEC §1.6, S3)."""
    return {k: ship.secret[k] for k in ("name", "type", "class", "flag")}


def visibility(state: State, side: str, ship: Piece) -> Visibility:
    """How ``side`` sees an enemy ship: hidden, detected or identified."""
    level = state.known(side, ship.id).level
    if level >= Level.IDENTIFIED:
        return Visibility.IDENTIFIED
    if level >= Level.DETECTED:
        return Visibility.DETECTED
    return Visibility.HIDDEN


def own_ship(state: State, side: str, ref: str) -> Piece:
    """One of ``side``'s ships, by id or scenario key; anything else reads as no such piece."""
    piece = state.pieces.get(ref)
    if piece is None:
        piece = next(
            (
                p
                for p in state.pieces.values()
                if p.kind == SHIP and p.owner == side and p.secret.get("key") == ref
            ),
            None,
        )
    if piece is None or piece.kind != SHIP or piece.owner != side:
        raise Refusal(UNKNOWN_PIECE, "There is no such piece that you can see.")
    return piece


def own_field(state: State, side: str, ref: str) -> Piece:
    """One of ``side``'s fields, by piece id (as the pages name it) or by scenario key."""
    piece = state.pieces.get(ref)
    if piece is None:
        piece = next(
            (
                p
                for p in state.pieces.values()
                if p.kind == FIELD and p.owner == side and p.secret.get("key") == ref
            ),
            None,
        )
    if piece is None or piece.kind != FIELD or piece.owner != side:
        raise Refusal(UNKNOWN_PIECE, "There is no such piece that you can see.")
    return piece


def ships(state: State) -> list[Piece]:
    return [p for p in state.pieces.values() if p.kind == SHIP]


def where(state: State, ship: Piece) -> Hex | None:
    at = ship.public.get("at")
    return state.scenario.hex_map.from_label(at) if at else None


def is_off_board(ship: Piece) -> bool:
    """Has the ship left the board (a plotted move took it across the map edge)?"""
    return bool(ship.public.get("off_board"))


def on_board(state: State, side: str, piece_id: str) -> bool:
    """Is the ship ``piece_id`` a counter on ``side``'s board: on the map, and seen (or
    owned) by that side? Hidden units are "taken off the board" (BSG-R05)."""
    ship = state.pieces.get(piece_id)
    if ship is None or where(state, ship) is None:
        return False
    return ship.owner == side or state.known(side, ship.id).level >= Level.DETECTED


def is_edge(hex_map: HexMap, at: Hex) -> bool:
    """A hex of the map with a neighbour off it — the first or last column or row: where a
    ship leaves the board or comes back onto it.

    >>> m = HexMap(24, 20)
    >>> [is_edge(m, m.from_label(label)) for label in ("0101", "0510", "2410", "1220", "1219")]
    [True, False, True, True, False]
    """
    if not hex_map.on_map(at):
        return False
    column, row = to_offset(at, hex_map.shifted)
    return column in (1, hex_map.columns) or row in (1, hex_map.rows)


def edges(hex_map: HexMap) -> list[Hex]:
    """Every edge hex of the map, in label order."""
    return [h for h in hex_map.hexes() if is_edge(hex_map, h)]


def fields(state: State) -> list[Field]:
    """Every field as geometry: centred on its controller's hex now (BSG-R04)."""
    out = []
    for piece in state.pieces.values():
        if piece.kind != FIELD:
            continue
        controller = state.pieces.get(piece.secret["controller"])
        centre = where(state, controller) if controller is not None else None
        out.append(
            Field(
                key=piece.id,
                owner=piece.owner,
                centre=centre or Hex(0, 0),
                radius=piece.secret["radius"],
                rating=piece.secret["rating"],
                active=bool(piece.secret["active"]) and centre is not None,
            )
        )
    return out


def ship_class(ship: Piece) -> ShipClass:
    return ShipClass(ship.secret["class"])


def secret_facts(scenario: AmbushFieldsScenario) -> int:
    """The most secret facts a side's pieces hold at once (Ruleset.secret_facts)."""
    # A ship: key, name, type, class, flag (setup.py), its fields, plot and the plot's
    # note, scout points and EW spent, destroyed — and on a side with a field, the
    # pursuers it flees (fugitives.py). A carrier: its hangar. A field: key,
    # controller, radius, rating, active. Launched flights are ships: a side has at
    # most as many at once as its scenario ships and the flights aboard at the start
    # (a flight lands before it is launched again). A fugitive that hides is placed
    # anew before its old piece goes: room for one more ship and its hangar.
    ships: Counter[str] = Counter()
    carriers: Counter[str] = Counter()
    for ship in scenario.ships:
        ships[ship.side] += 1 + len(ship.flights())
        carriers[ship.side] += ship.fighters is not None
    fielded = {scenario.ship(f.controller).side for f in scenario.fields}
    bound: Counter[str] = Counter()
    for side, count in ships.items():
        per_ship = SHIP_FACTS + (side in fielded)
        bound[side] = count * per_ship + carriers[side]
        if side in fielded:
            bound[side] += SHIP_FACTS + 1
    for field in scenario.fields:
        bound[scenario.ship(field.controller).side] += FIELD_FACTS
    return max(bound.values(), default=0)
