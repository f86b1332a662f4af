"""The ambush-fire board: turns and phases, who moves, and each unit's history.

The history is what the eligibility rules read (BMF-R02, R07, R14, A20): for every unit,
the turns in which it moved, turned, fired, turned its turret, took Challenge Fire or fought a
close combat. ghillie writes it from the commands themselves; no side declares it.
Everything here is public: a concealed unit's history is on its own piece, in secret.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ghillie.ruling import Ruling
from ghillie.state import GameState

from .scenario import AmbushFireScenario

UNIT = "unit"
ORDER = "order"  # a standing order: its own piece, its owner's secret
MAX_ORDERS = 8  # standing orders a side may hold at once (public: every move is worked out
# with this many of each enemy's, whatever they hold: ``triggers``)


class Step(StrEnum):
    MOVEMENT = "movement"
    FIRE = "fire"


class Did(StrEnum):
    """What a unit did in a turn (its history)."""

    MOVED = "moved"
    FIRED = "fired"
    TURNED = "turned"  # its turret
    # Turned its hull, or a figure its front (``facing``): a move for the eligibility
    # rules (BMF-R02, R07, R14), kept apart from MOVED so that the unit may still move.
    FACED = "faced"
    CHALLENGED = "challenged"  # took Challenge Fire (BMF-R05, R07)
    CLOSE_COMBAT = "close_combat"
    RETURNED_FIRE = "returned_fire"  # fired back at a challenger or an ambusher (BMF-A12)


@dataclass(frozen=True)
class Board:
    deployed: frozenset[str] = frozenset()
    turn: int = 0  # from 1
    step: Step = Step.MOVEMENT
    moving: str | None = None  # the side whose movement it is
    done: frozenset[str] = frozenset()  # sides that ended the current step
    orders: Mapping[str, int] = field(default_factory=dict)  # standing orders given, by side
    # A move stopped by a standing order that fired, while the target's side answers: the
    # movers' paths in metres (public: they are in view now), how far they came, the shot.
    pending: Mapping[str, Any] | None = None
    # BMF S2: where concealed units were seen crossing open ground this turn (public: what
    # kind of unit, and the two points), for the map; cleared when a turn begins.
    crossings: tuple[Mapping[str, Any], ...] = ()
    # A move walked in legs while a live side is asked after each (``live.py``): the moving
    # side and how many of the move's prompts have been opened (public: every prompt is).
    # The leg length and how far the movers came are on the movers, in secret.
    walk: Mapping[str, Any] | None = None


def did(history: Mapping[str, list[str]], turn: int, *what: Did) -> bool:
    """Did the unit do any of ``what`` in ``turn``? (``history``: turn → what it did.)"""
    done = history.get(str(turn), [])
    return any(w.value in done for w in what)


# The game's state and a ruling on it, typed with this ruleset's scenario and board.
State = GameState[AmbushFireScenario, Board]
Rules = Ruling[AmbushFireScenario, Board]
