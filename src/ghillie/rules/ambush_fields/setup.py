"""Setting up: fleets and fields from the scenario, the ships the players deploy at the
table, and — when both sides are ready — who starts hidden."""

from __future__ import annotations

from ghillie.errors import NOT_NOW, Refusal
from ghillie.state import Level, Phase, Piece
from ghillie.words import Say, say, says

from .board import Rules, SideReady, Sides, Start, Step
from .commands import Deploy, Ready
from .fields import hiding_fields
from .pieces import FIELD, SHIP, identity, own_ship, ships, where
from .pieces import fields as field_geometry
from .scenario import AmbushFieldsScenario
from .story import phase, sight, tell_sighted

OFF_MAP = "off_map"


def create(ruling: Rules, scenario: AmbushFieldsScenario) -> None:
    ruling.change(Sides(scenario.side_ids()))
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
                # A carrier's flights aboard (hangar.py): not pieces until launched.
                **({"hangar": spec.flights()} if spec.fighters is not None else {}),
            },
        )
        ids[spec.key] = piece.id
        ruling.place(piece)
    for field_spec in scenario.fields:
        controller = scenario.ship(field_spec.controller)
        ruling.place(
            Piece(
                ruling.new_id(),
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


def take_the_board(ruling: Rules) -> None:
    """When both sides are ready, the fleets take the board where the scenario or the
    players put them. BSG-R05: a ship inside a friendly field is hidden; every other ship is
    on the board, identified (RULES-SPEC §1.2: "Units outside any friendly field are always
    identified")."""
    state = ruling.state
    geometry = field_geometry(state)
    for piece in ships(state):
        at = where(state, piece)
        inside = hiding_fields(at, piece.owner, geometry) if at else []
        if inside:
            ruling.update(piece.id, secret={"in_fields": [f.key for f in inside]})
            continue
        for other in state.others(piece.owner):
            ruling.reveal(piece.id, other, Level.IDENTIFIED, identity(piece))


def deploy(ruling: Rules, side: str, command: Deploy) -> None:
    scenario = ruling.scenario
    placed: list[Say] = []
    for placement in command.ships:
        ship = own_ship(ruling.state, side, placement.ship)
        if scenario.ship(ship.secret["key"]).at is not None:
            raise Refusal(NOT_NOW, "The scenario sets that ship's starting hex.")
        try:
            scenario.hex_map.from_label(placement.at)
        except ValueError:
            raise Refusal(OFF_MAP, "That hex is not on this map.") from None
        ruling.update(ship.id, public={"at": placement.at, "heading": placement.heading})
        placed.append(
            say(
                "{ship} at hex {hex}, heading {heading}",
                ship=ship.secret["name"],
                hex=placement.at,
                heading=placement.heading,
            )
        )
    ruling.tell(
        side,
        {
            "event": "deployed",
            "text": says(
                "In secret, you deploy {n} ship: {ships}.",
                "In secret, you deploy {n} ships: {ships}.",
                len(placed),
                ships=placed,
                rules=("BSG-R05",),
            ),
        },
    )


def ready(ruling: Rules, side: str, command: Ready) -> None:
    waiting = [s for s in ships(ruling.state) if s.owner == side and where(ruling.state, s) is None]
    if waiting:
        raise Refusal(NOT_NOW, f"Deploy every ship first: {len(waiting)} have no hex yet.")
    ruling.change(SideReady(side))
    name = ruling.state.scenario.side_name(side)
    ruling.tell_public(
        {"event": "ready", "side": side, "text": say("{side} are ready.", side=name)}
    )
    if ruling.board.ready >= set(ruling.state.sides):
        before = sight(ruling.state)
        take_the_board(ruling)
        ruling.set_phase(Phase.PLAY)
        ruling.change(Start())
        ruling.tell_public(
            {
                "event": "turn",
                "turn": 1,
                "text": say(
                    "The fleets take the board. Turn {turn}: the {phase} begins.",
                    turn=1,
                    phase=phase(Step.INITIATIVE),
                ),
            }
        )
        _hidden_at_the_start(ruling)
        tell_sighted(ruling, before, rules=("BSG-R05",))


def _hidden_at_the_start(ruling: Rules) -> None:
    """Each side is told which of its ships start hidden in its fields (BSG-R05)."""
    state = ruling.state
    for side in state.sides:
        hidden = [
            s.secret["name"] for s in ships(state) if s.owner == side and s.secret.get("in_fields")
        ]
        if hidden:
            ruling.tell(
                side,
                {
                    "event": "start_hidden",
                    "text": says(
                        "{ships} starts hidden in your fields: off the enemy's board.",
                        "{n} of your ships start hidden in your fields, off the enemy's board: "
                        "{ships}.",
                        len(hidden),
                        ships=hidden,
                        rules=("BSG-R05",),
                    ),
                },
            )
