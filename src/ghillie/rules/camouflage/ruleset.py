"""camouflage: the Infinity N5 Camouflaged State (RULES-SPEC §5, INF-*).

A camouflaged trooper is not on the table: a marker stands for it, showing its Silhouette
and Mimetism only. The enemy must Discover a marker before attacking it; a failed Discover
locks that trooper out of that marker until the next Player Turn; only Discover, Dodge,
Look Out! and Reset may answer a marker; a reactive trooper may delay its ARO to the second
half of the Order; and a list of declarations cancels the state for the whole Order. The
AROs are answers to the engine's reaction windows: the reactive side is asked after every
skill, whatever stands under any marker, so being asked says nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from ghillie.dice.check import Check
from ghillie.events import Change
from ghillie.maps import MapView
from ghillie.ruleset import Command, Reaction, Rule, Ruleset, SecretWords
from ghillie.state import Facts, Phase, Piece, Window
from ghillie.words import N_, Say
from ghillie.words.piece import PieceWords

from . import deployment, fireteams, resolution, words
from . import orders as order_flow
from .board import Board, Game, Rules, Stage
from .changes import CHANGES, fold
from .commands import (
    Aros,
    Deploy,
    EndGame,
    EndTurn,
    Face,
    Fireteam,
    FirstSkill,
    Impetuous,
    ResolveOrder,
    Retreat,
    SavingRolls,
    SecondSkill,
)
from .map import map_view as camouflage_map
from .odds import ODDS
from .odds import odds as discover_odds
from .orders import FIRST_AROS, SECOND_AROS
from .scenario import CamouflageScenario
from .turns import end_game, end_turn, face, impetuous, retreat


class Camouflage(Ruleset[CamouflageScenario, Board]):
    id = "camouflage"
    map_reads = ("board", "pieces", "knowledge")  # the map shows no phase and no reaction window
    title = "Camouflaged State (Infinity N5)"
    summary = (
        "Camouflaged troopers wait under markers; the enemy must Discover a marker before "
        "it can attack it."
    )
    map_modes = ("table", "map")
    scenario_model = CamouflageScenario
    rules: ClassVar[Mapping[type[Command], Rule]] = {
        Deploy: deployment.deploy,
        FirstSkill: order_flow.first_skill,
        Aros: order_flow.aros,
        SecondSkill: order_flow.second_skill,
        ResolveOrder: resolution.resolve_order,
        SavingRolls: resolution.saving_rolls,
        Face: face,
        EndTurn: end_turn,
        Impetuous: impetuous,
        Retreat: retreat,
        Fireteam: fireteams.fireteam,
        EndGame: end_game,
    }
    board_changes = CHANGES
    orders = words.ORDERS
    odds_queries = ODDS
    # What a marker stands for is written once, in the event that lays it, which every side
    # sees (INF-R01, R02; Private Information in N5), and never rewritten.
    fixed_secrets = frozenset({"hides"})
    secret_words: ClassVar[Mapping[str, SecretWords]] = {
        "hides": SecretWords(N_("What {piece} stands for")),
    }
    reactions: ClassVar[Mapping[str, Reaction]] = {
        FIRST_AROS: Reaction("aros", N_("{side} are declaring their AROs.")),
        SECOND_AROS: Reaction("aros", N_("{side} are declaring their AROs to the second skill.")),
    }

    def new_board(self, scenario: CamouflageScenario) -> Board:
        return Board()

    def setup(self, ruling: Rules, scenario: CamouflageScenario) -> None:
        deployment.create(ruling, scenario)

    def secret_facts(self, scenario: CamouflageScenario) -> int:
        # A marker's secrets: what it stands for, and its owner's note; a side has at most
        # one marker per trooper or item with Camouflage at once (a new one replaces the
        # old: INF-R02).
        counts = Counter(t.side for t in scenario.troopers if t.camouflage)
        return 2 * max(counts.values(), default=0)

    def may_act(self, state: Game, side: str, command: type[Command]) -> bool:
        board = state.board
        if state.phase is Phase.SETUP:
            return command is Deploy and side not in board.deployed
        if command is EndGame:
            return True
        if command in (Impetuous, Retreat):
            return board.order is None
        if command is Fireteam:
            # In the side's own Player Turn, between Orders (the base game forms Fireteams
            # at the start of it, in its Tactical Phase: the players' to keep).
            return side == board.active and board.order is None
        if command is Face:
            # At a real table the owner turns the model by hand; on the map, here (INF-R15).
            return state.scenario.mode.value == "map" and any(
                p.public.get("face_due") for p in state.owned(side)
            )
        order = board.order
        if order is None:
            return side == board.active and command in (FirstSkill, EndTurn)
        if command is SavingRolls:
            return order.stage is Stage.SAVES and any(
                state.piece(s.piece).owner == side for s in board.saves
            )
        if side != board.active:
            return False
        if order.stage is Stage.SECOND:
            return command is SecondSkill
        return order.stage is Stage.RESOLVE and command is ResolveOrder

    def odds(self, state: Game, side: str, command: Command) -> Check[Any] | None:
        return discover_odds(state, side, command)

    def has_odds(self, command: str) -> bool:
        return command in ("first_skill", "second_skill")  # a Discover is a skill

    def odds_labels(self, command: Command) -> Mapping[str, str]:
        # A Discover is declared as a skill of an Order: its words are the discover query's.
        return ODDS["discover"].labels

    def close(self, ruling: Rules, window: Window) -> None:
        order_flow.close(ruling, window)

    def fold(self, board: Board, change: Change) -> Board:
        return fold(board, change)

    def board_view(self, state: Game, observer: str) -> dict[str, Any]:
        return words.board_view(state, observer)

    def describe(self, state: Game, observer: str, piece: Piece) -> PieceWords:
        return words.describe(state, observer, piece)

    def map_view(self, state: Game, observer: str) -> MapView | None:
        return camouflage_map(state, observer)

    def table_view(self, scenario: CamouflageScenario) -> dict[str, Any]:
        return {"width": scenario.width, "depth": scenario.depth}

    def status(self, state: Game, observer: str) -> list[str | Say]:
        return words.status(state, observer)

    def candidates(self, state: Game, side: str) -> list[Facts]:
        from .candidates import candidates

        return candidates(state, side)
