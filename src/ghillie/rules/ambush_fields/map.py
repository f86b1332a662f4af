"""The ambush-fields board as an observer sees it, and its hex map: the fields a side knows
(its own, and the enemy's it has located), its own ships and the enemy ships it knows of —
face-down counters until they are identified."""

from __future__ import annotations

import functools
from typing import Any

from ghillie.maps import (
    HEX_CAPTION,
    Layer,
    MapView,
    Shape,
    Token,
    focus,
    shown,
    side_legend,
    token_style,
    whose,
)
from ghillie.measure.hexes import HexMap, disc
from ghillie.scenario import Mode
from ghillie.state import REFEREE, Level, Piece
from ghillie.words import N_, Say, say

from .board import FieldState, State
from .pieces import FIELD, SHIP, where

CATEGORY = {"ship": N_("ship"), "fighter flight": N_("fighter flight"), "shuttle": N_("shuttle")}


def board_view(state: State, observer: str) -> dict[str, Any]:
    """The board in ``observer``'s view: the turn as everyone sees it, and the fields its
    board shows."""
    board = state.board
    out: dict[str, Any] = {
        "turn": board.turn,
        "step": board.step.value,
        "done": sorted(board.done),
        "ready": sorted(board.ready),
        "ending": sorted(board.ending),
    }
    fields = fields_seen(state, observer)
    if fields is not None:
        out["fields"] = fields
    return out


def fields_seen(state: State, observer: str) -> list[dict[str, Any]] | None:
    """The fields ``observer``'s board shows; None for a spectator, whose board shows none."""
    if observer in state.sides:
        return known_fields(state, observer)
    if observer != REFEREE:
        return None
    # Every field, as its owner knows it, and which other sides have located it: the same
    # list shape as a side's, so one map draws both.
    return [
        {
            **f,
            "located_by": sorted(
                s
                for s in state.sides
                if s != side and state.board.knows(s, f["id"]) is FieldState.LOCATED
            ),
        }
        for side in state.sides
        for f in known_fields(state, side)
        if f["owner"] == side
    ]


def known_fields(state: State, side: str) -> list[dict[str, Any]]:
    """A side's own fields, and the enemy fields it has located (BSG-R17: "always visible
    on the board") with their current place, extent and rating."""
    hex_map = state.scenario.hex_map
    out = []
    for piece in state.pieces.values():
        if piece.kind != FIELD:
            continue
        mine = piece.owner == side
        if not mine and state.board.knows(side, piece.id) is not FieldState.LOCATED:
            continue
        controller = state.pieces.get(piece.secret["controller"])
        at = where(state, controller) if controller is not None else None
        out.append(
            {
                "id": piece.id,
                "owner": piece.owner,
                "centre": hex_map.to_label(at) if at else None,
                "radius": piece.secret["radius"],
                "rating": piece.secret["rating"],
                "active": piece.secret["active"],
                **({"key": piece.secret["key"]} if mine else {}),
            }
        )
    return out


def map_view(state: State, observer: str) -> MapView | None:
    scenario = state.scenario
    if scenario.mode is not Mode.MAP:
        return None  # a printed map on the real table: hexes are typed
    hex_map = scenario.hex_map
    fields = fields_seen(state, observer) or []
    layers = [_field(state, observer, f, hex_map) for f in fields if f.get("centre")]
    tokens = [t for p in shown(state, observer) if (t := _token(state, observer, p))]
    legend = side_legend(state, observer)
    if observer in state.sides:
        legend.append(("counter", N_("Enemy counters you have detected but not identified")))
    return MapView(
        "hexes",
        HEX_CAPTION,
        columns=scenario.map.columns,
        rows=scenario.map.rows,
        shifted=scenario.map.shifted,
        layers=layers,
        tokens=tokens,
        legend=legend,
        focus=focus(state, observer, tokens),
    )


@functools.lru_cache(maxsize=1024)
def _hexes_within(hex_map: HexMap, centre: str, radius: int) -> tuple[str, ...]:
    """The hexes of the map a field covers: the same for every view of every turn (a field
    never moves), so worked out once."""
    middle = hex_map.from_label(centre)
    return tuple(hex_map.to_label(h) for h in disc(middle, radius) if hex_map.on_map(h))


def _field(state: State, observer: str, field: dict[str, Any], hex_map: Any) -> Layer:
    owner = field["owner"]
    mine = owner == observer
    hexes = _hexes_within(hex_map, field["centre"], int(field["radius"]))
    if not field.get("active", True):
        style = "field-dropped"
    else:
        style = f"field-{whose(state, observer, owner)}"
    name = state.scenario.side_name(owner)
    words: Say = (
        say("Your ambush field {key}", key=field.get("key", ""))
        if mine
        else say("An ambush field of {side}", side=name)
    )
    title = say(
        "{field}: radius {radius} around hex {centre}, rating {rating}",
        field=words,
        radius=field["radius"],
        centre=field["centre"],
        rating=field["rating"],
    )
    legend: str | Say = (
        N_("Your ambush fields") if mine else say("Fields of {side} you have located", side=name)
    )
    if observer == REFEREE:
        legend = say("Ambush fields of {side}", side=name)
    return Layer(style, legend, hexes=hexes, titles=[title])


def _token(state: State, observer: str, piece: Piece) -> Token | None:
    if piece.kind != SHIP or not piece.public.get("at"):
        return None
    category = str(piece.public.get("category", "ship"))
    known = state.known(observer, piece.id) if observer in state.sides else None
    if observer in (piece.owner, REFEREE):
        name: str | Say = str(piece.secret.get("name", category))
        style = token_style(state, observer, piece.owner)
        shape: Shape = "disc"
    elif known is not None and known.level >= Level.IDENTIFIED:
        name = str(known.facts.get("name", category))
        style, shape = "enemy", "disc"
    else:
        name = say("{category} counter", category=say(CATEGORY.get(category, category)))
        style, shape = "counter", "square"
    heading = piece.public.get("heading")
    speed = piece.public.get("speed")
    title = say(
        "{name} at hex {hex}, heading {heading}, speed {speed}",
        name=name,
        hex=piece.public["at"],
        heading=heading or "—",
        speed=speed if speed is not None else "—",
    )
    at = str(piece.public["at"])
    return Token(name, title, style, at, piece.id, shape, radius=0.5, heading=heading)
