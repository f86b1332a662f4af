"""Carriers and their fighters: launching and recovering them (BSG-R07, R10, R17, A12).

A carrier's flights aboard are a list in its secret part, its hangar: a flight is a piece —
a ship whose category is "fighter flight" — only while it is out. Launching puts it on the
carrier's hex at once, under a new id: a flight launched again is a new counter, which no
one can tie to the one that landed. Recovering takes it off the board and back into the
list, with its key and name, so that its owner knows it again when it is launched again.

Who learns what:

* BSG-R07: a carrier inside one of its side's active fields launches and recovers without
  giving anything away, and "fighters launched inside the field are themselves hidden
  units" — whatever the enemy sees of the carrier. Except to a side that has located a field
  the carrier is in: there every unit stays detected, "including fighters launched later"
  (R17 DEFAULT, A12), so the flight appears as a face-down fighter-flight counter.
* A carrier outside every field of its side launches in plain sight: the flight is
  identified at once (RULES-SPEC §1.2: units outside any friendly field are always
  identified).
* Either way the end of the Movement Phase settles the flight like any other unit (R06).
* A side that could see a flight sees it land and leave the board; it is not told on what.
"""

from __future__ import annotations

from ghillie.errors import Refusal
from ghillie.state import Facts, Piece
from ghillie.words import say

from .board import FieldState, Rules
from .commands import Launch, Recover
from .fields import Visibility, hiding_fields
from .movement import raise_to
from .pieces import OFF_BOARD, SHIP, own_ship, ship_class, visibility, where
from .pieces import fields as field_geometry
from .scenario import AmbushFieldsScenario, FighterSpec, ShipClass
from .story import category, ship_name, sight, tell_sighted

NOT_A_CARRIER = "not_a_carrier"
NOT_A_FLIGHT = "not_a_flight"
HANGAR_EMPTY = "hangar_empty"
HANGAR_FULL = "hangar_full"
NOT_IN_THE_HEX = "not_in_the_carriers_hex"


def fighters(scenario: AmbushFieldsScenario, ship: Piece) -> FighterSpec | None:
    """The carrier's fighters as the scenario gives them; None for a ship that is no carrier
    (a launched flight too: its key is no scenario ship's)."""
    key = ship.secret.get("key")
    spec = next((s for s in scenario.ships if s.key == key), None)
    return spec.fighters if spec is not None else None


def _carrier(ruling: Rules, side: str, ref: str) -> tuple[Piece, FighterSpec]:
    carrier = own_ship(ruling.state, side, ref)
    spec = fighters(ruling.scenario, carrier)
    if spec is None:
        raise Refusal(NOT_A_CARRIER, "That ship carries no fighters.")
    if where(ruling.state, carrier) is None:
        raise Refusal(OFF_BOARD, "That ship is off the board.")
    return carrier, spec


