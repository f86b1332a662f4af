"""The ambush-fields ruleset class: what the game is, which rule resolves each command, and
where each hook's rules live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ghillie.events import Change
from ghillie.maps import MapView
from ghillie.ruleset import Command, OddsQuery, Rule, Ruleset
from ghillie.state import Facts, Piece
from ghillie.words import Say
from ghillie.words.piece import PieceWords

from . import detection, words
from .board import BOARD_CHANGES, Board, Rules, State, fold
from .candidates import candidates
from .combat import assign_ew, destroyed, do_identify, do_mass_identify, fire
from .commands import (
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
from .dropping import drop_field
from .fugitives import hide
from .hangar import launch, recover
from .map import board_view, map_view
from .movement_orders import plot, scan
from .pieces import secret_facts
from .scenario import AmbushFieldsScenario
from .setup import create, deploy, ready
from .turns import end_game, end_phase, may_act


class AmbushFields(Ruleset[AmbushFieldsScenario, Board]):
    id = "ambush-fields"
    map_reads = ("board", "pieces", "knowledge")  # the map shows no phase and no reaction window
    title = "Ambush and camouflage fields (Battlestar Galactica fleet combat)"
    summary = "Fleets hide in ambush fields on a hex map; enemy ships scan for them in secret."
    map_modes = ("table", "map")
    scenario_model = AmbushFieldsScenario
    # In the order the pages offer them: setting up, the turn's phases, then combat.
    rules: ClassVar[Mapping[type[Command], Rule]] = {
        Ready: ready,
        Deploy: deploy,
        Plot: plot,
        Scan: scan,
        Launch: launch,
        Recover: recover,
        Hide: hide,
        DropField: drop_field,
        EndPhase: end_phase,
        EndGame: end_game,
        AssignEW: assign_ew,
        Fire: fire,
        Identify: do_identify,
        MassIdentify: do_mass_identify,
        Destroyed: destroyed,
    }
    board_changes = BOARD_CHANGES
    orders = words.ORDERS
    odds_queries: ClassVar[Mapping[str, OddsQuery]] = {"detect": detection.ODDS}

    def secret_facts(self, scenario: AmbushFieldsScenario) -> int:
        return secret_facts(scenario)

    def new_board(self, scenario: AmbushFieldsScenario) -> Board:
        return Board()

    def setup(self, ruling: Rules, scenario: AmbushFieldsScenario) -> None:
        create(ruling, scenario)

    def may_act(self, state: State, side: str, command: type[Command]) -> bool:
        return may_act(state, side, command)

    def fold(self, board: Board, change: Change) -> Board:
        return fold(board, change)

    def table_view(self, scenario: AmbushFieldsScenario) -> dict[str, Any]:
        return {"map": scenario.map.model_dump(mode="json")}

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
