"""grid-ambush: Warhammer 40,000 Deathworld Veterans ambushes (RULES-SPEC §4, DWV-*).

Units hide in 1' grid squares written down before deployment. The owner reveals them at the
start of one of their own turns, or an enemy model with an auspex or scanner in the same
square finds them at the start of its shooting phase. No dice: a scan always finds the unit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from ghillie.events import BoardChange
from ghillie.maps import MapView
from ghillie.ruleset import Command, Ruleset, SecretWords
from ghillie.ruling import Ruling
from ghillie.state import REFEREE, Facts, GameState, Phase, Piece
from ghillie.words import N_, Say
from ghillie.words.piece import PieceWords

from . import words
from .ambush import end_game, reveal, scan
from .board import Board, Status, Step, can_ambush, fold
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
)
from .scenario import GridAmbushScenario, ScanPhase
from .setting_up import set_up
from .setup import create_units, ready, record
from .turn import assault, end_phase, fire, move


class GridAmbush(Ruleset[GridAmbushScenario, Board]):
    id = "grid-ambush"
    title = "Deathworld Veterans ambushes (Warhammer 40,000, 3rd edition)"
    summary = "Units hide in written-down 1' grid squares; enemy scanners in the square find them."
    map_modes = ("table", "map")
    scenario_model = GridAmbushScenario
    commands = COMMANDS
    orders = words.ORDERS
    # An ambush order is written down once, in the event every side sees (DWV-R04), and
    # never rewritten: its square's opening proves that event.
    fixed_secrets = frozenset({"square", "order"})
    secret_words: ClassVar[Mapping[str, SecretWords]] = {
        "square": SecretWords(N_("The ambush square of {piece}")),
        "order": SecretWords(N_("The ambush order of {piece}")),
    }

    # --- setup -----------------------------------------------------------------------------

    def new_board(self, scenario: GridAmbushScenario) -> Board:
        return Board()

    def setup(self, ruling: Ruling[Any, Board], scenario: GridAmbushScenario) -> None:
        create_units(ruling, scenario)

    def secret_facts(self, scenario: GridAmbushScenario) -> int:
        # An ambushing unit's order: square, text, note and when it was written (setup.py).
        units = Counter(u.side for u in scenario.units)
        return 4 * max(units.values(), default=0)

    # --- who may act ------------------------------------------------------------------------

    def may_act(self, state: GameState[Any, Board], side: str, command: type[Command]) -> bool:
        board = state.board
        if state.phase is Phase.SETUP:
            # RULES-SPEC DWV-R04: orders are written "before you and your opponent set up
            # each of your armies", so no side may set up while a side that can ambush has
            # not written its orders, and none may be written once a side has. A side that
            # can ambush writes them once, even none: always one event, so that whether it
            # hides any unit, and how many, is not told by what it did (issue 24).
            if command is RecordAmbushes:
                return not board.ready and side not in board.recorded and can_ambush(state, side)
            return (
                command is Ready
                and side not in board.ready
                and all(s in board.recorded for s in state.sides if can_ambush(state, s))
            )
        if board.pending is not None:
            return command is SetUp and state.pieces[board.pending].owner == side
        if command is SetUp:
            return False
        if command is EndGame:
            return True
        if command is Scan and state.scenario.switches.scan_phase is ScanPhase.EITHER:
            return board.step is Step.SHOOTING
        return side == board.active

    # --- rules -------------------------------------------------------------------------------

    def resolve(self, ruling: Ruling[Any, Board], command: Command) -> None:
        scenario = ruling.state.scenario
        assert isinstance(scenario, GridAmbushScenario)
        side = ruling.side
        assert side is not None
        match command:
            case RecordAmbushes():
                record(ruling, scenario, side, command)
            case Ready():
                ready(ruling, scenario, side)
            case Reveal():
                reveal(ruling, scenario, side, command)
            case SetUp():
                set_up(ruling, scenario, side, command)
            case Move():
                move(ruling, scenario, side, command)
            case EndPhase():
                end_phase(ruling, side)
            case Scan():
                scan(ruling, scenario, side, command)
            case Fire():
                fire(ruling, scenario, side, command)
            case Assault():
                assault(ruling, side, command)
            case EndGame():
                end_game(ruling, scenario)
            case _:
                raise AssertionError(command)

    # --- in words ------------------------------------------------------------------------------

    def describe(self, state: GameState[Any, Board], observer: str, piece: Piece) -> PieceWords:
        return words.describe(state, observer, piece)

    def status(self, state: GameState[Any, Board], observer: str) -> list[str | Say]:
        return words.status(state, observer)

    # --- board -------------------------------------------------------------------------------

    def fold(self, board: Board, change: BoardChange) -> Board:
        return fold(board, change)

    def map_view(self, state: GameState[Any, Board], observer: str) -> MapView | None:
        from .map import map_view

        return map_view(state, observer)

    def candidates(self, state: GameState[Any, Board], side: str) -> list[Facts]:
        from .candidates import candidates

        return candidates(state, side)

    def table_view(self, scenario: GridAmbushScenario) -> dict[str, Any]:
        return scenario.table_view

    def board_view(self, state: GameState[Any, Board], observer: str) -> dict[str, Any]:
        scenario = state.scenario
        assert isinstance(scenario, GridAmbushScenario)
        board = state.board
        out: dict[str, Any] = {
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
