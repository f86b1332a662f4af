"""The camouflage map: the table in inches, its terrain, the side's own troopers and
markers, the enemy's it can see (a marker as a square, a model as a disc), and the route
the active trooper has declared in the Order under way."""

from __future__ import annotations

from ghillie.maps import Line, MapView, Token, inches_map, shown, token_style
from ghillie.scenario import Mode
from ghillie.state import Piece
from ghillie.words import N_, say

from . import declare, route
from .board import MARKER, Game, State
from .words import describe


def map_view(state: Game, observer: str) -> MapView | None:
    scenario = state.scenario
    if scenario.mode is not Mode.MAP:
        return None  # at a real table, the table is the map
    pieces = shown(state, observer)
    tokens = [t for p in pieces if (t := _token(state, observer, p))]
    size = (scenario.width, scenario.depth)
    lines = _route(state, {p.id for p in pieces})
    return inches_map(state, observer, size, scenario.terrain, tokens, lines=lines)


def _route(state: Game, seen: set[str]) -> list[Line]:
    """The route of the Order under way, drawn on the map of whoever sees what takes it
    (``seen``): an ARO answers a point of it (INF-R12, INF-T01), and a tap there snaps
    onto it."""
    order = state.board.order
    points = route.shown(order)
    if order is None or not points:
        return []
    who = declare.shown(state, state.piece(order.piece))
    if who.id not in seen:
        return []
    name = say("Marker {n}", n=who.public["number"]) if who.kind == MARKER else who.public["name"]
    title = say("The route {who} declared in this Order", who=name)
    legend = N_("The route of the Order under way: an ARO answers a point of it")
    return [Line(route.ROUTE, "route", legend, points, title)]


def _token(state: Game, observer: str, piece: Piece) -> Token | None:
    at = piece.public.get("at")
    if at is None or piece.public.get("state") == State.DOWN:
        return None
    words = describe(state, observer, piece)
    style = token_style(state, observer, piece.owner)
    if piece.kind == MARKER:
        label = f"M{piece.public['number']}"
        return Token(label, words, style, (at[0], at[1]), piece.id, shape="square", radius=0.6)
    # A model's base: Silhouette 1-2 a 25 mm base, bigger ones bigger (half an inch per S).
    radius = max(0.5, 0.25 * int(piece.public["silhouette"]))
    label = "".join(w[0] for w in str(piece.public["name"]).split()[:2]).upper()
    return Token(label, words, style, (at[0], at[1]), piece.id, radius=radius)
