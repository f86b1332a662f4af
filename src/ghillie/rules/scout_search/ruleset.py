"""Scout search: the data and hooks the engine asks of a ruleset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ghillie.dice.check import Check
from ghillie.forms import Order
from ghillie.maps import MapView
from ghillie.rules.scout_search import words
from ghillie.rules.scout_search.board import CHANGES, Board, fold
from ghillie.rules.scout_search.candidates import candidates
from ghillie.rules.scout_search.commands import EndGame, Hide, Move, Search
from ghillie.rules.scout_search.hearing import QUERIES, hearing
from ghillie.rules.scout_search.hiding import check_step, hide, move
from ghillie.rules.scout_search.map import map_view
from ghillie.rules.scout_search.scenario import ScoutScenario
from ghillie.rules.scout_search.searching import check_hunter, search
from ghillie.rules.scout_search.setup import setup
from ghillie.ruleset import Command, OddsQuery, Rule, Ruleset, SecretWords
from ghillie.ruling import Ruling
from ghillie.state import REFEREE, Facts, GameState, Phase, Piece
from ghillie.words import N_, Say
from ghillie.words.piece import PieceWords

State = GameState[ScoutScenario, Board]
Rules = Ruling[ScoutScenario, Board]


def end_game(ruling: Rules, side: str, command: EndGame) -> None:
    ruling.set_phase(Phase.OVER)


class ScoutSearch(Ruleset[ScoutScenario, Board]):
    id = "scout-search"
    map_reads = ("board", "pieces", "knowledge")  # the map shows no phase and no reaction window
    title = "Scout search"
    summary = "Hunters search a 6x6 grid, a square a turn, for a Scout that moves in secret."
    map_modes = ("map",)
    scenario_model = ScoutScenario
    rules: ClassVar[Mapping[type[Command], Rule]] = {
        Hide: hide,
        Move: move,
        Search: search,
        EndGame: end_game,
    }
    board_changes = CHANGES
    orders: ClassVar[Mapping[str, Order]] = words.ORDERS
    odds_queries: ClassVar[Mapping[str, OddsQuery]] = QUERIES
    # The Scout's square is rewritten by every move: not fixed.
    secret_words: ClassVar[Mapping[str, SecretWords]] = {
        "square": SecretWords(N_("Where {piece} hides"))
    }

    def new_board(self, scenario: ScoutScenario) -> Board:
        return Board()

    def setup(self, ruling: Rules, scenario: ScoutScenario) -> None:
        setup(ruling, scenario)

    def secret_facts(self, scenario: ScoutScenario) -> int:
        # The scouts hold one: the Scout's square. The hunters hold none.
        return 1

    def may_act(self, state: State, side: str, command: type[Command]) -> bool:
        scenario, board = state.scenario, state.board
        if command is EndGame:
            return True
        if command in (Hide, Move):
            return side == scenario.scouts and (command is Hide or not board.hunters_next)
        return side == scenario.hunters and board.hunters_next

    def validate(self, state: State, side: str, command: Command) -> None:
        if isinstance(command, Move):
            check_step(state, command)
        if isinstance(command, Search):
            check_hunter(state, side, command)

    def fold(self, board: Board, change: Any) -> Board:
        return fold(board, change)

    def board_view(self, state: State, observer: str) -> dict[str, Any]:
        board = state.board
        return {
            "searched": list(board.searched),
            "searches": state.scenario.switches.searches,
            "next": state.scenario.hunters if board.hunters_next else state.scenario.scouts,
            "winner": board.winner,
            # Only the hunters (and the referee) know where they heard the Scout.
            **(
                {"heard": list(board.heard)}
                if observer in (state.scenario.hunters, REFEREE)
                else {}
            ),
        }

    def odds(self, state: State, side: str, command: Command) -> Check[Any] | None:
        # The hunters do not know whether the Scout is next to the square: the odds are of
        # hearing it if it is, which is the die the search rolls.
        if isinstance(command, Search):
            return hearing(state.scenario.switches.hear_on)
        return None

    def describe(self, state: State, observer: str, piece: Piece) -> PieceWords:
        return words.describe(state, observer, piece)

    def status(self, state: State, observer: str) -> list[str | Say]:
        return words.status(state, observer)

    def map_view(self, state: State, observer: str) -> MapView | None:
        return map_view(state, observer)

    def candidates(self, state: State, side: str) -> list[Facts]:
        return candidates(state, side)
