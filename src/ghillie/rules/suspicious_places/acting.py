"""Who may give which command now: in setup, the side whose markers, hiding or snipers are
still to come; in play, the active side, activating a unit or acting with it (SW-R10, R18),
and either side for the bookkeeping the players keep at any time."""

from __future__ import annotations

from ghillie.ruleset import Command, command_name
from ghillie.state import Phase

from .board import MARKER, UNIT, State
from .commands import (
    ACTIONS,
    BOOKKEEPING,
    Activate,
    EndActivation,
    Hide,
    Pass,
    PlaceMarkers,
    PlaceSniper,
    Ready,
)
from .setup import unplaced_sniper


def may_act(state: State, side: str, command: type[Command]) -> bool:
    board = state.board
    scenario = state.scenario
    if state.phase is Phase.SETUP:
        if side in board.ready:
            return False
        if command is PlaceMarkers:
            # Unpooled (SW-A04), all of a side's markers come in one order (setup.py).
            return board.pool.get(side, 0) > 0 and (
                scenario.switches.pooled_markers or not state.owned(side, MARKER)
            )
        if command is Hide:
            return (
                side == scenario.camouflage_side()
                and side in board.pool
                and side not in board.hidden
            )
        if command is PlaceSniper:
            return any(unplaced_sniper(state, u) for u in state.owned(side, UNIT))
        return command is Ready
    name = command_name(command)
    if name in BOOKKEEPING:
        return True
    if side != board.active:
        return False
    if command in (Activate, Pass):
        return board.activation is None
    return board.activation is not None and (name in ACTIONS or command is EndActivation)
