"""The grid-ambush map: terrain, deployment zones, the grid of squares and the units.

At a real table it is the table's plan: the agreed grid, its orientation and the zones, to
be shown to both players before the orders are written (DWV-A03)."""

from __future__ import annotations

from ghillie.maps import (
    Layer,
    MapView,
    Token,
    focus,
    shown,
    side_legend,
    terrain_layers,
    token_style,
    whose,
)
from ghillie.measure.grid import column_letters
from ghillie.scenario import Mode
from ghillie.state import REFEREE, Piece
from ghillie.words import N_, Say, say

from .board import State, Status
from .scenario import GridAmbushScenario


def map_view(state: State, observer: str) -> MapView:
    scenario = state.scenario
    grid = scenario.grid
    squares = grid.squares
    layers = [*terrain_layers(scenario.terrain), *_zones(state, observer)]
    empty = _found_empty(state, observer)
    if empty:
        layers.append(
            Layer(
                "square-empty",
                N_("Scanned and found empty"),
                polygons=[_box(squares[ref]) for ref in empty if ref in squares],
                titles=[say("{square}: scanned, nobody there", square=ref) for ref in empty],
            )
        )
    table = scenario.mode is Mode.TABLE
    tokens = (
        [] if table else [t for p in shown(state, observer) if (t := _token(state, observer, p))]
    )
    caption = _table_caption(scenario) if table else _map_caption(scenario)
    return MapView(
        "inches",
        caption,
        width=scenario.table.width,
        depth=scenario.table.depth,
        layers=layers,
        tokens=tokens,
        squares=squares,
        legend=[] if table else side_legend(state, observer),
        focus=focus(state, observer, tokens),
        schematic=table,
    )


def _box(bounds: tuple[float, ...]) -> tuple[tuple[float, float], ...]:
    x0, y0, x1, y1 = bounds
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _zones(state: State, observer: str) -> list[Layer]:
    scenario = state.scenario
    out = []
    for zone in scenario.deployment_zones:
        name = scenario.side_name(zone.side)
        words = say("Deployment zone of {side}", side=name)
        out.append(
            Layer(
                f"zone-{whose(state, observer, zone.side)}",
                words,
                polygons=[zone.outline],
                titles=[words],
            )
        )
    return out


def _found_empty(state: State, observer: str) -> list[str]:
    found = state.board.found_empty
    if observer == REFEREE:
        return sorted({ref for refs in found.values() for ref in refs})
    return list(found.get(observer, ()))


def _token(state: State, observer: str, piece: Piece) -> Token | None:
    if piece.public.get("status") != Status.ON_TABLE.value:
        return None
    models = [
        tuple(m["at"]) for m in piece.public.get("models", []) if m.get("at") and not m.get("lost")
    ]
    if not models:
        return None
    name = str(piece.public.get("name") or piece.public.get("key") or "")
    label = str(piece.public.get("leader") or name)
    radius = float(piece.public.get("base_radius") or 0.5)
    return Token(
        label,
        name,
        token_style(state, observer, piece.owner),
        models[0],
        piece.id,
        models=models,
        radius=radius,
    )


def _map_caption(scenario: GridAmbushScenario) -> Say:
    """The map in the game's own measure: the squares the orders name (DWV-A02), as the
    letters and numbers beside the drawn table show them."""
    grid = scenario.grid
    return say(
        "The table in squares of {size} inches, as the orders name them: columns {first}–{last}, "
        "rows 1–{rows}, marked beside the map; the edge of {near} is at the top. Tap a piece, a "
        "square or an area to see what it is.",
        size=f"{grid.size:g}",
        first=column_letters(0),
        last=column_letters(grid.columns - 1),
        rows=grid.rows,
        near=scenario.side_name(scenario.near_side()),
    )


def _table_caption(scenario: GridAmbushScenario) -> Say:
    """The agreed grid in words (DWV-A03), to check against the real table."""
    grid = scenario.grid
    long = (scenario.table.width >= scenario.table.depth) == grid.along_x
    return say(
        "The real table's grid, as agreed: columns {first}–{last} run along the {edge} edge "
        "from the left, rows 1–{rows} from the edge of {near} (the top edge as drawn). Check it "
        "against the table before the orders are written.",
        first=column_letters(0),
        last=column_letters(grid.columns - 1),
        edge=say("long") if long else say("short"),
        rows=grid.rows,
        near=scenario.side_name(scenario.near_side() if grid.rows_from_near else _far(scenario)),
    )


def _far(scenario: GridAmbushScenario) -> str:
    near = scenario.near_side()
    return next((s for s in scenario.side_ids() if s != near), near)
