"""Each reader's map: the grid, the squares searched, and the Scout where that reader knows
it to be."""

from __future__ import annotations

from ghillie.maps import Layer, MapView, Token, focus, shown, side_legend, token_style, whose
from ghillie.rules.scout_search.board import Board
from ghillie.rules.scout_search.grid import SQUARES, box, centre
from ghillie.rules.scout_search.scenario import ScoutScenario
from ghillie.rules.scout_search.setup import SCOUT
from ghillie.rules.scout_search.words import describe, where
from ghillie.state import REFEREE, GameState
from ghillie.words import N_, say

CAPTION = N_("Columns are lettered A to F and rows numbered 1 to 6. Tap a square to choose it.")


def _outline(square: str) -> tuple[tuple[float, float], ...]:
    left, top, right, bottom = box(square)
    return ((left, top), (right, top), (right, bottom), (left, bottom))


def map_view(state: GameState[ScoutScenario, Board], observer: str) -> MapView:
    searched = sorted(set(state.board.searched))
    # The page draws the grid, with its labels, from ``squares``.
    layers: list[Layer] = []
    if searched:
        layers.append(
            Layer(
                "square-empty",
                N_("Searched and found empty"),
                polygons=[_outline(s) for s in searched],
                titles=[say("{square}: searched", square=s) for s in searched],
            )
        )
    heard = sorted(set(state.board.heard))
    if heard and observer in (state.scenario.hunters, REFEREE):
        # Where the hunters heard the Scout next door: theirs alone, as in the board view.
        layers.append(
            Layer(
                f"zone-{whose(state, observer, state.scenario.hunters)}",
                N_("Searched, and something heard next to it"),
                polygons=[_outline(s) for s in heard],
                titles=[say("{square}: something heard nearby", square=s) for s in heard],
            )
        )
    tokens = [
        Token(
            N_("Scout") if piece.kind == SCOUT else N_("Hunter"),
            describe(state, observer, piece),
            token_style(state, observer, piece.owner),
            centre(square),
            id=piece.id,
            radius=0.35,
        )
        for piece in shown(state, observer)
        if (square := where(state, observer, piece))
    ]
    return MapView(
        "inches",
        CAPTION,
        width=6,
        depth=6,
        layers=layers,
        tokens=tokens,
        squares={s: box(s) for s in SQUARES},
        legend=side_legend(state, observer),
        focus=focus(state, observer, tokens),
    )
