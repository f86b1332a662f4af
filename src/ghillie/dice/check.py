"""A check: named dice and one function that judges them.

The odds a player is shown and the roll ghillie makes come from the same :class:`Check`, so
they cannot drift apart. Odds are exact (``Fraction``), computed by icepool by enumerating
every joint outcome of the dice — never by sampling, and never by combining dice as if a
die rolled once were rolled twice (LIBRARIES.md, pitfall 1).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

import icepool

from ghillie.dice.steps import Die

Outcome = TypeVar("Outcome", bound=Hashable)

# judge(values_by_label, *args) -> outcome; module-level functions keep checks hashable,
# which lets the odds be cached (an icepool query costs about a millisecond).
Judge = Callable[..., Outcome]


@dataclass(frozen=True)
class Check(Generic[Outcome]):
    """Dice rolled together and judged together.

    >>> from ghillie.rules.suspicious_places.checks import observation
    >>> check = observation(Die(10), Die(8), Die(4))
    >>> [str(p) for p in check.odds().values()]
    ['99/160', '21/80', '19/160']
    """

    dice: tuple[tuple[str, Die], ...]
    judge: Judge[Outcome]
    outcomes: tuple[Outcome, ...]  # every possible outcome, in the order players read them
    args: tuple[Any, ...] = ()

    def judge_values(self, values: Mapping[str, int]) -> Outcome:
        """The outcome for the values shown (bonuses included), by label."""
        return self.judge(values, *self.args)

    def roll(self, draw: Callable[[str, Die], int]) -> tuple[dict[str, int], Outcome]:
        """Draw every die in declared order, then judge them."""
        values = {label: draw(label, die) for label, die in self.dice}
        return values, self.judge_values(values)

    def odds(self) -> dict[Outcome, Fraction]:
        """Exact probability of every outcome, in the declared order (zeros kept)."""
        return odds(self.dice, self.judge, self.outcomes, self.args)


@functools.lru_cache(maxsize=4096)
def odds(
    dice: tuple[tuple[str, Die], ...],
    judge: Judge[Outcome],
    outcomes: tuple[Outcome, ...],
    args: tuple[Any, ...] = (),
) -> dict[Outcome, Fraction]:
    labels = [label for label, _ in dice]

    def judged(*values: int) -> Outcome:
        return judge(dict(zip(labels, values, strict=True)), *args)

    joint = icepool.map(judged, *(icepool.d(die.faces) + die.plus for _, die in dice))
    # probability() returns Fraction(0) for an outcome that cannot happen (pitfall 3).
    result = {outcome: Fraction(joint.probability(outcome)) for outcome in outcomes}
    if sum(result.values()) != 1:
        raise ValueError(f"{judge.__name__} can give an outcome not among {outcomes}")
    return result


def percent(p: Fraction, places: int = 2) -> str:
    """The display edge: the only place a probability becomes a decimal."""
    return f"{float(p) * 100:.{places}f}%"
