"""The numbers of ambush-fire's ground: the tolerance (:data:`EPS`), the rules' constants and
stable codes, table inches to metres, ranges, reveal circles and weapon facing."""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from ghillie.measure.tabletop import XY

EPS: Final = 1e-6  # metres: lengths this close count as equal (see the package's notes)
_ANGLE_EPS: Final = 1e-9  # degrees

# BMF-R08, A10: "The maximum range of Ambush Fire is 1250m" (inclusive). BMF-R10: "ATGMs
# firing in AMBUSH hit immediately, if range is less than 1250m" (strictly less).
AMBUSH_FIRE_RANGE: Final = 1250.0

# BMF-R13, R18, A11: the ambushers "may immediately retreat, up to 50m away from the enemy".
RETREAT_LIMIT: Final = 50.0

# BMF-A18: an infantry figure's weapon faces what is in its front 180°.
INFANTRY_ARC: Final = 180.0

# The running class of ground no area covers: smooth, open, dry (BMF-T01: a human, 100 m).
OPEN: Final = "open"

# BMF-R09, A06, A07 (``bmf.reveal_width_by_class`` on, the DEFAULT): the *width* (diameter)
# of the area Ambush Fire reveals, by the firer's class. "a 250m wide area centered on the
# firer, for infantry and a 1250m wide area centered on the firer for AT guns, and ATGM";
# by A07 any vehicle's or artillery gun's too. Infantry-carried weapons other than ATGMs
# (rifles, MG teams) are infantry.
REVEAL_WIDTH: Final[Mapping[str, float]] = MappingProxyType(
    {"infantry": 250.0, "at_gun": 1250.0, "atgm": 1250.0, "vehicle": 1250.0, "artillery": 1250.0}
)
# The two classes the text names and nothing else (the switch off): a vehicle's or a gun's
# reveal is then the ruleset's to decide, and :func:`reveal_radius` refuses to guess.
LISTED_REVEAL_WIDTH: Final[Mapping[str, float]] = MappingProxyType(
    {"infantry": 250.0, "at_gun": 1250.0, "atgm": 1250.0}
)

# Why a retreat or a dash falls short (stable codes for the ruleset's refusals and lines).
IMPASSABLE: Final = "impassable"  # the retreat's path enters impassable terrain
OFF_GROUND: Final = "off_ground"  # it leaves the battlefield
TOO_LONG: Final = "too_long"  # its path is longer than the limit (50 m)
NOT_AWAY: Final = "not_away"  # it does not end farther from the nearest enemy
BLOCKED: Final = "blocked"  # a dash runs into impassable terrain before the target
TOO_FAR: Final = "too_far"  # a dash runs out of reach before the target


# --- table mode: inches to metres (RULES-SPEC §2.6) -------------------------------------------


def _scale(metres_per_inch: float) -> float:
    if not (math.isfinite(metres_per_inch) and metres_per_inch > 0):
        raise ValueError(
            f"a ground scale is a positive number of metres per inch, not {metres_per_inch}"
        )
    return metres_per_inch


def inches_to_metres(inches: float, metres_per_inch: float) -> float:
    """A length measured at the table, in metres of ground.

    >>> inches_to_metres(50, 25)
    1250.0
    """
    if not (math.isfinite(inches) and inches >= 0):
        raise ValueError(f"a measured length is a non-negative number of inches, not {inches}")
    return float(inches) * _scale(metres_per_inch)


def metres_to_inches(metres: float, metres_per_inch: float) -> float:
    """A length of ground, in inches at the table (to tell players how far to measure)."""
    if not (math.isfinite(metres) and metres >= 0):
        raise ValueError(f"a length is a non-negative number of metres, not {metres}")
    return float(metres) / _scale(metres_per_inch)


def point_to_metres(point: XY, metres_per_inch: float) -> XY:
    """A point given in inches from the table's top-left corner, in metres of ground."""
    scale = _scale(metres_per_inch)
    return (point[0] * scale, point[1] * scale)


# --- ranges (BMF-R08, R10, A10) -----------------------------------------------------------


def distance(a: XY, b: XY) -> float:
    """Straight-line distance in metres."""
    return math.dist(a, b)