def launch(ruling: Rules, side: str, command: Launch) -> None:
    carrier, _ = _carrier(ruling, side, command.carrier)
    aboard: list[Facts] = list(carrier.secret.get("hangar", []))
    if not aboard:
        raise Refusal(HANGAR_EMPTY, "That carrier has no fighter flight aboard.")
    at = where(ruling.state, carrier)
    assert at is not None
    label = ruling.scenario.hex_map.to_label(at)
    inside = hiding_fields(at, side, field_geometry(ruling.state))
    flight = Piece(
        ruling.new_id(),
        side,
        SHIP,
        {
            "category": ShipClass.FIGHTER_FLIGHT.category,
            "at": label,
            "heading": carrier.public.get("heading", "A"),
            "speed": 0,
        },
        {
            "key": aboard[0]["key"],
            "name": aboard[0]["name"],
            "type": aboard[0]["type"],
            "class": ShipClass.FIGHTER_FLIGHT.value,
            "flag": False,
            # The fields it is launched in: leaving them gives the enemy PI (BSG-R16).
            **({"in_fields": [f.key for f in inside]} if inside else {}),
        },
    )
    ruling.update(carrier.id, secret={"hangar": aboard[1:]})
    before = sight(ruling.state)
    ruling.place(flight)
    name = flight.secret["name"]
    unseen = inside and not any(
        ruling.board.knows(o, f.key) is FieldState.LOCATED
        for o in ruling.state.others(side)
        for f in inside
    )
    ruling.tell(
        side,
        {
            "event": "launch",
            "carrier": carrier.id,
            "flight": flight.id,
            "text": say(
                "{carrier} launches {flight} at hex {hex}, inside your field: unseen."
                if unseen
                else "{carrier} launches {flight} at hex {hex}.",
                carrier=carrier.secret["name"],
                flight=name,
                hex=label,
                rules=("BSG-R07",),
            ),
        },
    )
    for other in ruling.state.others(side):
        if inside:
            located = [f for f in inside if ruling.board.knows(other, f.key) is FieldState.LOCATED]
            if not located:
                continue  # BSG-R07: a hidden unit, like every unit in the field
            raise_to(ruling, flight.id, other, Visibility.DETECTED)  # R17, A12
        else:
            raise_to(ruling, flight.id, other, Visibility.IDENTIFIED)
        seen = visibility(ruling.state, other, carrier) is not Visibility.HIDDEN
        launched = ruling.piece(flight.id)
        what = ship_name(ruling.state, other, launched)
        line: dict[str, object] = {"event": "launch", "flight": flight.id}
        identified = visibility(ruling.state, other, launched) is Visibility.IDENTIFIED
        if seen:
            line["carrier"] = carrier.id
            by = ship_name(ruling.state, other, carrier, first=True)
            line["text"] = (
                say(
                    "{carrier} launches {flight} at hex {hex}.",
                    carrier=by,
                    flight=what,
                    hex=label,
                    rules=("BSG-R07",),
                )
                if identified
                else say(
                    "{carrier} launches a {category}, a new counter in its hex.",
                    carrier=by,
                    category=category(launched),
                    rules=("BSG-R17", "BSG-A12"),
                )
            )
        elif identified:
            line["text"] = say("{flight} appears at hex {hex}.", flight=what, hex=label)
        else:
            line["text"] = say(
                "A {category} counter appears at hex {hex}.",
                category=category(launched),
                hex=label,
                rules=("BSG-R17", "BSG-A12"),
            )
        ruling.tell(other, line)
    # What the enemy now sees of the flight, told to its owner (the other side has its own
    # line above).
    tell_sighted(
        ruling, before, rules=("BSG-R17", "BSG-A12") if inside else ("BSG-R07",), seer=False
    )


def recover(ruling: Rules, side: str, command: Recover) -> None:
    state = ruling.state
    flight = own_ship(state, side, command.flight)
    if ship_class(flight) is not ShipClass.FIGHTER_FLIGHT:
        raise Refusal(NOT_A_FLIGHT, "Only a fighter flight lands aboard a carrier.")
    carrier, spec = _carrier(ruling, side, command.carrier)
    there = where(state, flight)
    if there is None:
        raise Refusal(OFF_BOARD, "That flight is off the board.")
    if there != where(state, carrier):
        raise Refusal(NOT_IN_THE_HEX, "A flight lands only on a carrier in its own hex.")
    aboard = list(carrier.secret.get("hangar", []))
    if len(aboard) >= spec.bays:
        raise Refusal(HANGAR_FULL, "That carrier's bays are full.")
    flight_name = flight.secret["name"]
    back = {"key": flight.secret["key"], "name": flight_name, "type": flight.secret["type"]}
    # Told before it goes, in the words each side knew it by.
    for other in state.others(side):
        if visibility(state, other, flight) is Visibility.HIDDEN:
            continue
        ruling.tell(
            other,
            {
                "event": "recovered",
                "flight": flight.id,
                "text": say(
                    "{flight} lands aboard a carrier and leaves the board.",
                    flight=ship_name(state, other, flight, first=True),
                    rules=("BSG-R07",),
                ),
            },
        )
    ruling.update(carrier.id, secret={"hangar": [*aboard, back]})
    ruling.remove(flight.id)
    ruling.tell(
        side,
        {
            "event": "recovered",
            "carrier": carrier.id,
            "text": say(
                "{flight} lands aboard {carrier}.",
                flight=flight_name,
                carrier=carrier.secret["name"],
                rules=("BSG-R07",),
            ),
        },
    )
