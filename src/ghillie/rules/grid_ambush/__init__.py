"""grid-ambush: Warhammer 40,000 Deathworld Veterans ambushes (RULES-SPEC §4, DWV-*).

Units hide in 1' grid squares written down before deployment. The owner reveals them at the
start of one of their own turns, or an enemy model with an auspex or scanner in the same
square finds them at the start of its shooting phase. No dice: a scan always finds the unit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from ghillie.events import Change
from ghillie.maps import MapView
from ghillie.ruleset import Command, Rule, Ruleset, SecretWords
from ghillie.state import Facts, Phase, Piece
from ghillie.words import N_, Say
from ghillie.words.piece import PieceWords

from . import words
from .ambush import end_game, reveal, scan
from .board import Board, Rules, State, Step, board_view, can_ambush
from .candidates import candidates
from .changes import CHANGES, fold
from .commands import (
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
from .map import map_view
from .scenario import GridAmbushScenario, ScanPhase
from .setting_up import set_up
from .setup import create_units, ready, record
from .turn import assault, end_phase, fire, move


class GridAmbush(Ruleset[GridAmbushScenario, Board]):
    id = "grid-ambush"
    map_reads = ("board", "pieces", "knowledge")  # the map shows no phase and no reaction window
    title = "Deathworld Veterans ambushes (Warhammer 40,000, 3rd edition)"
    summary = "Units hide in written-down 1' grid squares; enemy scanners in the square find them."
    map_modes = ("table", "map")
    scenario_model = GridAmbushScenario
    rules: ClassVar[Mapping[type[Command], Rule]] = {
        RecordAmbushes: record,
        Ready: ready,
        Reveal: reveal,
        SetUp: set_up,
        Move: move,
        EndPhase: end_phase,
        Scan: scan,
        Fire: fire,
        Assault: assault,
        EndGame: end_game,
    }
    board_changes: ClassVar[tuple[type[Change], ...]] = CHANGES
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

    def setup(self, ruling: Rules, scenario: GridAmbushScenario) -> None:
        create_units(ruling, scenario)

    def secret_facts(self, scenario: GridAmbushScenario) -> int:
        # An ambushing unit's order: square, text, note and when it was written (setup.py).
        units = Counter(u.side for u in scenario.units)
        return 4 * max(units.values(), default=0)

    # --- who may act ------------------------------------------------------------------------

    def may_act(self, state: State, side: str, command: type[Command]) -> bool:
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

    # --- the board, and the game in words -------------------------------------------------

    def fold(self, board: Board, change: Change) -> Board:
        return fold(board, change)

    def table_view(self, scenario: GridAmbushScenario) -> dict[str, Any]:
        return scenario.table_view

    def board_view(self, state: State, observer: str) -> dict[str, Any]:
        return board_view(state, observer)

    def describe(self, state: State, observer: str, piece: Piece) -> PieceWords:
        return words.describe(state, observer, piece)

    def status(self, state: State, observer: str) -> list[str | Say]:
        return words.status(state, observer)

    def map_view(self, state: State, observer: str) -> MapView | None:
        return map_view(state, observer)

    def candidates(self, state: State, side: str) -> list[Facts]:
        return candidates(state, side)
