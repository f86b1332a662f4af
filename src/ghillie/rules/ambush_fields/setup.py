"""The game's first event: fleets and fields from the scenario; who starts hidden."""

from __future__ import annotations

from ghillie.measure.hexes import Hex
from ghillie.ruling import Ruling
from ghillie.state import Level, Phase, Piece

from .board import Board, start
from .fields import Field, hiding_fields
from .pieces import FIELD, SHIP, identity
from .scenario import AmbushFieldsScenario


def create(ruling: Ruling[Board], scenario: AmbushFieldsScenario) -> None:
    ruling.change_board("sides", sides=list(scenario.side_ids()))
    ids = {}
    for spec in scenario.ships:
        piece = Piece(
            ruling.new_id(),
            spec.side,
            SHIP,
            {
                "category": spec.ship_class.category,
                "at": spec.at,
                "heading": spec.heading,
                "speed": 0,
            },
            {
                "key": spec.key,
                "name": spec.name,
                "type": spec.type,
                "class": spec.ship_class.value,
                "flag": spec.flag,
            },
        )
        ids[spec.key] = piece.id
        ruling.place(piece)
    geometry = []
    for field_spec in scenario.fields:
        controller = scenario.ship(field_spec.controller)
        field_id = ruling.new_id()
        ruling.place(
            Piece(
                field_id,
                controller.side,
                FIELD,
                {},
                {
                    "key": field_spec.key,
                    "controller": ids[field_spec.controller],
                    "radius": field_spec.radius,
                    "rating": field_spec.rating,
                    "active": True,
                },
            )
        )
        centre = scenario.start(controller)
        if centre is not None:
            geometry.append(
                Field(field_id, controller.side, centre, field_spec.radius, field_spec.rating)
            )
    # BSG-R05: a ship inside a friendly field is hidden; every other ship is on the board,
    # identified (RULES-SPEC §1.2: "Units outside any friendly field are always identified").
    for spec in scenario.ships:
        start_hex: Hex | None = scenario.start(spec)
        inside = hiding_fields(start_hex, spec.side, geometry) if start_hex else []
        piece = ruling.piece(ids[spec.key])
        if inside:
            ruling.update(piece.id, secret={"in_fields": [f.key for f in inside]})
            continue
        for other in ruling.state.others(spec.side):
            ruling.reveal(piece.id, other, Level.IDENTIFIED, identity(piece))


def ready(ruling: Ruling[Board], side: str) -> None:
    ruling.change_board("ready", side=side)
    name = ruling.state.scenario.side_name(side)
    ruling.tell_public({"event": "ready", "side": side, "text": f"{name} is ready."})
    if ruling.board.ready >= set(ruling.state.sides):
        ruling.set_phase(Phase.PLAY)
        ruling.change_board(start().name)
        ruling.tell_public({"event": "turn", "turn": 1, "text": "Turn 1: Initiative Phase."})
