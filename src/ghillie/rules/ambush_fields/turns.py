"""The turn skeleton in play: who may act when, a side done with a phase and what the
phase's end sets off, and ending the game (board.py folds the skeleton itself)."""

from __future__ import annotations

from ghillie.ruleset import Command
from ghillie.state import SPECTATOR, Phase
from ghillie.words import say

from .board import Done, EndAsked, Rules, State, Step
from .combat import segment_10
from .commands import (
    COMBAT_COMMANDS,
    MOVEMENT_COMMANDS,
    Deploy,
    DropField,
    EndGame,
    EndPhase,
    Hide,
    Ready,
)
from .movement import carry_out_plots, crossings, detect, invade, settle
from .scenario import EnterTrigger
from .story import phase


def may_act(state: State, side: str, command: type[Command]) -> bool:
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


def end_phase(ruling: Rules, side: str, command: EndPhase) -> None:
    scenario = ruling.scenario
    step = ruling.board.step
    ruling.change(Done(side))
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
        crossed = crossings(ruling.state) if immediate else []
        carry_out_plots(ruling)
        settle(ruling)
        for field_id in crossed:
            invade(ruling, field_id)
        detect(ruling)
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


def end_game(ruling: Rules, side: str, command: EndGame) -> None:
    """Either side may end the game in play. Before play begins it ends only when every
    side has asked: the record, published when the game is over, holds every secret, and a
    side must not see the other's hidden deployment just by ending the game at once."""
    scenario = ruling.scenario
    waiting = [s for s in ruling.state.sides if s != side and s not in ruling.board.ending]
    if ruling.state.phase is Phase.SETUP and waiting:
        ruling.change(EndAsked(side))
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
