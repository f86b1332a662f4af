"""A Sensor's Zone of Control (RULES-SPEC §5.1): 8 inches around the trooper. Its Sensor
Discovers the enemy markers inside it (resolution.py), and no enemy with Camouflage may go
back into the state inside it (declare.py)."""

from __future__ import annotations

import math

from ghillie.measure.tabletop import XY
from ghillie.state import Piece

from .board import MARKER, TROOPER, Game, State
from .checks import EDGE_TOLERANCE
from .where import at

ZONE_OF_CONTROL = 8.0  # inches


def within(centre: XY, point: XY) -> bool:
    """Is ``point`` inside the Zone of Control of a trooper at ``centre``? Measured between
    the points on the map, as every range there is; 8 inches exactly is inside (the range
    bands read "up to" their edge, INF-A11)."""
    return math.dist(centre, point) <= ZONE_OF_CONTROL + EDGE_TOLERANCE


def known_sensors(state: Game, side: str) -> list[Piece]:
    """The enemy troopers with Sensor that ``side`` knows of on the table, each as it stands
    there: a model, or the marker the side knows it went back under (INF-A12; its Sensor
    keeps working there, INF-R07). A marker whose trooper the side cannot know is not
    among them, as INF-A02 settles for line of fire: a refusal must not tell what it hides."""
    out = []
    for pid, known in state.knowledge.get(side, {}).items():
        piece = state.pieces.get(pid)
        if piece is None or piece.owner == side:
            continue
        trooper = piece
        if piece.kind == MARKER:
            stood = state.pieces.get(str(known.facts.get("stands_for", "")))
            if stood is None or stood.public.get("marker") != piece.id:
                continue
            trooper = stood
        elif piece.kind != TROOPER or piece.public.get("state") != State.MODEL:
            continue
        if trooper.public.get("sensor"):
            out.append(piece)
    return out


def blocking(state: Game, side: str, point: XY) -> list[Piece]:
    """The known enemy Sensors (known_sensors) whose Zone of Control holds ``point``."""
    return [p for p in known_sensors(state, side) if (xy := at(p)) and within(xy, point)]
