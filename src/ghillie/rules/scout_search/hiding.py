"""The scouts' commands: write the Scout's square, then a step a turn (or none). The
hunters are told the same line whatever the square, and whether the Scout stepped or
stayed."""

from __future__ import annotations

from ghillie.errors import Refusal
from ghillie.rules.scout_search.board import Board, Moved
from ghillie.rules.scout_search.commands import Hide, Move
from ghillie.rules.scout_search.grid import next_to
from ghillie.rules.scout_search.scenario import ScoutScenario
from ghillie.rules.scout_search.setup import the_scout
from ghillie.ruling import Ruling
from ghillie.state import SPECTATOR, GameState, Phase
from ghillie.words import say

Rules = Ruling[ScoutScenario, Board]
NOT_A_STEP = "not_a_step"


def hide(ruling: Rules, side: str, command: Hide) -> None:
    ruling.update(the_scout(ruling.state).id, secret={"square": command.square})
    ruling.set_phase(Phase.PLAY)
    own = say("You hid the Scout at {square}.", square=command.square)
    _tell(ruling, side, own, command.note, say("The scouts hid their Scout."))


def check_step(state: GameState[ScoutScenario, Board], command: Move) -> None:
    here = the_scout(state).secret["square"]
    if command.square != here and not next_to(here, command.square):
        raise Refusal(
            NOT_A_STEP,
            "The Scout moves one square along a row or a column, or stays where it is.",
            field="square",
        )


def move(ruling: Rules, side: str, command: Move) -> None:
    scout = the_scout(ruling.state)
    stays = command.square == scout.secret["square"]
    ruling.update(scout.id, secret={"square": command.square})
    ruling.change(Moved())
    own = (
        say("The Scout stays at {square}.", square=command.square)
        if stays
        else say("The Scout moved to {square}.", square=command.square)
    )
    _tell(ruling, side, own, command.note, say("The scouts moved."))


def _tell(ruling: Rules, side: str, own: object, note: str, others: object) -> None:
    """The scouts read their square and note; every other reader one fixed line."""
    ruling.tell(side, {"event": "scouts_moved", "text": own, "note": note or None})
    for reader in (*ruling.state.others(side), SPECTATOR):
        ruling.tell(reader, {"event": "scouts_moved", "text": others})
