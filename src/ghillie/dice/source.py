"""Where rolls come from. Rules never call ``random``; they draw from an injected source.

- :class:`SeededDice` for tests and demos (the same seed gives the same game);
- :class:`ScriptedDice` replays fixed values (the rule texts' worked examples);
- :class:`RandomDice` for play, from the operating system's generator.

Physical rolls made at the table for open checks are entered with the command instead
(see :meth:`ghillie.ruling.Ruling.roll`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from typing import Protocol

WORD = 2**64


class DiceSource(Protocol):
    def roll(self, faces: int) -> int:
        """One fair roll of a die with ``faces`` faces: 1..faces."""
        ...


class RandomDice:
    """Rolls from the operating system's cryptographic generator."""

    def roll(self, faces: int) -> int:
        return 1 + secrets.randbelow(faces)


class SeededDice:
    """Reproducible rolls for tests and scripted demos.

    Each roll takes one 64-bit word from the seeded generator and maps it to the die with
    rejection sampling (no modulo bias). Unlike ``randint``, every roll uses the same amount
    of the stream whatever the die, so two games from one seed stay in step even where a
    hidden value makes them roll different dice (the two-worlds tests rely on this).
    """

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def roll(self, faces: int) -> int:
        limit = WORD - WORD % faces
        while True:
            word = self._random.getrandbits(64)
            if word < limit:
                return 1 + word % faces


class ScriptedDice:
    """Rolls fixed in advance, in order: ``ScriptedDice([6, 1, 7])``.

    Raises ``LookupError`` when the script runs out and ``ValueError`` when a scripted value
    cannot show on the die asked for, so a test never passes on a roll it did not script.
    """

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self._next = 0

    def roll(self, faces: int) -> int:
        if self._next >= len(self._values):
            raise LookupError("scripted dice ran out")
        value = self._values[self._next]
        if not 1 <= value <= faces:
            raise ValueError(f"scripted {value} cannot show on a d{faces}")
        self._next += 1
        return value

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next
