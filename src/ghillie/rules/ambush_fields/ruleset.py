"""The ambush-fields ruleset class: who may act when, and which rule resolves what."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from ghillie.errors import NOT_NOW, Refusal
from ghillie.events import BoardChange
from ghillie.maps import MapView
from ghillie.ruleset import Command, OddsQuery, Ruleset
from ghillie.ruling import Ruling
from ghillie.state import REFEREE, SPECTATOR, Facts, GameState, Phase, Piece
from ghillie.words import Say, say, says
from ghillie.words.piece import PieceWords

from . import detection, words
from .board import Board, FieldState, Step, done, fold
from .combat import assign_ew, destroyed, do_identify, do_mass_identify, fire, segment_10
from .commands import (
    COMBAT_COMMANDS,
    COMMANDS,
    MOVEMENT_COMMANDS,
    AssignEW,
    Deploy,
    Destroyed,
    DropField,
    EndGame,
    EndPhase,
    Fire,
    Hide,
    Identify,
    Launch,
    MassIdentify,
    Plot,
    Ready,
    Recover,
    Scan,
)
from .fields import field_lost
from .fugitives import hide
from .hangar import launch, recover
from .movement import apply, carry_out_plots, crossings, detect, invade, settle, units
from .pieces import OFF_BOARD, is_edge, is_off_board, known_fields, own_field, own_ship
from .pieces import fields as field_geometry
from .scenario import AmbushFieldsScenario, EnterTrigger
from .setup import OFF_MAP, create, deploy, ready
from .story import dropped, field_name, phase, sight, tell_sighted

SHIP_FACTS = 11
FIELD_FACTS = 5
NOT_AN_EDGE = "not_an_edge"


class AmbushFields(Ruleset[AmbushFieldsScenario, Board]):
    id = "ambush-fields"
    title = "Ambush and camouflage fields (Battlestar Galactica fleet combat)"
    summary = "Fleets hide in ambush fields on a hex map; enemy ships scan for them in secret."
    map_modes = ("table", "map")
    scenario_model = AmbushFieldsScenario
    commands = COMMANDS
    orders = words.ORDERS
    odds_queries: ClassVar[Mapping[str, OddsQuery]] = {"detect": detection.ODDS}

    def secret_facts(self, scenario: AmbushFieldsScenario) -> int:
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

    def new_board(self, scenario: AmbushFieldsScenario) -> Board:
        return Board()

    def setup(self, ruling: Ruling[Any, Board], scenario: AmbushFieldsScenario) -> None:
        create(ruling, scenario)

    def may_act(self, state: GameState[Any, Board], side: str, command: type[Command]) -> bool:
        board = state.board
        if command is EndGame:
            return state.phase is not Phase.SETUP or side not in board.ending
        if state.phase is Phase.SETUP:
            return command in (Ready, Deploy) and side not in board.ready
        if side in board.done:
            return False
        if command is DropField:
            return board.step is Step.INITIATIVE
        if command in MOVEMENT_COMMANDS:
            return board.step is Step.MOVEMENT
        if command is Hide:
            return True
        if command in COMBAT_COMMANDS:
            return board.step is Step.COMBAT
        return command is EndPhase

    def resolve(self, ruling: Ruling[Any, Board], command: Command) -> None:
        scenario = ruling.state.scenario
        assert isinstance(scenario, AmbushFieldsScenario)
        side = ruling.side
        assert side is not None
        match command:
            case Ready():
                ready(ruling, side)
            case Deploy():
                deploy(ruling, scenario, side, command)
            case Plot():
                plot(ruling, scenario, side, command)
            case Scan():
                scan(ruling, side, command)
            case Launch():
                launch(ruling, scenario, side, command)
            case Recover():
                recover(ruling, scenario, side, command)
            case Hide():
                hide(ruling, side, command)
            case DropField():
                drop_field(ruling, side, command)
            case AssignEW():
                assign_ew(ruling, scenario, side, command)
            case Fire():
                fire(ruling, scenario, side, command)
            case Identify():
                do_identify(ruling, scenario, side, command)
            case MassIdentify():
                do_mass_identify(ruling, scenario, side, command)
            case Destroyed():
                destroyed(ruling, side, command)
            case EndPhase():
                end_phase(ruling, scenario, side)
            case EndGame():
                end_game(ruling, scenario, side)
            case _:
                raise AssertionError(command)

    def fold(self, board: Board, change: BoardChange) -> Board:
        return fold(board, change)

    def table_view(self, scenario: AmbushFieldsScenario) -> dict[str, Any]:
        return {"map": scenario.map.model_dump(mode="json")}

    def board_view(self, state: GameState[Any, Board], observer: str) -> dict[str, Any]:
        board = state.board
        out: dict[str, Any] = {
            "turn": board.turn,
            "step": board.step.value,
            "done": sorted(board.done),
            "ready": sorted(board.ready),
            "ending": sorted(board.ending),
        }
        if observer in state.sides:
            out["fields"] = known_fields(state, observer)
        elif observer == REFEREE:
            # Every field, as its owner knows it, and which other sides have located it:
            # the same list shape as a side's, so one map draws both.
            out["fields"] = [
                {
                    **f,
                    "located_by": sorted(
                        s
                        for s in state.sides
                        if s != side and state.board.knows(s, f["id"]) is FieldState.LOCATED
                    ),
                }
                for side in state.sides
                for f in known_fields(state, side)
                if f["owner"] == side
            ]
        return out

    def describe(self, state: GameState[Any, Board], observer: str, piece: Piece) -> PieceWords:
        return words.describe(state, observer, piece)

    def status(self, state: GameState[Any, Board], observer: str) -> list[str | Say]:
        return words.status(state, observer)

    def map_view(self, state: GameState[Any, Board], observer: str) -> MapView | None:
        from .map import map_view

        fields = self.board_view(state, observer).get("fields", [])
        return map_view(state, observer, fields)

    def candidates(self, state: GameState[Any, Board], side: str) -> list[Facts]:
        from .candidates import candidates

        return candidates(state, side)


def end_game(ruling: Ruling[Any, Board], scenario: AmbushFieldsScenario, side: str) -> None:
    """Either side may end the game in play. Before play begins it ends only when every
    side has asked: the record, published when the game is over, holds every secret, and a
    side must not see the other's hidden deployment just by ending the game at once."""
    waiting = [s for s in ruling.state.sides if s != side and s not in ruling.board.ending]
    if ruling.state.phase is Phase.SETUP and waiting:
        ruling.change_board("ending", side=side)
        names = [scenario.side_name(s) for s in waiting]
        ruling.tell(
            side,
            {
                "event": "end_asked",
                "text": say(
                    "You ask to end the game before it begins. It ends once {sides} ask too; "
                    "nothing is revealed until then.",
                    sides=names,
                ),
            },
        )
        asked = say("{side} ask to end the game before it begins.", side=scenario.side_name(side))
        for other in waiting:
            ruling.tell(
                other,
                {
                    "event": "end_asked",
                    "by": side,
                    "text": say(
                        "{asked} End the game too to agree: the record, with both sides' "
                        "set-up, is published then.",
                        asked=asked,
                    ),
                },
            )
        ruling.tell(SPECTATOR, {"event": "end_asked", "by": side, "text": asked})
        return
    ruling.set_phase(Phase.OVER)
    ruling.tell_public({"event": "game_over", "text": say("The game is over.")})


