"""suspicious-places in the log: the game told as a story, in sentences kept as data.

Every line a side is told is a :func:`~ghillie.words.say`: an English template, the facts it
names, and the RULES-SPEC statements it applies (a tooltip, never text). The pieces here
are the words the rules share: pieces named as the reader knows them, dice in the text's
own words (d8, к8), a range die with the steps that built it, and sentences strung one
after another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ghillie.dice.steps import Overflow, step_die
from ghillie.measure.tabletop import Cover
from ghillie.words import N_, Say, say

from .checks import zone
from .scenario import ZoneBoundary
from .words import die, name

__all__ = ["die", "inches", "name", "owner_roll", "range_die", "shown", "then"]


def inches(distance: float) -> float:
    """A measured distance as a player reads it (to a tenth of an inch: 30, 23.5; the
    reader's language writes the fraction)."""
    return round(float(distance), 1)


def then(*parts: Say | None) -> Say:
    """Sentences told one after another, as one line ("A. B. C.")."""
    told = [p for p in parts if p is not None]
    line = told[0]
    for part in told[1:]:
        line = say("{first} {then}", first=line, then=part)
    return line


STEPS = {
    Cover.SOFT: N_("+1 step for soft cover"),
    Cover.HARD: N_("+2 steps for hard cover"),
}
LONE_STEP = N_("+1 step for a lone figure")


def range_die(
    distance: float,
    zone_length: float,
    cover: Cover,
    *,
    lone: bool = False,
    sniper: bool = False,
    boundary: ZoneBoundary = ZoneBoundary.CEIL,
    overflow: Overflow = Overflow.D12_PLUS,
    rules: Sequence[str] = (),
) -> Say:
    """How a range die was built: its zone and the steps added (SW-R11, SW-R21, SW-R30),
    told to the side that measured the range."""
    z = zone(distance, zone_length, boundary)
    step = z + cover.steps + (1 if lone else 0)
    args: dict[str, Any] = {
        "die": die(step_die(step, overflow)),
        "range": inches(distance),
        "zone": z,
        "length": inches(zone_length),
        "base": die(step_die(z, overflow)),
    }
    steps = [say(STEPS[cover])] if cover in STEPS else []
    if lone:
        steps.append(say(LONE_STEP))
    if sniper and steps:
        return say(
            'Range die {die}: {range}" is zone {zone} ({length}" zones, doubled for a sniper), '
            "{base}, {steps}.",
            rules=rules,
            steps=steps,
            **args,
        )
    if sniper:
        return say(
            'Range die {die}: {range}" is zone {zone} ({length}" zones, doubled for a sniper), '
            "{base}.",
            rules=rules,
            **args,
        )
    if steps:
        return say(
            'Range die {die}: {range}" is zone {zone} ({length}" zones), {base}, {steps}.',
            rules=rules,
            steps=steps,
            **args,
        )
    return say(
        'Range die {die}: {range}" is zone {zone} ({length}" zones), {base}.', rules=rules, **args
    )


def shown(target: int | None) -> Say | None:
    """The range die's roll, for those the line tells it."""
    return None if target is None else say("The range die shows {target}.", target=target)


def owner_roll(range_die_: str, target: int) -> Say:
    """What the target's owner rolled in secret (ghillie rolled it for the owner)."""
    return say("Your range die {die} shows {target}.", die=die(range_die_), target=target)
