"""The pure fold: state' = fold(state, event). Replay is this, applied to the whole log."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ghillie.events import (
    Answer,
    BoardChange,
    CloseWindow,
    Effect,
    Event,
    ExtendWindow,
    Know,
    Open,
    OpenWindow,
    Place,
    Remove,
    SetPhase,
    Update,
)
from ghillie.state import GameState, Known, Level, Piece, Window


def fold_effect(state: GameState[Any, Any], effect: Effect) -> GameState[Any, Any]:
    match effect:
        case Place(piece):
            return replace(state, pieces={**state.pieces, piece.id: piece})
        case Update(id, public, secret, unset):
            old = state.pieces[id]
            piece = Piece(
                old.id,
                old.owner,
                old.kind,
                {k: v for k, v in {**old.public, **public}.items() if k not in unset},
                {k: v for k, v in {**old.secret, **secret}.items() if k not in unset},
            )
            return replace(state, pieces={**state.pieces, id: piece})
        case Remove(id):
            pieces = dict(state.pieces)
            del pieces[id]
            # Knowledge of a piece that no longer exists goes with it.
            knowledge = {
                side: {pid: k for pid, k in known.items() if pid != id}
                for side, known in state.knowledge.items()
            }
            return replace(state, pieces=pieces, knowledge=knowledge)
        case Know(side, id, level, facts):
            known = dict(state.knowledge.get(side, {}))
            if level is Level.UNKNOWN:
                known.pop(id, None)
            else:
                known[id] = Known(level, facts)
            return replace(state, knowledge={**state.knowledge, side: known})
        case SetPhase(phase):
            return replace(state, phase=phase)
        case BoardChange():
            return replace(state, board=state.ruleset.fold_recorded(state.board, effect))
        case Open():
            return state
        case OpenWindow() | ExtendWindow() | Answer() | CloseWindow():
            return _fold_window(state, effect)


def _fold_window(
    state: GameState[Any, Any], effect: OpenWindow | ExtendWindow | Answer | CloseWindow
) -> GameState[Any, Any]:
    """The reaction window's effects (the engine's, never a ruleset's)."""
    match effect:
        case OpenWindow(name, by, asks, about, limit, ends):
            if state.window is not None:
                raise ValueError("a reaction window is already open")
            # state.seq is still the event before: the one being folded opens the window.
            opened = Window(
                name, by, asks, dict(about), opened=state.seq + 1, limit=limit, ends=ends
            )
            return replace(state, window=opened)
        case ExtendWindow(ends):
            window = state.window
            if window is None or window.ends is None:
                raise ValueError("no timed window to extend")
            return replace(state, window=replace(window, ends=ends))
        case Answer(side, answer):
            window = state.window
            if window is None or window.awaiting != side:
                raise ValueError(f"no window awaits {side}'s answer")
            answers = {**window.answers, side: dict(answer)}
            return replace(state, window=replace(window, answers=answers))
        case CloseWindow():
            if state.window is None:
                raise ValueError("no window to close")
            return replace(state, window=None)


def fold(state: GameState[Any, Any], event: Event) -> GameState[Any, Any]:
    for effect in event.effects:
        state = fold_effect(state, effect)
    return replace(state, seq=event.seq)
