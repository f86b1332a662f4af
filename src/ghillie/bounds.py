"""How large anything a side or a scenario's author sends may be (issue 24, "every field
bounded").

Every command is recorded, hashed, signed and shown to its side in every view, and every
scenario is read into every game made of it: an unbounded string or list costs memory,
bandwidth and storage with every view (one standing order of 4 MiB made a 33.5 MB view),
and a number that is finite as sent can become infinite once a ruleset scales it (1e308
inches became infinite metres and a 500). So every string has a length limit, every number
is finite and at most :data:`MAGNITUDE` in size, and every list has a length limit.

The limits are pydantic's own, so that each command's JSON Schema carries them and the
pages refuse before sending: :class:`Bounded` (the base of every command and every part of
one) sets the default length of a string and refuses NaN and infinity; :data:`Coordinate`
bounds a point's numbers; lists carry their own ``max_length``. :func:`first_out_of_bounds`
is the net under them: the engine and the scenario reader walk every value with it, so a
model that forgot a bound still cannot take a value past these.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

# Characters: the most any string in a command or a scenario may have (a private note, a
# scenario's description has its own), and the length of one a field does not bound itself.
TEXT = 500
# The largest size of any number in a command or a scenario: a coordinate a million inches
# from the table's corner (25 km) is far past any table, and scaled by any ruleset's unit
# (at most 1,000 metres an inch) and squared for a distance it stays far from infinity.
MAGNITUDE = 1_000_000
# (Far below 2**53, past which an integer cannot be written in canonical JSON exactly.)
# Entries in any list of a scenario (units, terrain, an outline's points, a list of skills).
ENTRIES = 1_000
# A scenario's description: a paragraph or two.
DESCRIPTION = 4_000

# One number of a point on the table or the ground ([x, y]: ``tabletop.XY``).
Coordinate = Annotated[float, Field(ge=-MAGNITUDE, le=MAGNITUDE)]

# A piece a command names: its id (32 hex digits) or a public handle (a scenario key, a
# marker's label: at most 40 characters).
Ref = Annotated[str, Field(max_length=64)]

BOUNDED = ConfigDict(
    extra="forbid",
    frozen=True,
    # A malformed value never reaches an error or a log line.
    hide_input_in_errors=True,
    str_max_length=TEXT,
    allow_inf_nan=False,
)


class Bounded(BaseModel):
    """The base of every command and every part of one: no field it does not declare,
    every string at most :data:`TEXT` characters unless its field says fewer, no NaN or
    infinity."""

    model_config = BOUNDED


# A value met in the walk, the entry it is in (None: the top) and its key there.
_Entry = tuple[Any, "Any", Any]


def first_out_of_bounds(value: Any, *, text: int = TEXT, entries: int | None = None) -> str | None:
    """The path (``units.0.path.1.0``; ``""`` for ``value`` itself) of the first value in
    plain JSON data that is past the bounds, or None: a number that is not finite or larger
    than :data:`MAGNITUDE`, a string
    longer than ``text`` or that is not UTF-8 (a lone surrogate), a list or table with more
    than ``entries`` entries (None: not checked). Iterative: data nested deep cannot exhaust
    the stack."""
    # Each entry: a value, and the entry it is in with its key there. The path is spelled
    # only for a value at fault (every command is walked, and few are refused).
    stack: list[_Entry] = [(value, None, "")]
    while stack:
        entry = stack.pop()
        item = entry[0]
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, int | float):
            if not math.isfinite(item) or abs(item) > MAGNITUDE:
                return _path(entry)
            continue
        if isinstance(item, str):
            if len(item) > text or not _utf8(item):
                return _path(entry)
            continue
        if isinstance(item, Mapping):
            children: list[_Entry] = []
            for key, inner in item.items():
                if isinstance(key, str) and (len(key) > text or not _utf8(key)):
                    return _path(entry)
                children.append((inner, entry, key))
        elif isinstance(item, list | tuple):
            children = [(inner, entry, i) for i, inner in enumerate(item)]
        else:
            continue
        if entries is not None and len(children) > entries:
            return _path(entry)
        stack.extend(reversed(children))  # depth first, in order: the first at fault
    return None


def _path(entry: _Entry) -> str:
    """The path of ``entry``'s value, spelled as ever (an empty key leaves no dot)."""
    keys = []
    while entry[1] is not None:
        keys.append(entry[2])
        entry = entry[1]
    path = ""
    for key in reversed(keys):
        path = f"{path}.{key}" if path else str(key)
    return path


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