def plot(
    ruling: Ruling[Any, Board], scenario: AmbushFieldsScenario, side: str, command: Plot
) -> None:
    """Each move is kept secret until the phase ends. A ship leaves the board, or comes back
    onto it, only at an edge hex of the map."""
    moves: list[Say] = []
    for move in command.moves:
        ship = own_ship(ruling.state, side, move.ship)
        try:
            to = scenario.hex_map.from_label(move.to)
        except ValueError:
            raise Refusal(OFF_MAP, "That hex is not on this map.") from None
        away = is_off_board(ship)
        if away and move.leave:
            raise Refusal(OFF_BOARD, "That ship is off the board: plot it back on at an edge hex.")
        if (away or move.leave) and not is_edge(scenario.hex_map, to):
            raise Refusal(NOT_AN_EDGE, "A ship leaves or comes back onto the board at an edge hex.")
        plotted = {"to": move.to, "heading": move.heading, "speed": move.speed, "note": move.note}
        if move.leave:
            plotted["leave"] = True
        ruling.update(ship.id, secret={"plot": plotted})
        if move.leave:
            moves.append(
                say("{ship} to leave the board at hex {hex}", ship=ship.secret["name"], hex=move.to)
            )
        else:
            moves.append(
                say(
                    "{ship} to hex {hex}, heading {heading}, speed {speed}",
                    ship=ship.secret["name"],
                    hex=move.to,
                    heading=move.heading,
                    speed=move.speed,
                )
            )
    ruling.tell(
        side,
        {
            "event": "plotted",
            "text": says(
                "In secret, you plot {n} move: {moves}. It is carried out when both sides have "
                "ended the Movement Phase.",
                "In secret, you plot {n} moves: {moves}. They are carried out together when "
                "both sides have ended the Movement Phase.",
                len(moves),
                moves=moves,
                rules=("BSG-R05", "BSG-R06"),
            ),
        },
    )


