"""BMF S2: a concealed unit moving between concealed positions is seen on its exposed
stretches, and on them only.

The other side is told each stretch where it crossed open ground — from the point where it
left cover to the point where it was back in cover (an area's edge counts as cover: the
points lie on the edges of the concealing ground), what kind of unit it is, and, for the
map, the two points (in the told line, and on the board: ``Board.crossings``) — and nothing
of the parts of its path in concealing ground: not where it started, not where it went
inside the cover, not where it stopped. It is concealed again where it ends in concealing
ground (S2 → S1). If it ends in the open, it is revealed there (S3). A concealed mover that
a standing order fires on is revealed where it is then: the firer has it in its sights, and
the rest of the exchange names it (S3).
"""

from __future__ import annotations

from collections.abc import Sequence

from ghillie.state import Level
from ghillie.words import say

from . import geometry, units
from .board import Rules
from .changes import Crossed
from .words import CLASS_WORDS

XY = tuple[float, float]


def _xy(point: XY) -> list[int | float]:
    return units.xy(point)


def tell_crossings(
    ruling: Rules,
    ground: geometry.Ground,
    unit_id: str,
    path: Sequence[XY],
    cut: geometry.Cut | None = None,
) -> None:
    """Tell every side where the concealed unit crossed open ground along ``path`` (the
    part of its route it has walked now; ``cut``: that path cut at the terrain's edges, if
    the caller has it)."""
    unit = ruling.piece(unit_id)
    if len(path) < 2:
        return
    what = unit.public["class"]
    for stretch in (cut or ground.cut(path)).exposed():
        if stretch.length <= geometry.EPS:
            continue  # it only touched the open ground
        a = _xy(geometry.point_along(path, stretch.start))
        b = _xy(geometry.point_along(path, stretch.end))
        ruling.change(Crossed(what, [a, b]))
        ruling.tell_public(
            {
                "text": say(
                    "Seen crossing open ground: {what}, from {x1}, {y1} to {x2}, {y2}.",
                    what=CLASS_WORDS.get(str(what), str(what)),
                    x1=units.told(ruling, a)[0],
                    y1=units.told(ruling, a)[1],
                    x2=units.told(ruling, b)[0],
                    y2=units.told(ruling, b)[1],
                    rules=("BMF-R01", "BMF-S2"),
                ),
                "crossed": [a, b],
            }
        )


def reveal(ruling: Rules, unit_id: str, where: XY) -> None:
    """The unit is revealed where it is (S3): its place and type public, known to all."""
    unit = ruling.piece(unit_id)
    ruling.update(unit_id, public={"at": _xy(where), "concealed": False})
    for other in ruling.state.others(unit.owner):
        ruling.reveal(unit_id, other, Level.IDENTIFIED)


def ends(ruling: Rules, ground: geometry.Ground, unit_id: str, end: XY) -> None:
    """A concealed unit's move has ended: in concealing ground it stays concealed; in the
    open it is revealed there (S3)."""
    if ground.is_concealing(end):
        return
    reveal(ruling, unit_id, end)
    at = _xy(end)
    ruling.tell_public(
        {
            "text": say(
                "{unit}: stopped in the open at {x}, {y}, and revealed.",
                unit=ruling.piece(unit_id).public["name"],
                x=units.told(ruling, at)[0],
                y=units.told(ruling, at)[1],
                rules=("BMF-S3",),
            )
        }
    )