def checked_range(range_m: float) -> float:
    if not (math.isfinite(range_m) and range_m >= 0):
        raise ValueError(f"a range is a non-negative number of metres, not {range_m}")
    return range_m


def in_ambush_range(range_m: float) -> bool:
    """BMF-R08, A10: Ambush Fire reaches 1250 m, and exactly 1250 m is in range.

    >>> in_ambush_range(1250), in_ambush_range(1300)
    (True, False)
    """
    return checked_range(range_m) <= AMBUSH_FIRE_RANGE + EPS


def atgm_immediate(range_m: float) -> bool:
    """BMF-R10, A10: an ATGM's Ambush Fire arrives at once only at *less than* 1250 m; at
    exactly 1250 m (within :data:`EPS`) it flies as normal.

    >>> atgm_immediate(1000), atgm_immediate(1250)
    (True, False)
    """
    return checked_range(range_m) < AMBUSH_FIRE_RANGE - EPS


# --- reveal areas (BMF-R09, A06, A07, A08) ------------------------------------------------


def reveal_radius(
    unit_class: str, reveal_width_by_class: Mapping[str, float] = REVEAL_WIDTH
) -> float:
    """The radius of the circle an Ambush Fire by a firer of ``unit_class`` reveals: half
    the area's width (A06: "250m wide ... centered on the firer" is a circle 250 m across).
    ValueError for a class the table does not list.

    >>> reveal_radius("infantry"), reveal_radius("atgm"), reveal_radius("vehicle")
    (125.0, 625.0, 625.0)
    """
    width = reveal_width_by_class.get(str(unit_class))
    if width is None:
        known = ", ".join(sorted(reveal_width_by_class))
        raise ValueError(f"no reveal width for class {unit_class!r} (known: {known})")
    if not (math.isfinite(width) and width >= 0):
        raise ValueError(f"a reveal width is a non-negative number of metres, not {width}")
    return width / 2


def revealed(centre: XY, radius: float, positions: Mapping[str, XY]) -> set[str]:
    """The keys of ``positions`` inside the reveal circle, **edge included** (a unit exactly
    ``radius`` from the centre is revealed). A08: the caller passes every concealed unit of
    either side; the firer, at the centre, is among them if it is passed.
    """
    if not (math.isfinite(radius) and radius >= 0):
        raise ValueError(f"a radius is a non-negative number of metres, not {radius}")
    return {key for key, at in positions.items() if math.dist(centre, at) <= radius + EPS}


# --- weapon facing (BMF-R04, A18) ---------------------------------------------------------


def bearing(a: XY, b: XY) -> float:
    """The direction from ``a`` to ``b`` in degrees clockwise from up (toward the top edge,
    y down), in [0, 360). ValueError when they are the same point.

    >>> bearing((0, 0), (0, -1)), bearing((0, 0), (1, 0)), bearing((0, 0), (-1, 0))
    (0.0, 90.0, 270.0)
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 and dy == 0:
        raise ValueError("a point has no bearing from itself")
    return math.degrees(math.atan2(dx, -dy)) % 360.0


def faces(unit_position: XY, facing_degrees: float, arc_degrees: float, other_position: XY) -> bool:
    """BMF-A18: is ``other_position`` inside the weapon arc of a unit at ``unit_position``
    facing ``facing_degrees``? The arc is ``arc_degrees`` wide, centred on the facing
    (a vehicle: its turret's or weapon's arc, the turret's facing; infantry:
    :data:`INFANTRY_ARC`, its front 180°; 360 all round). Its edges are inside. ValueError
    when the two positions are the same point.
    """
    if not (math.isfinite(arc_degrees) and 0 <= arc_degrees <= 360):
        raise ValueError(f"an arc is 0 to 360 degrees wide, not {arc_degrees}")
    if not math.isfinite(facing_degrees):
        raise ValueError(f"a facing is a number of degrees, not {facing_degrees}")
    off = (bearing(unit_position, other_position) - facing_degrees + 180.0) % 360.0 - 180.0
    return abs(off) <= arc_degrees / 2 + _ANGLE_EPS
