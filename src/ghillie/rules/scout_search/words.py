"""Scout search in its players' words: the orders, a piece described, where the game stands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghillie.forms import Ask, Choice, Order
from ghillie.rules.scout_search.board import Board
from ghillie.rules.scout_search.scenario import ScoutScenario
from ghillie.rules.scout_search.setup import HUNTER, the_hunter, the_scout
from ghillie.state import REFEREE, GameState, Phase, Piece
from ghillie.words import N_, Say, say
from ghillie.words.piece import PieceWords

State = GameState[ScoutScenario, Board]
NOTE = Ask(N_("Note"), N_("For your own side's log: nobody else reads it."))


def _stands(state: GameState[Any, Any], side: str) -> Mapping[str, Any]:
    """The move form starts from where the Scout stands: sent as it is, it stays put."""
    return {"square": the_scout(state).secret.get("square")}


def _hunters(state: GameState[Any, Any], side: str) -> list[Choice]:
    return [Choice(p.id, N_("the Hunter")) for p in state.owned(side, HUNTER)]


def _hunter(state: GameState[Any, Any], side: str) -> Mapping[str, Any]:
    return {"hunter": the_hunter(state).id}


ORDERS: dict[str, Order] = {
    "hide": Order(
        N_("Hide the Scout"),
        N_("Choose the square the Scout starts on. The hunters are told only that you hid it."),
        fields={
            "square": Ask(N_("Square"), N_("Tap a square of the grid."), where="square"),
            "note": NOTE,
        },
    ),
    "move": Order(
        N_("Move the Scout"),
        N_(
            "One square along a row or a column, or the square it is on to stay put. The "
            "hunters are told only that you moved."
        ),
        fields={
            "square": Ask(N_("To"), N_("A square next to the Scout, or its own."), where="square"),
            "note": NOTE,
        },
        defaults=_stands,
    ),
    "search": Order(
        N_("Search a square"),
        N_(
            "If the Scout is there, it is found. A search next to it may hear it: a die "
            "is rolled in secret on every search."
        ),
        fields={
            "hunter": Ask(N_("Hunter"), N_("The piece that searches."), pieces=_hunters),
            "square": Ask(N_("Square"), N_("Tap a square of the grid."), where="square"),
        },
        defaults=_hunter,
    ),
    "end_game": Order(
        N_("End the game"), confirm=N_("End the game now? This cannot be taken back.")
    ),
}


def where(state: State, observer: str, piece: Piece) -> str | None:
    """A piece's square as ``observer`` knows it: the Scout's secret one for its own side
    and the referee (once hidden), its public one for everyone once it is found; the
    Hunter's, the square it searched last, for everyone."""
    secret = piece.secret.get("square") if observer in (piece.owner, REFEREE) else None
    found = secret or piece.public.get("square")
    return str(found) if found else None


def describe(state: State, observer: str, piece: Piece) -> PieceWords:
    square = where(state, observer, piece)
    about: list[str | Say] = []
    if piece.kind == HUNTER:
        about = [say("searched {square} last", square=square)] if square else []
        return PieceWords(N_("the Hunter"), about)
    about = [say("at {square}", square=square)] if square else [N_("not yet hidden")]
    return PieceWords(N_("the Scout"), about)


def status(state: State, observer: str) -> list[str | Say]:
    switches = state.scenario.switches
    board = state.board
    searched = len(board.searched)
    if state.phase is Phase.SETUP:
        return [N_("Set-up: the scouts hide their Scout on the grid.")]
    if state.phase is Phase.OVER:
        if board.winner == state.scenario.hunters:
            return [N_("The game is over: the hunters found the Scout.")]
        if board.winner == state.scenario.scouts:
            return [N_("The game is over: the Scout was never found.")]
        return [N_("The game is over.")]
    turn = N_("The hunters search next.") if board.hunters_next else N_("The scouts move next.")
    return [
        say("{n} of {of} searches made.", n=searched, of=switches.searches),
        turn,
    ]
