"""The scout-search commands: the scouts hide and move the Scout, the hunters search."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from ghillie.bounds import TEXT
from ghillie.rules.scout_search.grid import SQUARE
from ghillie.ruleset import Command
from ghillie.state import Phase

Square = Annotated[str, Field(pattern=SQUARE, max_length=2)]
# A private note for the side's own log: free text, so the contract tests plant canaries in it.
Note = Annotated[str, Field(max_length=TEXT)]


class Hide(Command):
    """The scouts write down the Scout's square: the game's one set-up command."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP})
    secret_fields: ClassVar[frozenset[str]] = frozenset({"square", "note"})
    type: Literal["hide"] = "hide"
    square: Square
    note: Note = ""


class Move(Command):
    """One step along a row or column, or the Scout's own square to stay: both read the
    same to the hunters."""

    secret_fields: ClassVar[frozenset[str]] = frozenset({"square", "note"})
    type: Literal["move"] = "move"
    square: Square
    note: Note = ""


class Search(Command):
    type: Literal["search"] = "search"
    hunter: str = Field(max_length=64)  # the piece that searches, by id or name
    square: Square


class EndGame(Command):
    anytime: ClassVar[bool] = True
    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP, Phase.PLAY})
    type: Literal["end_game"] = "end_game"
