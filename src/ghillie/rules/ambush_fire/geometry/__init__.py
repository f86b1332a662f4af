"""The ground of ambush-fire, in metres: terrain, ranges, reveal areas, challenge zones,
exposure between cover, retreats, close-combat dashes and weapon facing.

Pure functions over shapely and plain numbers; no game state. The ruleset decides who
is where, what each side may see and whether a rule applies; this package only measures.

Conventions:

* **Metres.** Every length is ground scale, in metres (RULES-SPEC §2.1). At a real table
  players measure in inches and ghillie converts with the scenario's ground scale
  (:func:`inches_to_metres`, §2.6).
* **Coordinates** are ``(x, y)``: x across from the left edge, y *down* from the top edge,
  as ghillie's maps draw them.
* **Angles** are degrees clockwise from "up" (toward the top edge): 0° points to the top
  edge, 90° to the right edge, 180° to the bottom edge, 270° to the left edge.
* **Paths** are sequences of waypoints, the first where the unit starts; a path of one
  point goes nowhere. Distances along a path are metres from its first point.
* **Edges are inclusive** unless a rule says "less than": a unit exactly on the edge of a
  reveal circle is revealed, a point on the edge of a wood is in the wood, a target at
  exactly the maximum range is in range. Two lengths within :data:`EPS` (a micrometre) of
  each other count as equal, so that a sum of float segments does not move a unit across
  a limit.
* **Impassable** means the *interior* of an impassable area: a path may run along a
  marsh's edge or stop on it, but not enter it.

Its modules, each importing only those before it: :mod:`.measures` (the tolerance, the
constants and codes, inches, ranges, reveal circles, facing), :mod:`.paths`,
:mod:`.capsules` (where path segments first meet capsules, all at once: the standing
orders' triggers), :mod:`.ground` (the terrain), :mod:`.zones` (challenge zones and
crossings) and :mod:`.moves` (retreat and dash).
"""

from __future__ import annotations

from ghillie.measure.tabletop import XY

from .ground import Area, Cut, Ground, Stretch, TooIntricate
from .measures import (
    AMBUSH_FIRE_RANGE,
    BLOCKED,
    EPS,
    IMPASSABLE,
    INFANTRY_ARC,
    LISTED_REVEAL_WIDTH,
    NOT_AWAY,
    OFF_GROUND,
    OPEN,
    RETREAT_LIMIT,
    REVEAL_WIDTH,
    TOO_FAR,
    TOO_LONG,
    atgm_immediate,
    bearing,
    distance,
    faces,
    in_ambush_range,
    inches_to_metres,
    metres_to_inches,
    point_to_metres,
    reveal_radius,
    revealed,
)
from .moves import Dash, Verdict, dash, reach, reaches, retreat_ok, within_reach
from .paths import between, path_length, path_until, point_along
from .zones import ChallengeZone, Crossing, challenge_point, column_order, first_crossing

__all__ = [
    "AMBUSH_FIRE_RANGE",
    "BLOCKED",
    "EPS",
    "IMPASSABLE",
    "INFANTRY_ARC",
    "LISTED_REVEAL_WIDTH",
    "NOT_AWAY",
    "OFF_GROUND",
    "OPEN",
    "RETREAT_LIMIT",
    "REVEAL_WIDTH",
    "TOO_FAR",
    "TOO_LONG",
    "XY",
    "Area",
    "ChallengeZone",
    "Crossing",
    "Cut",
    "Dash",
    "Ground",
    "Stretch",
    "TooIntricate",
    "Verdict",
    "atgm_immediate",
    "bearing",
    "between",
    "challenge_point",
    "column_order",
    "dash",
    "distance",
    "faces",
    "first_crossing",
    "in_ambush_range",
    "inches_to_metres",
    "metres_to_inches",
    "path_length",
    "path_until",
    "point_along",
    "point_to_metres",
    "reach",
    "reaches",
    "retreat_ok",
    "reveal_radius",
    "revealed",
    "within_reach",
]
