"""ambush-fire as a ruleset (work in progress, not registered: issue 14). So far the set-up
— concealed units placed in secret, standing orders written — and the end of the game."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ghillie.events import BoardChange
from ghillie.ruleset import Command, Ruleset
from ghillie.ruling import Ruling
from ghillie.state import GameState, Phase
from ghillie.words import say

from . import setup
from .board import ORDER, Board, fold
from .commands import COMMANDS, Conceal, EndGame, Ready, StandingOrder
from .scenario import AmbushFireScenario

MAX_ORDERS = 8  # standing orders a side may hold at once


class AmbushFire(Ruleset[AmbushFireScenario, Board]):
    id = "ambush-fire"
    title = "Challenge Fire, Ambush Fire and Ambush Close Combat"
    summary = "Concealed units fire from ambush, by standing order or when asked live."
    map_modes = ("table", "map")
    scenario_model = AmbushFireScenario
    commands = COMMANDS
    fixed_secrets = frozenset({"unit", "reaction", "trigger", "chance"})

    def new_board(self, scenario: AmbushFireScenario) -> Board:
        return Board()

    def setup(self, ruling: Ruling[Board], scenario: AmbushFireScenario) -> None:
        setup.create(ruling, scenario)

    def secret_facts(self, scenario: AmbushFireScenario) -> int:
        # A concealed unit's place, its note and its running table; a standing order's
        # unit, reaction, trigger, chance and note.
        units = Counter(u.side for u in scenario.units)
        return 3 * max(units.values(), default=0) + 5 * MAX_ORDERS

    def may_act(self, state: GameState[Board], side: str, command: type[Command]) -> bool:
        if command is EndGame:
            return True
        if state.phase is Phase.SETUP:
            if command is StandingOrder:
                return side not in state.board.deployed and (
                    len(state.owned(side, ORDER)) < MAX_ORDERS
                )
            return command in (Conceal, Ready) and side not in state.board.deployed
        return False

    def resolve(self, ruling: Ruling[Board], command: Command) -> None:
        scenario = ruling.state.scenario
        assert isinstance(scenario, AmbushFireScenario)
        side = ruling.side
        assert side is not None
        match command:
            case Conceal():
                setup.conceal(ruling, scenario, side, command)
            case StandingOrder():
                setup.standing_order(ruling, scenario, side, command)
            case Ready():
                setup.ready(ruling, scenario, side)
            case EndGame():
                ruling.set_phase(Phase.OVER)
                ruling.tell_public({"text": say("The game is over.")})
            case _:
                raise AssertionError(command)

    def fold(self, board: Board, change: BoardChange) -> Board:
        return fold(board, change)

    def board_view(self, state: GameState[Board], observer: str) -> dict[str, Any]:
        return {"turn": state.board.turn, "step": state.board.step.value}