def scan(ruling: Ruling[Any, Board], side: str, command: Scan) -> None:
    chosen = sorted({own_ship(ruling.state, side, ref).id for ref in command.ships})
    if any(is_off_board(ruling.piece(ship)) for ship in chosen):
        raise Refusal(OFF_BOARD, "A ship off the board cannot scan.")
    ruling.change_board("scan", side=side, ships=chosen)
    names = [ruling.piece(ship).secret["name"] for ship in chosen]
    ruling.tell(
        side,
        {
            "event": "scanning",
            "text": say(
                "In secret, you say {ships} will scan this turn: at the end of the Movement "
                "Phase each rolls against every enemy field.",
                ships=names,
                rules=("BSG-R12", "BSG-R13", "BSG-A06"),
            )
            if names
            else say("In secret, you say no ship of yours scans this turn.", rules=("BSG-A06",)),
        },
    )


def drop_field(ruling: Ruling[Any, Board], side: str, command: DropField) -> None:
    """BSG-R29, R30: dropped for good; every unit that was in it identified and placed."""
    field = own_field(ruling.state, side, command.field)
    if not field.secret["active"]:
        raise Refusal(NOT_NOW, "That field was dropped already.")
    shapes = field_geometry(ruling.state)
    shape = next(f for f in shapes if f.key == field.id)
    remaining = [f for f in shapes if f.key != field.id]
    # A field whose controller is off the board covers no hex of it: nothing is revealed.
    reveals = field_lost(shape, units(ruling.state), remaining) if shape.active else []
    state = ruling.state
    scenario = state.scenario
    # Each side names the field as it knew it before it went.
    known = {s: dropped(state, s, field, "dropped") for s in state.others(side)}
    mine = field_name(state, side, field)
    before = sight(state)
    ruling.update(field.id, secret={"active": False})
    apply(ruling, reveals)
    for other in ruling.state.others(side):
        ruling.change_board("field", side=other, field=field.id, state=FieldState.DROPPED.value)
    ruling.tell(
        side,
        {
            "event": "field_dropped",
            "field": field.id,
            "text": say(
                "You drop {field}: it can never be raised again, and every ship that was in it "
                "is identified.",
                field=mine,
                rules=("BSG-R29", "BSG-R30"),
            ),
        },
    )
    name = scenario.side_name(side)
    for other, text in known.items():
        ruling.tell(other, {"event": "field_dropped", "text": text})
    ruling.tell(
        SPECTATOR,
        {
            "event": "field_dropped",
            "text": say("{side} drop an ambush field.", side=name, rules=("BSG-R29",)),
        },
    )
    tell_sighted(ruling, before, rules=("BSG-R30",))


def end_phase(ruling: Ruling[Any, Board], scenario: AmbushFieldsScenario, side: str) -> None:
    step = ruling.board.step
    ruling.change_board(done(side).name, side=side)
    if ruling.board.step is step:
        ruling.tell_public(
            {
                "event": "done",
                "side": side,
                "text": say(
                    "{side} are done with the {phase}.",
                    side=scenario.side_name(side),
                    phase=phase(step),
                ),
            }
        )
        return
    if step is Step.MOVEMENT:
        immediate = scenario.switches.enter_trigger is EnterTrigger.IMMEDIATE
        crossed = crossings(ruling.state, scenario) if immediate else []
        carry_out_plots(ruling)
        settle(ruling, scenario)
        for field_id in crossed:
            invade(ruling, field_id)
        detect(ruling, scenario)
    if step is Step.COMBAT:
        segment_10(ruling)
    board = ruling.board
    ruling.tell_public(
        {
            "event": "phase",
            "turn": board.turn,
            "step": board.step.value,
            "text": say(
                "Turn {turn}: the {phase} begins.", turn=board.turn, phase=phase(board.step)
            ),
        }
    )
