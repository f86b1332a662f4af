"""ambush-fire as a ruleset: its data (commands, words, odds, switches, reaction windows)
and the hooks that send each command to the module of its rule."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from ghillie.dice.check import Check
from ghillie.events import BoardChange
from ghillie.forms import Order
from ghillie.maps import MapView
from ghillie.ruleset import Command, Reaction, Ruleset, SecretWords
from ghillie.ruling import Ruling
from ghillie.state import Facts, GameState, Phase, Piece, Window
from ghillie.words import N_, Say, say
from ghillie.words.piece import PieceWords

from . import facing, fire, live, movement, opening, setup, turning, words
from .board import MAX_ORDERS, Board, Step, fold
from .commands import (
    COMMANDS,
    Conceal,
    EndGame,
    EndStep,
    Fire,
    Move,
    React,
    Ready,
    Retreat,
    ReturnFire,
    Turn,
)
from .odds import LABELS, ODDS, PRICED, priced
from .scenario import AmbushFireScenario

__all__ = ["MAX_ORDERS", "AmbushFire"]


class AmbushFire(Ruleset[AmbushFireScenario, Board]):
    id = "ambush-fire"
    title = "Challenge Fire, Ambush Fire and Ambush Close Combat"
    summary = "Concealed units fire from ambush, by standing order or when asked live."
    map_modes = ("table", "map")
    scenario_model = AmbushFireScenario
    commands = COMMANDS
    orders: ClassVar[Mapping[str, Order]] = {**words.ORDERS, "turn": turning.ORDER}
    odds_queries = ODDS
    # A standing order is written once, in the side's Ready with all its others (every side
    # sees only that the side is ready), and never rewritten: its opening proves it came
    # before its trigger (issue 14).
    fixed_secrets = frozenset({"unit", "reaction", "trigger", "order", "chance"})
    secret_words: ClassVar[Mapping[str, SecretWords]] = {
        "unit": SecretWords(N_("The unit of {piece}")),
        "reaction": SecretWords(N_("The reaction of {piece}")),
        "trigger": SecretWords(N_("The trigger of {piece}")),
        "order": SecretWords(N_("The standing order")),
        "chance": SecretWords(N_("The base chance to hit of {piece}")),
    }
    reactions: ClassVar[Mapping[str, Reaction]] = {
        movement.RETURN_FIRE: Reaction(
            "return_fire", N_("{side} are deciding whether to fire back.")
        ),
        movement.RETREAT: Reaction("retreat", N_("{side} are deciding whether to retreat.")),
        # Asked after every leg of every enemy move, whatever it could do (issue 14).
        live.REACT: Reaction(
            "react",
            N_("{side} are deciding whether to react."),
            default={"reaction": "hold"},
            timed_out=N_("Time ran out: {side} hold fire."),
        ),
    }

    def new_board(self, scenario: AmbushFireScenario) -> Board:
        return Board()

    def setup(self, ruling: Ruling[Any, Board], scenario: AmbushFireScenario) -> None:
        setup.create(ruling, scenario)

    def secret_facts(self, scenario: AmbushFireScenario) -> int:
        # A concealed unit's place, its note, its running table, the route it is on, whether
        # that runs between concealed positions (BMF-R01), its walk in legs, the way it
        # walked still untold, what it did while concealed and which way it and its turret
        # face; a standing order's unit, reaction, trigger, words, chance, note and missile
        # in flight — and one more order, a reaction given live, written as it fires.
        units = Counter(u.side for u in scenario.units)
        return 10 * max(units.values(), default=0) + 7 * (MAX_ORDERS + 1)

    def may_act(self, state: GameState[Any, Board], side: str, command: type[Command]) -> bool:
        if command is EndGame:
            return True
        if command is React:
            return False  # only in its window, where the engine decides (live.py)
        if state.phase is Phase.SETUP:
            return command in (Conceal, Turn, Ready) and side not in state.board.deployed
        board = state.board
        if board.step is Step.MOVEMENT:
            return side == board.moving and command in (Move, Turn, EndStep)
        # "The side that moves first will designate fire second."
        return side == board.moving and command in (Fire, EndStep)

    def resolve(self, ruling: Ruling[Any, Board], command: Command) -> None:
        scenario = ruling.state.scenario
        assert isinstance(scenario, AmbushFireScenario)
        side = ruling.side
        assert side is not None
        match command:
            case Conceal():
                setup.conceal(ruling, scenario, side, command)
            case Ready():
                setup.ready(ruling, scenario, side, command)
            case Move():
                movement.move(ruling, scenario, side, command)
            case Turn():
                turning.turn(ruling, scenario, side, command)
            case ReturnFire():
                movement.return_fire(ruling, scenario, side, command)
            case Retreat():
                movement.retreat(ruling, scenario, side, command)
            case React():
                live.check(ruling, scenario, side, command)
            case Fire():
                fire.fire(ruling, scenario, side, command)
            case EndStep():
                _end_step(ruling, scenario, side)
            case EndGame():
                ruling.set_phase(Phase.OVER)
                ruling.tell_public({"text": say("The game is over.")})
            case _:
                raise AssertionError(command)
        facing.show_revealed(ruling)

    def close(self, ruling: Ruling[Any, Board], window: Window) -> None:
        scenario = ruling.state.scenario
        assert isinstance(scenario, AmbushFireScenario)
        movement.close(ruling, scenario, window)
        facing.show_revealed(ruling)

    def fold(self, board: Board, change: BoardChange) -> Board:
        return fold(board, change)

    def describe(self, state: GameState[Any, Board], observer: str, piece: Piece) -> PieceWords:
        return words.describe(state, observer, piece)

    def status(self, state: GameState[Any, Board], observer: str) -> list[str | Say]:
        return words.status(state, observer)

    def candidates(self, state: GameState[Any, Board], side: str) -> list[Facts]:
        from .candidates import candidates

        return candidates(state, side)

    def odds(self, state: GameState[Any, Board], side: str, command: Command) -> Check[Any] | None:
        return priced(state, side, command)

    def has_odds(self, command: str) -> bool:
        return command in PRICED

    def odds_labels(self, command: Command) -> Mapping[str, str]:
        return LABELS

    def map_view(self, state: GameState[Any, Board], observer: str) -> MapView | None:
        from .map import map_view

        return map_view(state, observer)

    def board_view(self, state: GameState[Any, Board], observer: str) -> dict[str, Any]:
        return {"turn": state.board.turn, "step": state.board.step.value}


def _end_step(ruling: Ruling[Any, Board], scenario: AmbushFireScenario, side: str) -> None:
    """The first side moves, then the other; then the fire phase, which both end; then the
    next turn, or the end of the game."""
    board = ruling.board
    ruling.change_board("done", side=side)
    if board.step is Step.MOVEMENT:
        others = [s for s in ruling.state.sides if s not in ruling.board.done]
        if others:
            ruling.change_board("moving", side=others[0])
            ruling.tell_public({"text": say("{side} move.", side=scenario.side_name(others[0]))})
        else:
            ruling.change_board("step", step=Step.FIRE.value)
            second = next(s for s in ruling.state.sides if s != scenario.first)
            ruling.change_board("moving", side=second)
            ruling.tell_public(
                {"text": say("The fire phase: {side} fire first.", side=scenario.side_name(second))}
            )
            # BMF-A17: the standing Ambush Fire and Close Combat orders first.
            opening.opening_fire(ruling, scenario)
        return
    if ruling.board.done < set(ruling.state.sides):
        ruling.change_board("moving", side=scenario.first)
        ruling.tell_public({"text": say("{side} fire.", side=scenario.side_name(scenario.first))})
        return
    if ruling.board.done >= set(ruling.state.sides):
        if board.turn >= scenario.turns:
            ruling.set_phase(Phase.OVER)
            ruling.tell_public({"text": say("The game is over.")})
            return
        ruling.change_board("turn", turn=board.turn + 1, moving=scenario.first)
        ruling.tell_public(
            {
                "text": say(
                    "Turn {turn}: {side} move first.",
                    turn=board.turn + 1,
                    side=scenario.side_name(scenario.first),
                )
            }
        )
