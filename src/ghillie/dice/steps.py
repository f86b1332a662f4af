"""Step dice: d4 → d6 → d8 → d10 → d12, and what comes after d12.

Many skirmish games grade quality, range and cover as steps on one chain of dice. Step 1 is
a d4; every further step is the next die up. What follows d12 is not given by the text of
`suspicious-places` (RULES-SPEC SW-A01), so it is a switch: ``Overflow``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Literal, get_args

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

_DIE = re.compile(r"^[dDкК](\d+)(?:\s*\+\s*(\d+))?$")

# RULES-SPEC §3.2: the chain given or implied by the text.
CHAIN = (4, 6, 8, 10, 12)

# The dice a player gives (a quality, a weapon, a leadership die): the chain's five dice.
# A die past d12 (d12+1, ...) is only ever a range die ghillie works out, never one entered.
StepDieName = Literal["d4", "d6", "d8", "d10", "d12"]
STEP_DICE: tuple[str, ...] = get_args(StepDieName)
assert tuple(f"d{faces}" for faces in CHAIN) == STEP_DICE
NOT_A_DIE = "not_a_die"  # the pydantic error type of a die the game does not have


def in_words(names: tuple[str, ...]) -> str:
    """``d4, d6, d8, d10 or d12``.

    >>> in_words(("d4", "d6")), in_words(("d8",))
    ('d4 or d6', 'd8')
    """
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def not_a_die(value: Any, dice: tuple[str, ...] = STEP_DICE, what: str = "a die") -> Exception:
    """The error for a die the game does not have, listing those it has.

    ``ctx["dice"]`` lists them without the input, for answers that never echo it.
    """
    shown = value if isinstance(value, str) else repr(value)
    return PydanticCustomError(
        NOT_A_DIE,
        "{value} is not {what} in this game: use {dice}",
        {"value": shown, "what": what, "dice": in_words(dice)},
    )


def game_die(value: Any) -> str:
    """A step die as a player may write it (``d8``, ``D8``, the Russian ``к8``), as ``d8``;
    anything else is refused with the dice that exist.

    >>> game_die("к8"), game_die(" D12 ")
    ('d8', 'd12')
    >>> try:
    ...     game_die("d7")
    ... except ValueError as refused:
    ...     print(refused)
    d7 is not a die in this game: use d4, d6, d8, d10 or d12
    """
    if isinstance(value, str):
        text = value.strip().lower().replace("к", "d")
        if text in STEP_DICE:
            return text
    raise not_a_die(value)


# A field typed ``StepDie`` holds one of the five dice: scenarios, commands and odds all
# refuse a d7 with the same words.
StepDie = Annotated[StepDieName, BeforeValidator(game_die)]


class Overflow(StrEnum):
    """RULES-SPEC SW-A01: the die after d12."""

    D12_PLUS = "d12_plus"  # DEFAULT: d12+1, d12+2, ... (+1 mean per step, as on the chain)
    D20_THEN_PLUS = "d20_then_plus"  # the next physical die, then d20+1, ...
    CAP_D12 = "cap_d12"  # nothing beyond d12


@dataclass(frozen=True, order=True)
class Die:
    """One die, possibly with a fixed bonus: ``Die(12, 1)`` is d12+1.

    >>> Die.parse("d12+1")
    Die.parse('d12+1')
    >>> str(Die(8))
    'd8'
    """

    faces: int
    plus: int = 0

    def __post_init__(self) -> None:
        if self.faces < 2 or self.plus < 0:
            raise ValueError(f"not a die: d{self.faces}+{self.plus}")

    @classmethod
    def parse(cls, text: str) -> Die:
        """Read ``d8``, ``D10``, ``d12+2`` (or the Russian ``к8``)."""
        match = _DIE.match(text.strip())
        if not match:
            raise ValueError(f"not a die: {text!r}")
        return cls(int(match.group(1)), int(match.group(2) or 0))

    def __str__(self) -> str:
        return f"d{self.faces}" + (f"+{self.plus}" if self.plus else "")

    def __repr__(self) -> str:
        return f"Die.parse('{self}')"

    @property
    def lowest(self) -> int:
        return 1 + self.plus

    @property
    def highest(self) -> int:
        return self.faces + self.plus


def step_die(step: int, overflow: Overflow = Overflow.D12_PLUS) -> Die:
    """The die at ``step`` on the chain (1 = d4). Steps below 1 count as step 1.

    >>> [str(step_die(s)) for s in (1, 3, 5, 7)]
    ['d4', 'd8', 'd12', 'd12+2']
    >>> str(step_die(7, Overflow.D20_THEN_PLUS)), str(step_die(7, Overflow.CAP_D12))
    ('d20+1', 'd12')
    """
    step = max(step, 1)
    if step <= len(CHAIN):
        return Die(CHAIN[step - 1])
    beyond = step - len(CHAIN)
    if overflow is Overflow.D12_PLUS:
        return Die(12, beyond)
    if overflow is Overflow.D20_THEN_PLUS:
        return Die(20, beyond - 1)
    return Die(12)


def step_of(die: Die, overflow: Overflow = Overflow.D12_PLUS) -> int:
    """The step a die stands on: the inverse of :func:`step_die`.

    >>> step_of(Die(8)), step_of(Die(12, 2))
    (3, 7)
    """
    if die.plus == 0 and die.faces in CHAIN:
        return CHAIN.index(die.faces) + 1
    if overflow is Overflow.D12_PLUS and die.faces == 12:
        return len(CHAIN) + die.plus
    if overflow is Overflow.D20_THEN_PLUS and die.faces == 20:
        return len(CHAIN) + 1 + die.plus
    raise ValueError(f"{die} is not on the step chain")
