"""What every part of a move's rules needs: the ground, where a unit stands, its history,
its arrival, and going on with a move a standing order interrupted."""

from __future__ import annotations

from typing import Any

from ghillie.state import Piece
from ghillie.words import say

from . import geometry
from .board import Did, Rules
from .eligibility import history as history  # re-exported: the rules read it here
from .scenario import AmbushFireScenario
from .setup import inches

RETURN_FIRE = "return_fire"  # the reaction windows
RETREAT = "retreat"
MOVE = "move"  # what goes on after a reaction: the move it interrupted,
FIRE_PHASE = "fire_phase"  # or the standing orders at the start of the fire phase (A17)


def number(value: float) -> int | float:
    """A length as the record writes it: a whole number of metres is an int (the record's
    JSON writes 900.0 as 900, and an audit's replay must give back exactly what it reads)."""
    value = float(value)
    return int(value) if value.is_integer() else value


def xy(point: Any, *, places: int | None = 2) -> list[int | float]:
    """A point for a piece or a line: rounded to the centimetre (``places``), whole metres
    as ints. ``places=None`` keeps it exact (a route, which the walk goes on along)."""
    if places is None:
        return [number(point[0]), number(point[1])]
    return [number(round(float(point[0]), places)), number(round(float(point[1]), places))]


def ground(scenario: AmbushFireScenario) -> geometry.Ground:
    """The scenario's ground, made once (its shapes prepared, its edges in arrays)."""
    return scenario.ground


def told(ruling: Rules, at: Any) -> tuple[float, float]:
    """A place in metres as the players read it: inches from the table's top-left corner
    (a line says "moves to 36, 24" whether the game is at a table or on the map)."""
    return inches(ruling.scenario, at)


def where(piece: Piece) -> tuple[float, float]:
    at = piece.public.get("at") or piece.secret.get("at")
    assert at is not None, "a unit on the ground has a place"
    return (float(at[0]), float(at[1]))


def note(ruling: Rules, unit: Piece, what: Did) -> None:
    concealed = bool(unit.public.get("concealed"))
    held = unit.secret if concealed else unit.public
    history = {k: list(v) for k, v in held.get("history", {}).items()}
    turn = str(ruling.board.turn)
    history[turn] = sorted({*history.get(turn, []), what.value})
    if concealed:
        ruling.update(unit.id, secret={"history": history})
    else:
        ruling.update(unit.id, public={"history": history})


def arrive(ruling: Rules, unit_id: str, where: Any, *, final: bool = True) -> None:
    unit = ruling.piece(unit_id)
    place = xy(where)
    if unit.public.get("concealed"):
        ruling.update(unit_id, secret={"at": place})
    else:
        ruling.update(unit_id, public={"at": place})
        if final:
            ruling.tell_public(
                {
                    "text": say(
                        "{unit}: moved to {x}, {y}.",
                        unit=unit.public["name"],
                        x=told(ruling, place)[0],
                        y=told(ruling, place)[1],
                    )
                }
            )
    if final:
        held = ruling.piece(unit_id).secret
        done = tuple(k for k in ("walk", "untold", "cover") if k in held)
        ruling.update(unit_id, unset=("route", *done))


def on_the_way(ruling: Rules, unit_id: str, where: Any) -> None:
    """A unit in view paused mid-move (a leg's end, a live side asked): everyone is told
    where it stands, as the board shows it."""
    unit = ruling.piece(unit_id)
    x, y = told(ruling, xy(where))
    ruling.tell_public(
        {"text": say("{unit}: on the way, at {x}, {y}.", unit=unit.public["name"], x=x, y=y)}
    )


def go_on(
    ruling: Rules,
    side: str,
    movers: list[str],
    then: str = MOVE,
) -> None:
    """What a reaction interrupted goes on: the move (the walk is ``movement``'s, which
    calls the reactions), or the standing orders' turn at the start of the fire phase."""
    if then == FIRE_PHASE:
        from .opening import opening_fire

        opening_fire(ruling)
        return
    from .movement import advance

    advance(ruling, side, movers)
