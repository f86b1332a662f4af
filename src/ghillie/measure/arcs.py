"""Fire arcs on a hex map, relative to a ship's heading, as scenarios configure them.

The default scheme has six 60° arcs, each facing a hexside relative to the heading: ``F``
(forward), ``RF``, ``RR``, ``R`` (rear), ``LR``, ``LF``. A target exactly on a boundary
goes to the arc nearer the bow (dead ahead and dead astern: the right-hand arc), which is
BSG-A07's "host tie-break", symmetric left to right. All of it is exact integer arithmetic.

>>> arc_of(Hex(0, 0), heading=0, target=Hex(0, -5))
'F'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ghillie.measure.hexes import DIRECTIONS, HEXSIDES, Hex, check_direction, rotate

# Twelve rays from a hex's centre 30° apart, clockwise from dead ahead (hexside A): the even
# ones run out through hexsides along rows of hexes, the odd ones out through corners along
# the hexes' spines. Every target's bearing is on one ray or strictly between two.
_RAYS = tuple(
    step for i in range(6) for step in (DIRECTIONS[i], DIRECTIONS[i] + DIRECTIONS[(i + 1) % 6])
)


def _cross(u: Hex, v: Hex) -> int:
    # Axial to map coordinates is linear with a positive determinant (y down), so this sign
    # is the map's: positive when v lies clockwise of u (less than 180° round).
    return u.q * v.r - u.r * v.q


def _bearing(step: Hex) -> int:
    """The bearing of a nonzero ``step`` from dead ahead (hexside A), clockwise, in 15°
    units: an even bearing is exactly on ray ``bearing // 2``, an odd one strictly between
    two rays."""
    for k, ray in enumerate(_RAYS):
        crossed = _cross(ray, step)
        # Collinear vectors point the same way when their dot product is positive; any
        # inner product serves for that, the plain one on axial coordinates too.
        if crossed == 0 and ray.q * step.q + ray.r * step.r > 0:
            return 2 * k
        if crossed > 0 and _cross(step, _RAYS[(k + 1) % 12]) > 0:
            return 2 * k + 1
    raise ValueError("a hex has no bearing from itself")


@dataclass(frozen=True)
class ArcScheme:
    """Named fire arcs relative to a ship's heading, covering the circle without overlap.

    ``arcs`` are the names in the scheme's order; ``cells[i]`` is the arc that holds the 30°
    sector from ``30·i``° to ``30·(i+1)``° clockwise from dead ahead. Build one with
    :meth:`from_data`. A target exactly on the line between two arcs belongs to the arc
    nearer the ship's bow; on the line dead ahead or dead astern, to the arc on the right
    (starboard). This is RULES-SPEC BSG-A07's "host tie-break"; it keeps mirror images
    mirrored, so in a scheme symmetric about the keel, like :data:`DEFAULT_ARCS`, a target's
    mirror image is in the mirrored arc.
    """

    arcs: tuple[str, ...]
    cells: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.cells) != 12:
            raise ValueError(f"an arc scheme names 12 sectors of 30°, not {len(self.cells)}")
        if len(set(self.arcs)) != len(self.arcs):
            raise ValueError(f"arc names repeat: {self.arcs}")
        for name in self.arcs:
            if not name or name not in self.cells:
                raise ValueError(f"arc {name!r} covers no sector")
        for name in self.cells:
            if name not in self.arcs:
                raise ValueError(f"sector held by {name!r}, which is not an arc of the scheme")

    @classmethod
    def from_data(cls, data: Mapping[str, Sequence[Sequence[int | str]]]) -> ArcScheme:
        """A scheme from a scenario's data: arc name → list of sectors, each sector either
        ``[from, to]`` in degrees clockwise from dead ahead (multiples of 30, from < to,
        at most 360 apart; ``[-30, 30]`` and ``[330, 390]`` are the same) or
        ``["F", "B"]``, from the line out through relative hexside F clockwise to the line
        out through hexside B. ValueError naming the problem if a sector is malformed or
        the arcs overlap or leave a gap.

        SFB-style arcs, bounded by the rows of hexes out of the hexsides:

        >>> sfb = ArcScheme.from_data({"RF": [["A", "B"]], "R": [["B", "C"]],
        ...     "RR": [["C", "D"]], "LR": [["D", "E"]], "L": [["E", "F"]], "LF": [["F", "A"]]})
        >>> sfb.arcs_at(Hex(0, 0), 0, Hex(0, -3)), sfb.arc_at(Hex(0, 0), 0, Hex(0, -3))
        (['RF', 'LF'], 'RF')
        >>> ArcScheme.from_data({"front": [[-90, 90]], "back": [[90, 240]]})
        Traceback (most recent call last):
        ...
        ValueError: no arc covers 240°–270° (clockwise from dead ahead)
        """
        if not data:
            raise ValueError("an arc scheme needs at least one arc")
        cells: list[str | None] = [None] * 12
        for name, sectors in data.items():
            if not isinstance(name, str) or not name:
                raise ValueError(f"an arc's name is a non-empty string, not {name!r}")
            if isinstance(sectors, str | bytes) or not sectors:
                raise ValueError(f"arc {name!r} needs a list of sectors")
            for sector in sectors:
                start, end = _sector_degrees(name, sector)
                for degrees in range(start, end, 30):
                    cell = (degrees % 360) // 30
                    held = cells[cell]
                    if held is not None:
                        where = f"{cell * 30}°–{cell * 30 + 30}°"
                        if held == name:
                            raise ValueError(f"arc {name!r} covers {where} twice")
                        raise ValueError(f"arcs {held!r} and {name!r} overlap at {where}")
                    cells[cell] = name
        gaps = [f"{i * 30}°–{i * 30 + 30}°" for i, held in enumerate(cells) if held is None]
        if gaps:
            raise ValueError(f"no arc covers {', '.join(gaps)} (clockwise from dead ahead)")
        return cls(tuple(data), tuple(c for c in cells if c is not None))

    def _arcs_on(self, bearing: int) -> tuple[str, ...]:
        """The arcs at a bearing (15° units): one, or two when it is on a boundary, the
        tie-break's winner first."""
        if bearing % 2:
            return (self.cells[bearing // 2],)
        left, right = self.cells[(bearing // 2 - 1) % 12], self.cells[bearing // 2]
        if left == right:
            return (left,)
        # To starboard (bearings 1..11, 15°–165°) the arc nearer the bow is the anticlockwise
        # one, to port (13..23) the clockwise one. Dead ahead (0) and dead astern (12) the
        # starboard arc wins, which is the clockwise one at 0 and the anticlockwise at 12.
        anticlockwise_wins = 0 < bearing <= 12
        return (left, right) if anticlockwise_wins else (right, left)

    def arc_at(self, ship: Hex, heading: int, target: Hex) -> str:
        """The one arc of a ship at ``ship`` facing ``heading`` (0..5 = A..F) that holds
        ``target``, with the tie-break on boundaries; ValueError for the ship's own hex,
        which is in no arc."""
        return self._arcs_on(_relative_bearing(ship, heading, target))[0]

    def arcs_at(self, ship: Hex, heading: int, target: Hex) -> list[str]:
        """Every arc that holds ``target``: two for a target on a boundary, the tie-break's
        choice first; ValueError for the ship's own hex."""
        return list(self._arcs_on(_relative_bearing(ship, heading, target)))


def _sector_degrees(name: str, sector: Sequence[int | str]) -> tuple[int, int]:
    """A sector as (from, to) degrees clockwise from dead ahead, from < to <= from + 360."""
    where = f"arc {name!r} sector {list(sector)!r}"
    if isinstance(sector, str | bytes) or len(sector) != 2:
        raise ValueError(f"{where}: a sector is a pair [from, to]")
    start, end = sector
    if isinstance(start, str) and isinstance(end, str):
        if start not in HEXSIDES or end not in HEXSIDES:
            raise ValueError(f"{where}: hexsides are A..F")
        if start == end:
            raise ValueError(f"{where}: from and to are the same hexside")
        first, last = HEXSIDES.index(start) * 60, HEXSIDES.index(end) * 60
        return first, last if last > first else last + 360
    # bool is an int to Python, but True is no bearing.
    if not (isinstance(start, int) and isinstance(end, int)) or bool in (type(start), type(end)):
        raise ValueError(f"{where}: give two bearings in degrees or two hexside letters")
    if start % 30 or end % 30:
        raise ValueError(f"{where}: degrees are multiples of 30")
    if not start < end <= start + 360:
        raise ValueError(f"{where}: runs clockwise from 'from' to 'to', at most 360°")
    return start, end


def _relative_bearing(ship: Hex, heading: int, target: Hex) -> int:
    check_direction(heading)
    if target == ship:
        raise ValueError(f"the ship's own hex {target!r} is in no fire arc")
    # Turn the picture so the ship faces hexside A; then bearings are from dead ahead.
    return _bearing(rotate(target - ship, -heading))


# The host default (RULES-SPEC §1.1 lists the fire-arc scheme as a host parameter): six 60°
# arcs, each named for the relative hexside it faces, so each runs from corner to corner.
DEFAULT_ARCS = ArcScheme.from_data(
    {
        "F": [[-30, 30]],
        "RF": [[30, 90]],
        "RR": [[90, 150]],
        "R": [[150, 210]],
        "LR": [[210, 270]],
        "LF": [[270, 330]],
    }
)


def arc_of(ship: Hex, heading: int, target: Hex, scheme: ArcScheme = DEFAULT_ARCS) -> str:
    """The arc of a ship at ``ship`` facing ``heading`` that holds ``target`` (RULES-SPEC
    BSG-A07; BSG host hook ``fire_arc``); on a boundary, the arc nearer the bow (see
    :class:`ArcScheme`). ValueError for the ship's own hex or a heading outside 0..5.

    >>> from ghillie.measure.hexes import direction
    >>> [arc_of(Hex(0, 0), 0, direction(i)) for i in range(6)]
    ['F', 'RF', 'RR', 'R', 'LR', 'LF']
    >>> arc_of(Hex(0, 0), 0, Hex(1, -2)), arc_of(Hex(0, 0), 0, Hex(-1, -1))
    ('F', 'F')
    """
    return scheme.arc_at(ship, heading, target)


def arcs_containing(
    ship: Hex, heading: int, targets: Iterable[Hex], scheme: ArcScheme = DEFAULT_ARCS
) -> list[str]:
    """Every arc holding at least one of ``targets``, in the scheme's order — for the option
    of reporting every arc a field overlaps (BSG-A07). A target on a boundary counts for
    both arcs; the ship's own hex counts for all of them (the field is all round it).

    >>> from ghillie.measure.hexes import disc
    >>> arc_of(Hex(0, 0), 0, Hex(2, -3)), arcs_containing(Hex(0, 0), 0, disc(Hex(2, -3), 1))
    ('RF', ['F', 'RF'])
    """
    found: set[str] = set()
    for target in targets:
        if target == ship:
            return list(scheme.arcs)
        found.update(scheme.arcs_at(ship, heading, target))
    return [name for name in scheme.arcs if name in found]
