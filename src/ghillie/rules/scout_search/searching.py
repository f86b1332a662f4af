"""The hunters' search: one square a turn. The Scout there is found, and its square opened
to the hunters; anywhere else the square is empty, and a square next to the Scout may hear
it. Every search rolls the die and tells each side a line of the same shape, heard or not."""

from __future__ import annotations

from ghillie import lookup
from ghillie.rules.scout_search.board import Board, Searched, Won
from ghillie.rules.scout_search.commands import Search
from ghillie.rules.scout_search.grid import next_to
from ghillie.rules.scout_search.hearing import HEARD, hearing
from ghillie.rules.scout_search.scenario import ScoutScenario
from ghillie.rules.scout_search.setup import HUNTER, the_hunter, the_scout
from ghillie.ruling import Ruling
from ghillie.state import SPECTATOR, GameState, Level, Phase
from ghillie.words import say

Rules = Ruling[ScoutScenario, Board]


def check_hunter(state: GameState[ScoutScenario, Board], side: str, command: Search) -> None:
    """The piece named is the side's own Hunter; an unseen piece reads as no piece."""
    lookup.own(state, side, command.hunter, kinds=(HUNTER,))


def search(ruling: Rules, side: str, command: Search) -> None:
    scenario = ruling.scenario
    scout = the_scout(ruling.state)
    hiding = scout.secret["square"]
    check = hearing(scenario.switches.hear_on)
    _, heard = check.roll(lambda label, die: ruling.roll(label, die, secret=True))
    heard_it = command.square != hiding and heard == HEARD and next_to(hiding, command.square)
    ruling.change(Searched(side, command.square, heard_it))
    ruling.update(the_hunter(ruling.state).id, public={"square": command.square})
    if command.square == hiding:
        _found(ruling, side, scout.id, hiding)
        return
    ruling.tell(
        side,
        {
            "event": "searched",
            "square": command.square,
            "heard": heard_it,
            "text": say("{square} is empty. You hear something nearby.", square=command.square)
            if heard_it
            else say("{square} is empty. You hear nothing.", square=command.square),
        },
    )
    for reader in (*ruling.state.others(side), SPECTATOR):
        ruling.tell(
            reader,
            {
                "event": "searched",
                "square": command.square,
                "text": say("The hunters searched {square}: empty.", square=command.square),
            },
        )
    if len(ruling.board.searched) >= scenario.switches.searches:
        ruling.change(Won(scenario.scouts))
        ruling.set_phase(Phase.OVER)
        ruling.tell_public(
            {"event": "won", "text": say("The Scout was never found: the scouts win.")}
        )


def _found(ruling: Rules, side: str, scout: str, square: str) -> None:
    ruling.update(scout, public={"square": square})
    ruling.reveal(scout, side, Level.IDENTIFIED)
    ruling.open(scout, side, "square")
    ruling.change(Won(side))
    ruling.set_phase(Phase.OVER)
    ruling.tell_public(
        {
            "event": "found",
            "square": square,
            "text": say("The hunters found the Scout at {square}.", square=square),
        }
    )
