"""Finding the piece a command names, the same way for every ruleset.

A side may name a piece by its id, or by a public handle (a unit's scenario ``key``, a
marker's ``label``). A piece the side cannot see is answered exactly like a piece that does
not exist: the refusal must not tell a side that something is hidden there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ghillie.errors import NOT_YOURS, UNKNOWN_PIECE, Refusal
from ghillie.state import GameState, Piece

WRONG_KIND = "wrong_kind"
OWN_PIECE = "own_piece"
HANDLES = ("key", "label")


def visible(
    state: GameState[Any, Any], side: str, ref: str, kinds: Iterable[str] | None = None
) -> Piece:
    piece = state.pieces.get(ref)
    if piece is None:
        piece = next(
            (
                p
                for p in state.pieces.values()
                if any(p.public.get(h) == ref for h in HANDLES) and state.can_see(side, p.id)
            ),
            None,
        )
    if piece is None or not state.can_see(side, piece.id):
        raise Refusal(UNKNOWN_PIECE, "There is no such piece that you can see.")
    if kinds is not None and piece.kind not in set(kinds):
        raise Refusal(WRONG_KIND, "That piece cannot be used this way.")
    return piece


def own(
    state: GameState[Any, Any], side: str, ref: str, kinds: Iterable[str] | None = None
) -> Piece:
    piece = visible(state, side, ref, kinds)
    if piece.owner != side:
        raise Refusal(NOT_YOURS, "That piece is not yours to command.")
    return piece


def enemy(
    state: GameState[Any, Any], side: str, ref: str, kinds: Iterable[str] | None = None
) -> Piece:
    piece = visible(state, side, ref, kinds)
    if piece.owner == side:
        raise Refusal(OWN_PIECE, "That is one of your own pieces.")
    return piece
