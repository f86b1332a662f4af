"""ambush-fire as a ruleset: its data (commands, words, odds, switches, reaction windows)
and the hooks that send each command to the module of its rule."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from ghillie.dice.check import Check
from ghillie.events import Change
from ghillie.forms import Order
from ghillie.maps import MapView
from ghillie.ruleset import Command, Reaction, Rule, Ruleset, SecretWords
from ghillie.state import Facts, Phase, Piece, Window
from ghillie.words import N_, Say, say
from ghillie.words.piece import PieceWords

from . import facing, fire, live, movement, opening, setup, turning, words
from .board import MAX_ORDERS, Board, Rules, State, Step
from .changes import KINDS, Done, Moves, StepBegins, TurnBegins, fold
from .commands import Conceal, EndGame, EndStep, Fire, Move, React, Ready, Retreat, ReturnFire, Turn
from .odds import LABELS, ODDS, PRICED, priced
from .scenario import AmbushFireScenario

__all__ = ["MAX_ORDERS", "AmbushFire"]


def end_step(ruling: Rules, side: str, command: EndStep) -> None:
    """The first side moves, then the other; then the fire phase, which both end; then the
    next turn, or the end of the game."""
    scenario = ruling.scenario
    board = ruling.board
    ruling.change(Done(side))
    if board.step is Step.MOVEMENT:
        others = [s for s in ruling.state.sides if s not in ruling.board.done]
        if others:
            ruling.change(Moves(others[0]))
            ruling.tell_public({"text": say("{side} move.", side=scenario.side_name(others[0]))})
        else:
            ruling.change(StepBegins(Step.FIRE.value))
            second = next(s for s in ruling.state.sides if s != scenario.first)
            ruling.change(Moves(second))
            ruling.tell_public(
                {"text": say("The fire phase: {side} fire first.", side=scenario.side_name(second))}
            )
            # BMF-A17: the standing Ambush Fire and Close Combat orders first.
            opening.opening_fire(ruling)
        return
    if ruling.board.done < set(ruling.state.sides):
        ruling.change(Moves(scenario.first))
        ruling.tell_public({"text": say("{side} fire.", side=scenario.side_name(scenario.first))})
        return
    if ruling.board.done >= set(ruling.state.sides):
        if board.turn >= scenario.turns:
            end_game(ruling, side, EndGame())
            return
        ruling.change(TurnBegins(board.turn + 1, scenario.first))
        ruling.tell_public(
            {
                "text": say(
                    "Turn {turn}: {side} move first.",
                    turn=board.turn + 1,
                    side=scenario.side_name(scenario.first),
                )
            }
        )


def end_game(ruling: Rules, side: str, command: EndGame) -> None:
    ruling.set_phase(Phase.OVER)
    ruling.tell_public({"text": say("The game is over.")})


class AmbushFire(Ruleset[AmbushFireScenario, Board]):
    id = "ambush-fire"
    map_reads = ("pieces", "knowledge")  # pieces and what is known of them, no board
    title = "Challenge Fire, Ambush Fire and Ambush Close Combat"
    summary = "Concealed units fire from ambush, by standing order or when asked live."
    map_modes = ("table", "map")
    scenario_model = AmbushFireScenario
    # In the order the commands were always listed: the orders each view offers follow it.
    rules: ClassVar[Mapping[type[Command], Rule]] = {
        Conceal: setup.conceal,
        Ready: setup.ready,
        Move: movement.move,
        Turn: turning.turn,
        ReturnFire: movement.return_fire,
        Retreat: movement.retreat,
        React: live.check,
        Fire: fire.fire,
        EndStep: end_step,
        EndGame: end_game,
    }
    board_changes = KINDS
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

    def setup(self, ruling: Rules, scenario: AmbushFireScenario) -> None:
        setup.create(ruling)

    def secret_facts(self, scenario: AmbushFireScenario) -> int:
        # A concealed unit's place, its note, its running table, the route it is on, whether
        # that runs between concealed positions (BMF-R01), its walk in legs, the way it
        # walked still untold, what it did while concealed and which way it and its turret
        # face; a standing order's unit, reaction, trigger, words, chance, note and missile
        # in flight — and one more order, a reaction given live, written as it fires.
        units = Counter(u.side for u in scenario.units)
        return 10 * max(units.values(), default=0) + 7 * (MAX_ORDERS + 1)

    def may_act(self, state: State, side: str, command: type[Command]) -> bool:
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

    def resolve(self, ruling: Rules, command: Command) -> None:
        super().resolve(ruling, command)
        facing.show_revealed(ruling)  # after any rule that revealed a unit, as after a window

    def close(self, ruling: Rules, window: Window) -> None:
        movement.close(ruling, window)
        facing.show_revealed(ruling)

    def fold(self, board: Board, change: Change) -> Board:
        return fold(board, change)

    def describe(self, state: State, observer: str, piece: Piece) -> PieceWords:
        return words.describe(state, observer, piece)

    def status(self, state: State, observer: str) -> list[str | Say]:
        return words.status(state, observer)

    def candidates(self, state: State, side: str) -> list[Facts]:
        from .candidates import candidates

        return candidates(state, side)

    def odds(self, state: State, side: str, command: Command) -> Check[Any] | None:
        return priced(state, side, command)

    def has_odds(self, command: str) -> bool:
        return command in PRICED

    def odds_labels(self, command: Command) -> Mapping[str, str]:
        return LABELS

    def map_view(self, state: State, observer: str) -> MapView | None:
        from .map import map_view

        return map_view(state, observer)

    def board_view(self, state: State, observer: str) -> dict[str, Any]:
        return {"turn": state.board.turn, "step": state.board.step.value}
