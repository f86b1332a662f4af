"""grid-ambush: Warhammer 40,000 Deathworld Veterans ambushes (RULES-SPEC §4, DWV-*).

Units hide in 1' grid squares written down before deployment. The owner reveals them at the
start of one of their own turns, or an enemy model with an auspex or scanner in the same
square finds them at the start of its shooting phase. No dice: a scan always finds the unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ghillie.errors import (
    MEASURED_BY_MAP,
    MEASUREMENT_REQUIRED,
    NOT_YOURS,
    OFF_TABLE,
    UNKNOWN_PIECE,
    Refusal,
)
from ghillie.events import BoardChange
from ghillie.measure.tabletop import XY
from ghillie.ruleset import Command, Ruleset
from ghillie.ruling import Ruling
from ghillie.state import REFEREE, Facts, GameState, Level, Phase, Piece

from . import placement
from .commands import (
    COMMANDS,
    Assault,
    EndGame,
    EndPhase,
    Fire,
    Move,
    Ready,
    RecordAmbushes,
    Reveal,
    Scan,
    SetUp,
    Weapon,
)
from .orders import Named, parse_order
from .scenario import (
    SCANNING_WARGEAR,
    AtEnd,
    EnemyTurnReveal,
    ExtraScans,
    FirstModel,
    GridAmbushScenario,
    ScanPhase,
    SquareBy,
    UnitSpec,
)

# Refusal codes of this ruleset.
NOT_AMBUSH_CAPABLE = "not_ambush_capable"
SQUARE_TAKEN = "square_taken"
IN_ENEMY_ZONE = "in_enemy_deployment_zone"
UNREADABLE_ORDER = "unreadable_order"
ALREADY_RECORDED = "already_recorded"
DUPLICATE_UNIT = "duplicate_unit"
NOT_IN_AMBUSH = "not_in_ambush"
TOO_LATE = "too_late"
NOT_ON_TABLE = "not_on_table"
REVEALED_THIS_TURN = "revealed_this_turn"
NO_SCANNER = "no_scanner"
SCANNED_THIS_PHASE = "scanned_this_phase"
MOVED_HEAVY = "moved_heavy_weapon"
FIRED_HEAVY_OR_RAPID = "fired_heavy_or_rapid"
BAD_MODELS = "bad_models"
SETUP_PENDING = "setup_pending"
ALREADY_SCANNED = "square_already_scanned"
BETWEEN_SQUARES = "between_squares"


class Step(StrEnum):
    MOVEMENT = "movement"
    SHOOTING = "shooting"
    ASSAULT = "assault"


class Status(StrEnum):
    ON_TABLE = "on_table"
    IN_AMBUSH = "in_ambush"
    REVEALED = "revealed"  # found or revealed, waiting for its owner to set it up
    DESTROYED = "destroyed"
    RESERVE = "reserve"  # map mode: given no positions and not in ambush, so not on the table


@dataclass(frozen=True)
class Board:
    ready: frozenset[str] = frozenset()
    recorded: frozenset[str] = frozenset()
    turn: int = 0  # the game turn, from 1
    first: str | None = None  # the side whose player turn begins each game turn
    player_turn: int = 0  # counts player turns; flags on units name the one they were set in
    active: str | None = None
    step: Step = Step.MOVEMENT
    turn_begun: bool = False  # a move or phase change has happened this player turn
    shooting_started: bool = False  # a unit has fired this shooting phase
    pending: str | None = None  # a revealed unit waiting to be set up
    scans: tuple[str, ...] = ()  # squares scanned this shooting phase
    found: tuple[str, ...] = ()  # squares whose ambushers a scan found this shooting phase
    found_empty: dict[str, tuple[str, ...]] = field(default_factory=dict)  # side -> squares


def _in_square(scenario: GridAmbushScenario, square: str, at: XY, radius: float) -> bool:
    """Is a model with its base centre at ``at`` in ``square`` (RULES-SPEC DWV-A04)?"""
    if scenario.grid.ref_at(at) != square:
        return False
    if scenario.switches.square_by is SquareBy.WHOLE_BASE:
        from shapely.geometry import Point

        return bool(scenario.grid.polygon(square).covers(Point(at).buffer(radius)))
    return True


def _can_ambush(state: GameState[Board], side: str) -> bool:
    """Does the side have a unit its army list lets set up in ambush (DWV-R01)?"""
    return any(p.public["ambush"] for p in state.owned(side, "unit"))


class GridAmbush(Ruleset[GridAmbushScenario, Board]):
    id = "grid-ambush"
    title = "Deathworld Veterans ambushes (Warhammer 40,000, 3rd edition)"
    summary = "Units hide in written-down 1' grid squares; enemy scanners in the square find them."
    map_modes = ("table", "map")
    scenario_model = GridAmbushScenario
    commands = COMMANDS

    # --- setup -----------------------------------------------------------------------------

    def new_board(self, scenario: GridAmbushScenario) -> Board:
        return Board()

    def setup(self, ruling: Ruling[Board], scenario: GridAmbushScenario) -> None:
        for unit in scenario.units:
            ruling.place(
                Piece(
                    ruling.new_id(),
                    unit.side,
                    "unit",
                    {
                        "key": unit.key,
                        "name": unit.name,
                        "leader": unit.leader,
                        "ambush": unit.ambush,
                        "base_radius": unit.base_radius,
                        "status": self._deployed(scenario, unit).value,
                        "models": [
                            {
                                "name": m.name,
                                "wargear": list(m.wargear),
                                "scanner": self._is_scanner(
                                    scenario, unit.side, m.name, m.wargear, m.scanner
                                ),
                                "at": list(m.at) if m.at else None,
                                "lost": False,
                            }
                            for m in unit.models
                        ],
                    },
                )
            )
        if scenario.ambusher() is not None:
            # RULES-SPEC DWV-R02: the opponent is told the Ambush rules are in use.
            ruling.tell_public(
                {
                    "event": "ambush_rules",
                    "text": "The Ambush rules are in use: ambushers may hide in grid squares "
                    "and be found by auspexes and scanners in the same square.",
                }
            )

    @staticmethod
    def _deployed(scenario: GridAmbushScenario, unit: UnitSpec) -> Status:
        if scenario.mode.value == "map" and any(m.at is None for m in unit.models):
            return Status.RESERVE
        return Status.ON_TABLE

    @staticmethod
    def _is_scanner(
        scenario: GridAmbushScenario, side: str, name: str, wargear: tuple[str, ...], flag: bool
    ) -> bool:
        listed = scenario.switches.scanning_models.get(scenario.race(side), ())
        return flag or bool(SCANNING_WARGEAR & {w.casefold() for w in wargear}) or name in listed

    # --- who may act ------------------------------------------------------------------------

    def may_act(self, state: GameState[Board], side: str, command: type[Command]) -> bool:
        board = state.board
        if state.phase is Phase.SETUP:
            # RULES-SPEC DWV-R04: orders are written "before you and your opponent set up
            # each of your armies", so no side may set up while another side that can
            # ambush has not written its orders, and none may be written once a side has.
            if command is RecordAmbushes:
                return not board.ready and side not in board.recorded and _can_ambush(state, side)
            return (
                command is Ready
                and side not in board.ready
                and all(
                    other in board.recorded or other in board.ready
                    for other in state.others(side)
                    if _can_ambush(state, other)
                )
            )
        if board.pending is not None:
            return command is SetUp and state.pieces[board.pending].owner == side
        if command is SetUp:
            return False
        if command is EndGame:
            return True
        if command is Scan and state.scenario.switches.scan_phase is ScanPhase.EITHER:  # type: ignore[attr-defined]
            return board.step is Step.SHOOTING
        return side == board.active

    # --- rules -------------------------------------------------------------------------------

    def resolve(self, ruling: Ruling[Board], command: Command) -> None:
        scenario = ruling.state.scenario
        assert isinstance(scenario, GridAmbushScenario)
        side = ruling.side
        assert side is not None
        match command:
            case RecordAmbushes():
                self._record(ruling, scenario, side, command)
            case Ready():
                self._ready(ruling, scenario, side)
            case Reveal():
                self._reveal(ruling, scenario, side, command)
            case SetUp():
                self._set_up(ruling, scenario, side, command)
            case Move():
                self._move(ruling, scenario, side, command)
            case EndPhase():
                self._end_phase(ruling, side)
            case Scan():
                self._scan(ruling, scenario, side, command)
            case Fire():
                self._fire(ruling, scenario, side, command)
            case Assault():
                self._assault(ruling, side, command)
            case EndGame():
                self._end_game(ruling, scenario)
            case _:
                raise AssertionError(command)

    def _record(
        self,
        ruling: Ruling[Board],
        scenario: GridAmbushScenario,
        side: str,
        command: RecordAmbushes,
    ) -> None:
        grid = scenario.grid
        own = ruling.state.owned(side, "unit")
        # Orders may name any of the side's units, so that naming one the army list does
        # not allow to ambush is refused as that (DWV-R01), not as an unreadable order.
        named = [Named(p.public["key"], p.public["name"], p.public["leader"]) for p in own]
        chosen: dict[str, tuple[str, str, str]] = {}  # piece id -> (square, order text, note)
        for entry in command.orders:
            if entry.text is not None:
                order = parse_order(entry.text, named)
                if order is None:
                    raise Refusal(
                        UNREADABLE_ORDER,
                        "Write orders as 'Patrol led by Sgt. Graw setting up ambush in square D2'.",
                    )
                unit = next(p for p in own if p.public["key"] == order.key)
                square, text = order.square, entry.text
            else:
                if entry.unit is None or entry.square is None:
                    raise Refusal(UNREADABLE_ORDER, "An order names a unit and a square.")
                unit, square = self._own_unit(ruling.state, side, entry.unit), entry.square
                text = ""
            if not unit.public["ambush"]:
                # RULES-SPEC DWV-R01
                raise Refusal(NOT_AMBUSH_CAPABLE, "That unit may not set up in ambush.")
            if not grid.is_ref(square):
                raise Refusal(OFF_TABLE, "That square is not on this table's grid.")
            # One spelling per square, so that a scan of D2 finds an order written " d2".
            square = grid.canonical(square)
            text = text or f"{unit.public['name']} setting up ambush in square {square}"
            if unit.id in chosen:
                raise Refusal(DUPLICATE_UNIT, "Each unit has one order.")
            if any(square == sq for sq, _, _ in chosen.values()):
                # RULES-SPEC DWV-R05: no more than one ambushing unit per square
                raise Refusal(SQUARE_TAKEN, "No more than one ambushing unit may hide in a square.")
            if scenario.in_enemy_zone(side, square):
                raise Refusal(
                    IN_ENEMY_ZONE, "Ambushes may not be set in the enemy's deployment zone."
                )
            chosen[unit.id] = (square, text, entry.note)
        for piece_id, (square, text, note) in chosen.items():
            piece = ruling.piece(piece_id)
            models = [{**m, "at": None} for m in piece.public["models"]]
            ruling.update(
                piece_id,
                public={"status": Status.IN_AMBUSH.value, "models": models},
                secret={
                    "square": square,
                    "order": text,
                    "note": note,
                    "recorded_at": ruling.state.seq + 1,
                },
            )
        ruling.change_board("recorded", side=side)
        ruling.tell(
            side,
            {
                "event": "ambushes_recorded",
                "orders": [{"unit": pid, "square": sq} for pid, (sq, _, _) in chosen.items()],
                "text": f"Recorded {len(chosen)} ambush order(s) in secret.",
            },
        )
        for other in ruling.state.others(side):
            # The opponent learns that orders were written, never how many or where.
            ruling.tell(
                other,
                {
                    "event": "ambushes_recorded",
                    "text": "The opponent wrote down their ambush orders.",
                },
            )

    def _ready(self, ruling: Ruling[Board], scenario: GridAmbushScenario, side: str) -> None:
        ruling.change_board("ready", side=side)
        ruling.tell_public(
            {"event": "ready", "side": side, "text": f"{scenario.side_name(side)} is ready."}
        )
        if ruling.board.ready != frozenset(scenario.side_ids()):
            return
        # Both sides are set up: each sees the other's army, and (if rosters are public,
        # DWV-A12) which of the other's units are lying in ambush somewhere.
        for piece in list(ruling.state.pieces.values()):
            hidden = piece.public["status"] == Status.IN_AMBUSH.value
            if hidden and not scenario.switches.roster_public:
                continue
            for other in ruling.state.others(piece.owner):
                ruling.reveal(piece.id, other, Level.IDENTIFIED)
        first = scenario.first_turn or scenario.side_ids()[0]
        ruling.set_phase(Phase.PLAY)
        ruling.change_board("next_turn", active=first)
        ruling.tell_public(
            {
                "event": "turn",
                "turn": 1,
                "side": first,
                "text": f"Turn 1: {scenario.side_name(first)} to play.",
            }
        )

    def _reveal(
        self, ruling: Ruling[Board], scenario: GridAmbushScenario, side: str, command: Reveal
    ) -> None:
        unit = self._own_unit(ruling.state, side, command.unit)
        board = ruling.board
        if unit.public["status"] != Status.IN_AMBUSH.value:
            raise Refusal(NOT_IN_AMBUSH, "That unit is not hidden in ambush.")
        # RULES-SPEC DWV-R06: only at the beginning of one of the owner's own turns.
        if board.step is not Step.MOVEMENT or board.turn_begun:
            raise Refusal(TOO_LATE, "Ambushes are revealed at the beginning of your own turn.")
        if board.turn == 1 and not scenario.switches.reveal_turn_one:
            raise Refusal(TOO_LATE, "This scenario allows no reveal on turn 1.")
        self._start_setup(ruling, unit, own_turn=True, found_by=None)

    def _start_setup(
        self, ruling: Ruling[Board], unit: Piece, *, own_turn: bool, found_by: str | None
    ) -> None:
        square = unit.secret["square"]
        ruling.update(
            unit.id,
            public={
                "status": Status.REVEALED.value,
                "square": square,
                "revealed_in": ruling.board.player_turn,
                "revealed_in_own_turn": own_turn,
            },
        )
        for other in ruling.state.others(unit.owner):
            ruling.reveal(unit.id, other, Level.IDENTIFIED)
        ruling.change_board("pending", unit=unit.id)
        how = "revealed by its owner" if found_by is None else "found by a scan"
        name = unit.public["name"]
        ruling.tell_public(
            {
                "event": "ambush_revealed",
                "unit": unit.id,
                "square": square,
                "text": f"Ambush in {square}: {name}, {how}. Its owner sets it up now.",
            }
        )

    def _set_up(
        self, ruling: Ruling[Board], scenario: GridAmbushScenario, side: str, command: SetUp
    ) -> None:
        unit = self._own_unit(ruling.state, side, command.unit)
        if unit.id != ruling.board.pending:
            raise Refusal(SETUP_PENDING, "Set up the unit that was revealed.")
        size = len(unit.public["models"])
        rounding = scenario.switches.half_rounding
        if scenario.mode.value == "map":
            if command.models is None or len(command.models) != size or command.placed is not None:
                raise Refusal(BAD_MODELS, "Give a position (or null) for every model of the unit.")
            result = self._map_setup(ruling.state, scenario, unit, command.models)
        else:
            if command.placed is None or command.in_square is None or command.models is not None:
                raise Refusal(
                    BAD_MODELS, "Enter how many models were set up and how many are in the square."
                )
            if command.placed > size or command.in_square > command.placed:
                # Counts that cannot be true are a typing slip, not something to round off.
                raise Refusal(
                    BAD_MODELS,
                    "No more models can be set up than the unit has, nor more be in the "
                    "square than were set up.",
                )
            result = placement.set_up_counted(size, command.placed, command.in_square, rounding)
        models = []
        for i, model in enumerate(unit.public["models"]):
            at = command.models[i] if command.models and i in result.placed else None
            models.append({**model, "at": list(at) if at else None, "lost": i not in result.placed})
        status = Status.ON_TABLE if result.placed else Status.DESTROYED
        ruling.update(unit.id, public={"status": status.value, "models": models})
        ruling.change_board("pending", unit=None)
        lost = len(result.casualties)
        # The models stand on the open table: everyone, spectators too, sees the result.
        ruling.tell_public(
            {
                "event": "set_up",
                "unit": unit.id,
                "placed": len(result.placed),
                "casualties": {str(i): why for i, why in result.casualties.items()},
                "text": f"{unit.public['name']} set up with {len(result.placed)} model(s); "
                f"{lost} removed as casualties.",
            }
        )

    def _map_setup(
        self,
        state: GameState[Board],
        scenario: GridAmbushScenario,
        unit: Piece,
        proposed: tuple[XY | None, ...],
    ) -> placement.Setup:
        table = scenario.tabletop
        square = unit.secret["square"]
        radius = float(unit.public["base_radius"])
        standing = [
            (p.owner, (tuple(m["at"]), float(p.public["base_radius"])))
            for p in state.pieces.values()
            if p.kind == "unit" and p.id != unit.id
            for m in p.public["models"]
            if m["at"] and not m["lost"]
        ]
        enemies = [model for owner, model in standing if owner != unit.owner]
        friends = [model for owner, model in standing if owner == unit.owner]

        def in_square(point: XY) -> bool:
            return _in_square(scenario, square, point, radius)

        kwargs: dict[str, Any] = {
            "table": table,
            "in_square": in_square,
            "enemies": enemies,
            "friends": friends,
            "base_radius": radius,
            "rounding": scenario.switches.half_rounding,
        }
        result = placement.set_up(proposed, **kwargs)
        if not result.placed and scenario.switches.first_model is FirstModel.ANY_TERRAIN:
            result = placement.set_up(proposed, wooded=False, **kwargs)
        return result

    def _move(
        self, ruling: Ruling[Board], scenario: GridAmbushScenario, side: str, command: Move
    ) -> None:
        unit = self._on_table(ruling.state, side, command.unit)
        board = ruling.board
        if board.step is not Step.MOVEMENT:
            raise Refusal("not_movement_phase", "Units move in the Movement phase.")
        if self._revealed_too_recently(scenario, board, unit):
            # RULES-SPEC DWV-R09: units can't move on the turn they are revealed.
            raise Refusal(REVEALED_THIS_TURN, "A unit cannot move in the turn it was revealed.")
        models = list(unit.public["models"])
        if scenario.mode.value == "map":
            living = [i for i, m in enumerate(models) if not m["lost"]]
            if command.models is None or len(command.models) != len(living):
                raise Refusal(BAD_MODELS, "Give a new position for every model still in the unit.")
            table = scenario.tabletop
            if not all(table.on_table(p) for p in command.models):
                raise Refusal(OFF_TABLE, "Every model must stay on the table.")
            for i, at in zip(living, command.models, strict=True):
                models[i] = {**models[i], "at": list(at)}
        elif command.models is not None:
            raise Refusal(BAD_MODELS, "At a physical table, move the models there.")
        ruling.update(unit.id, public={"models": models, "moved_in": board.player_turn})
        ruling.change_board("turn_begun")
        ruling.tell_public(
            {"event": "move", "unit": unit.id, "text": f"{unit.public['name']} moves."}
        )

    def _revealed_too_recently(
        self, scenario: GridAmbushScenario, board: Board, unit: Piece
    ) -> bool:
        revealed = unit.public.get("revealed_in")
        if revealed is None:
            return False
        if revealed == board.player_turn:
            return True
        # DWV-A07 option: a unit revealed in the enemy's turn also stays put in its next turn.
        return (
            scenario.switches.enemy_turn_reveal is EnemyTurnReveal.NO_MOVE_NEXT_OWN_TURN
            and not unit.public.get("revealed_in_own_turn")
            and revealed == board.player_turn - 1
        )

    def _end_phase(self, ruling: Ruling[Board], side: str) -> None:
        board = ruling.board
        name = ruling.state.scenario.side_name(side)
        if board.step is Step.MOVEMENT:
            ruling.change_board("step", step=Step.SHOOTING.value)
            ruling.tell_public(
                {"event": "phase", "step": "shooting", "text": f"{name}: Shooting phase."}
            )
        elif board.step is Step.SHOOTING:
            ruling.change_board("step", step=Step.ASSAULT.value)
            ruling.tell_public(
                {"event": "phase", "step": "assault", "text": f"{name}: Assault phase."}
            )
        else:
            nxt = ruling.state.others(side)[0]
            ruling.change_board("next_turn", active=nxt)
            turn = ruling.board.turn
            ruling.tell_public(
                {
                    "event": "turn",
                    "turn": turn,
                    "side": nxt,
                    "text": f"Turn {turn}: {ruling.state.scenario.side_name(nxt)} to play.",
                }
            )

    def _scan(
        self, ruling: Ruling[Board], scenario: GridAmbushScenario, side: str, command: Scan
    ) -> None:
        unit = self._on_table(ruling.state, side, command.unit)
        board = ruling.board
        if board.step is not Step.SHOOTING or board.shooting_started:
            # RULES-SPEC DWV-R07: scans are made at the start of the shooting phase.
            raise Refusal(
                TOO_LATE, "Scans are made at the start of the shooting phase, before any fire."
            )
        models = unit.public["models"]
        if command.model >= len(models) or models[command.model]["lost"]:
            raise Refusal(BAD_MODELS, "There is no such model in the unit.")
        model = models[command.model]
        if not model["scanner"]:
            # RULES-SPEC §6: a model with no scanning device may not scan (a legal refusal).
            raise Refusal(NO_SCANNER, "That model carries no auspex, scanner or similar device.")
        square = self._square_of(scenario, model, command.square, unit)
        if square in board.scans and scenario.switches.extra_scans is ExtraScans.REFUSED:
            raise Refusal(ALREADY_SCANNED, "That square has already been scanned this phase.")
        scanned = dict(unit.public.get("scanned") or {})
        scanned[str(command.model)] = board.player_turn
        ruling.update(unit.id, public={"scanned": scanned})
        ruling.change_board("scan", square=square)
        hidden = next(
            (
                p
                for p in ruling.state.pieces.values()
                if p.owner != side
                and p.kind == "unit"
                and p.public["status"] == Status.IN_AMBUSH.value
                and p.secret.get("square") == square
            ),
            None,
        )
        scanner = f"{unit.public['name']} ({model['name']})"
        if hidden is not None:
            ruling.change_board("found", square=square)
            ruling.tell_public(
                {
                    "event": "scan",
                    "square": square,
                    "found": True,
                    "text": f"{scanner} scans {square}: ambushers detected!",
                }
            )
            own_turn = board.active == hidden.owner  # possible with dwv.scan_phase = either
            self._start_setup(ruling, hidden, own_turn=own_turn, found_by=side)
        elif square in board.found:
            # RULES-SPEC DWV-A14: the first scan revealed the square's only ambusher; a
            # further scan of it this phase has no further effect (it was made, though: the
            # scanning model still may not fire). Said as what everyone saw, not as "empty".
            ruling.tell_public(
                {
                    "event": "scan",
                    "square": square,
                    "text": f"{scanner} scans {square}: its ambushers were found already.",
                }
            )
        elif scenario.switches.report_empty_scan:
            # RULES-SPEC DWV-A06: a yes/no test of one square; the leak is intended.
            ruling.change_board("found_empty", side=side, square=square)
            ruling.tell_public(
                {
                    "event": "scan",
                    "square": square,
                    "found": False,
                    "text": f"{scanner} scans {square}: no ambushers found.",
                }
            )
        else:
            # dwv.report_empty_scan = false: the scan is announced, its result is not; the
            # table shows it anyway, since nobody is set up.
            ruling.tell_public(
                {"event": "scan", "square": square, "text": f"{scanner} scans {square}."}
            )

    def _square_of(
        self, scenario: GridAmbushScenario, model: Facts, entered: str | None, unit: Piece
    ) -> str:
        grid = scenario.grid
        if scenario.mode.value == "map":
            if entered is not None:
                raise Refusal(MEASURED_BY_MAP, "This game is on a map: ghillie knows the square.")
            at = model["at"]
            ref = grid.ref_at(tuple(at)) if at else None
            if ref is None:
                raise Refusal(OFF_TABLE, "That model is not in a square of the grid.")
            if not _in_square(scenario, ref, tuple(at), float(unit.public["base_radius"])):
                # DWV-A04 option dwv.square_by = whole_base: astride a line, in no square.
                raise Refusal(BETWEEN_SQUARES, "That model's base is not wholly in one square.")
            return ref
        if entered is None:
            raise Refusal(MEASUREMENT_REQUIRED, "Enter the square the scanning model stands in.")
        if not grid.is_ref(entered):
            raise Refusal(OFF_TABLE, "That square is not on this table's grid.")
        return grid.canonical(entered)

    def _fire(
        self, ruling: Ruling[Board], scenario: GridAmbushScenario, side: str, command: Fire
    ) -> None:
        unit = self._on_table(ruling.state, side, command.unit)
        board = ruling.board
        if board.step is not Step.SHOOTING:
            raise Refusal("not_shooting_phase", "Units fire in the Shooting phase.")
        models = unit.public["models"]
        scanned = {
            int(i)
            for i, turn in (unit.public.get("scanned") or {}).items()
            if turn == board.player_turn
        }
        # Without a list, every model of the unit that may fire does: not one that scanned.
        firing = (
            command.models
            if command.models is not None
            else [i for i, m in enumerate(models) if not m["lost"] and i not in scanned]
        )
        if not firing or any(i >= len(models) or models[i]["lost"] for i in firing):
            raise Refusal(BAD_MODELS, "There is no such model in the unit.")
        if scanned & set(firing):
            # RULES-SPEC DWV-R07: the scanning model cannot fire in that shooting phase.
            raise Refusal(
                SCANNED_THIS_PHASE, "A model that scanned cannot fire this shooting phase."
            )
        revealed_now = unit.public.get("revealed_in") == board.player_turn
        moved = unit.public.get("moved_in") == board.player_turn and not revealed_now
        if command.weapon is Weapon.HEAVY and moved:
            raise Refusal(MOVED_HEAVY, "A unit that moved cannot fire heavy weapons.")
        fired = [w for w in unit.public.get("fired") or [] if w["turn"] == board.player_turn]
        fired.append({"turn": board.player_turn, "weapon": command.weapon.value})
        ruling.update(unit.id, public={"fired": fired})
        ruling.change_board("shooting_started")
        # RULES-SPEC DWV-R09: revealed in its own turn, it counts as not having moved.
        stationary = " It counts as not having moved (revealed this turn)." if revealed_now else ""
        weapon = command.weapon.value.replace("_", " ")
        ruling.tell_public(
            {
                "event": "fire",
                "unit": unit.id,
                "weapon": command.weapon.value,
                "models": list(firing),
                "counts_as_stationary": revealed_now,
                "text": f"{unit.public['name']} fires {weapon} weapons.{stationary}",
            }
        )

    def _assault(self, ruling: Ruling[Board], side: str, command: Assault) -> None:
        unit = self._on_table(ruling.state, side, command.unit)
        board = ruling.board
        if board.step is not Step.ASSAULT:
            raise Refusal("not_assault_phase", "Assault moves are made in the Assault phase.")
        fired = {
            w["weapon"] for w in unit.public.get("fired") or [] if w["turn"] == board.player_turn
        }
        if fired & {Weapon.HEAVY.value, Weapon.RAPID_FIRE.value}:
            # 3rd edition, as DWV-R09 relies on: heavy or rapid fire stops an assault.
            raise Refusal(
                FIRED_HEAVY_OR_RAPID,
                "A unit that fired heavy or rapid fire weapons cannot assault.",
            )
        ruling.tell_public(
            {"event": "assault", "unit": unit.id, "text": f"{unit.public['name']} assaults."}
        )

    def _end_game(self, ruling: Ruling[Board], scenario: GridAmbushScenario) -> None:
        rule = scenario.switches.unrevealed_at_end
        ruling.set_phase(Phase.OVER)
        ruling.tell_public({"event": "game_over", "text": "The game is over."})
        for piece in list(ruling.state.pieces.values()):
            if piece.public.get("status") != Status.IN_AMBUSH.value:
                continue
            # RULES-SPEC DWV-A11: what becomes of an ambush never revealed.
            if rule is AtEnd.REVEAL:
                ruling.update(piece.id, public={"square": piece.secret["square"]})
                for other in ruling.state.others(piece.owner):
                    ruling.reveal(piece.id, other, Level.IDENTIFIED)
                ruling.tell_public(
                    {
                        "event": "unrevealed_at_end",
                        "unit": piece.id,
                        "square": piece.secret["square"],
                        "text": f"{piece.public['name']} was hiding in {piece.secret['square']}.",
                    }
                )
            elif rule is AtEnd.DESTROYED:
                ruling.update(piece.id, public={"status": Status.DESTROYED.value})
                ruling.tell_public(
                    {
                        "event": "unrevealed_at_end",
                        "unit": piece.id,
                        "text": f"{piece.public['name']} counts as destroyed.",
                    }
                )

    # --- lookups ---------------------------------------------------------------------------

    def _own_unit(self, state: GameState[Board], side: str, ref: str) -> Piece:
        """A unit by id or (for one's own units) scenario key. A piece the side cannot see
        answers exactly like a piece that does not exist."""
        piece = state.pieces.get(ref)
        if piece is None:
            piece = next((p for p in state.owned(side, "unit") if p.public.get("key") == ref), None)
        if piece is None or not state.can_see(side, piece.id):
            raise Refusal(UNKNOWN_PIECE, "There is no such piece that you can see.")
        if piece.owner != side:
            raise Refusal(NOT_YOURS, "That piece is not yours to command.")
        return piece

    def _on_table(self, state: GameState[Board], side: str, ref: str) -> Piece:
        unit = self._own_unit(state, side, ref)
        if unit.public["status"] != Status.ON_TABLE.value:
            raise Refusal(NOT_ON_TABLE, "That unit is not on the table.")
        return unit

    # --- board -------------------------------------------------------------------------------

    def fold(self, board: Board, change: BoardChange) -> Board:
        data = change.data
        match change.name:
            case "ready":
                return replace(board, ready=board.ready | {data["side"]})
            case "recorded":
                return replace(board, recorded=board.recorded | {data["side"]})
            case "next_turn":
                first = board.first or data["active"]
                return replace(
                    board,
                    first=first,
                    active=data["active"],
                    turn=board.turn + 1 if data["active"] == first else board.turn,
                    player_turn=board.player_turn + 1,
                    step=Step.MOVEMENT,
                    turn_begun=False,
                    shooting_started=False,
                    scans=(),
                    found=(),
                )
            case "step":
                return replace(
                    board,
                    step=Step(data["step"]),
                    turn_begun=True,
                    shooting_started=False,
                    scans=(),
                    found=(),
                )
            case "turn_begun":
                return replace(board, turn_begun=True)
            case "shooting_started":
                return replace(board, shooting_started=True)
            case "pending":
                return replace(board, pending=data["unit"])
            case "scan":
                return replace(board, scans=(*board.scans, data["square"]))
            case "found":
                return replace(board, found=(*board.found, data["square"]))
            case "found_empty":
                side, square = data["side"], data["square"]
                known = board.found_empty.get(side, ())
                if square in known:
                    return board
                return replace(board, found_empty={**board.found_empty, side: (*known, square)})
        return super().fold(board, change)

    def candidates(self, state: GameState[Board], side: str) -> list[Facts]:
        from .candidates import candidates

        return candidates(state, side)

    def board_view(self, state: GameState[Board], observer: str) -> dict[str, Any]:
        scenario = state.scenario
        assert isinstance(scenario, GridAmbushScenario)
        grid = scenario.grid
        board = state.board
        out: dict[str, Any] = {
            "table": {"width": scenario.table.width, "depth": scenario.table.depth},
            "grid": {ref: grid.bounds(ref) for ref in grid.refs()},
            "terrain": [t.model_dump(mode="json") for t in scenario.terrain],
            "deployment_zones": [z.model_dump(mode="json") for z in scenario.deployment_zones],
            "ambush_rules_in_use": scenario.ambusher() is not None,
            "turn": board.turn,
            "active": board.active,
            "step": board.step.value,
            "waiting_for_setup": board.pending,
            "ready": sorted(board.ready),
        }
        if observer == REFEREE:
            out["found_empty"] = {side: list(sq) for side, sq in board.found_empty.items()}
        elif observer in state.sides:
            out["found_empty"] = list(board.found_empty.get(observer, ()))
            if scenario.switches.roster_public and state.phase is not Phase.SETUP:
                # RULES-SPEC DWV-A12: "N units in ambush", from the public roster.
                out["enemy_units_in_ambush"] = sum(
                    1
                    for p in state.pieces.values()
                    if p.owner != observer and p.public.get("status") == Status.IN_AMBUSH.value
                )
        return out
