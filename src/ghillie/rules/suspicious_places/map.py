"""The suspicious-places map: terrain, the side's own pieces and the enemy's it knows of."""

from __future__ import annotations

from ghillie.maps import MapView, Token, inches_map, shown, token_style
from ghillie.scenario import Mode
from ghillie.state import REFEREE, Piece
from ghillie.words import N_, Say

from .board import MARKER, SNIPER_MARKER, UNIT, State, model_points
from .words import describe


def map_view(state: State, observer: str) -> MapView | None:
    scenario = state.scenario
    if scenario.mode is not Mode.MAP:
        return None  # at a real table, the table is the map
    tokens = [t for p in _shown(state, observer) if (t := _token(state, observer, p))]
    extra: list[tuple[str, str | Say]] = []
    if observer in state.sides:
        extra.append(("true", N_("Where your sniper really is")))
    size = (scenario.table.width, scenario.table.depth)
    return inches_map(state, observer, size, scenario.terrain, tokens, extra)


def _shown(state: State, observer: str) -> list[Piece]:
    return shown(state, observer)


def _token(state: State, observer: str, piece: Piece) -> Token | None:
    words = describe(state, observer, piece)
    style = token_style(state, observer, piece.owner)
    title = words
    at = piece.public.get("at")
    if piece.kind == UNIT:
        models = model_points(piece)
        if not models:
            return None
        return Token(words.name, title, style, models[0], piece.id, models=models, radius=0.5)
    if at is None:
        return None
    label = str(piece.public.get("label", ""))
    if piece.kind == MARKER:
        return Token(label, title, style, tuple(at), piece.id, shape="square", radius=0.75)
    if piece.kind == SNIPER_MARKER:
        true = observer in (piece.owner, REFEREE) and piece.secret.get("true") is True
        return Token(
            label, title, "true" if true else style, tuple(at), piece.id, "diamond", radius=0.9
        )
    return None
