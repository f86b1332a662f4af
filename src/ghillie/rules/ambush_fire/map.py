"""The ambush-fire map: the ground drawn as the table it stands for (inches, at the ground
scale), its terrain by what it does (conceals, or cannot be crossed), the units the observer
may see, and — for their owner only — its own standing orders' zones and distances.

A concealed enemy unit is on no one's map but its owner's (BMF S1): ``maps.shown`` gives a
side only what it knows of. The other side's standing orders are never drawn."""

from __future__ import annotations

from collections.abc import Sequence

from shapely.geometry import LineString, Point

from ghillie.maps import Layer, MapView, Shape, Token, inches_map, shown, token_style
from ghillie.scenario import Mode
from ghillie.state import REFEREE, Piece
from ghillie.words import N_, say

from . import facing
from .board import ORDER, UNIT, State
from .geometry import reach
from .scenario import AmbushFireScenario, TerrainArea
from .setup import inches
from .words import describe

XY = tuple[float, float]


def map_view(state: State, observer: str) -> MapView | None:
    scenario = state.scenario
    if scenario.mode is not Mode.MAP:
        return None  # at a real table, the table is the map
    tokens = [t for p in shown(state, observer) if (t := _token(state, observer, p))]
    scale = scenario.ground_scale
    size = (round(scenario.width / scale, 2), round(scenario.depth / scale, 2))
    view = inches_map(state, observer, size, (), tokens)
    layers = [*_terrain(scenario), *_orders(state, observer)]
    legend = [*view.legend]
    return MapView(
        "inches",
        say(
            "Inches across from the left edge and down from the top edge; one inch is {m} m "
            "of ground. A unit's pointer shows the way it faces, the pale wedge its weapon's "
            "arc. Tap a unit or an area to see what it is.",
            m=f"{scale:g}",
        ),
        width=size[0],
        depth=size[1],
        layers=layers,
        tokens=tokens,
        legend=legend,
        focus=view.focus,
    )


def _outline(scenario: AmbushFireScenario, points: Sequence[Sequence[float]]) -> tuple[XY, ...]:
    return tuple(inches(scenario, p) for p in points)


def _terrain(scenario: AmbushFireScenario) -> list[Layer]:
    kinds: dict[tuple[str, bool, bool], list[TerrainArea]] = {}
    for t in scenario.terrain:
        kinds.setdefault((t.kind, t.conceals, t.impassable), []).append(t)
    out = []
    for (kind, conceals, impassable), areas in kinds.items():
        name = kind.replace("_", " ")
        if impassable:
            style, words = "blocks-sight", say("{kind}: impassable", kind=name)
        elif conceals:
            style, words = "soft", say("{kind}: conceals", kind=name)
        else:
            style, words = "ground", say("{kind}: open ground", kind=name)
        out.append(
            Layer(
                style,
                words,
                polygons=[_outline(scenario, a.outline) for a in areas],
                titles=[say("{name} ({what})", name=a.name, what=words) for a in areas],
            )
        )
    return out


def _orders(state: State, observer: str) -> list[Layer]:
    """The observer's own standing orders, each as the area it watches: its zone (a gap or
    a street drawn a few metres wide, a point with its radius) or its distance around its
    unit. The referee sees every side's."""
    polygons: list[tuple[XY, ...]] = []
    titles = []
    for order in state.pieces.values():
        if order.kind != ORDER or (observer != REFEREE and order.owner != observer):
            continue
        unit = state.pieces.get(str(order.secret.get("unit")))
        if unit is None:
            continue
        shape = _watched(state.scenario, order, unit)
        if shape is None:
            continue
        polygons.append(shape)
        titles.append(
            say(
                "Standing order {n}: {unit}. {order}",
                n=order.public["number"],
                unit=unit.public["name"],
                order=str(order.secret.get("order", "")),
            )
        )
    if not polygons:
        return []
    return [Layer("zone-own", N_("What your standing orders watch"), polygons, titles=titles)]


def _watched(scenario: AmbushFireScenario, order: Piece, unit: Piece) -> tuple[XY, ...] | None:
    trigger = order.secret.get("trigger") or {}
    zone = [(float(p[0]), float(p[1])) for p in trigger.get("zone") or []]  # metres
    radius = float(trigger.get("radius") or 0)
    if len(zone) == 1:
        shape = Point(zone[0]).buffer(max(radius, 1.0) + 5)
    elif zone:
        shape = LineString(zone).buffer(max(radius, 5.0))
    else:
        at = unit.public.get("at") or unit.secret.get("at")
        within = trigger.get("within")
        if within is None and order.secret.get("reaction") == "close_combat":
            within = reach(float(unit.secret["running"]["open"]))  # BMF-R15: its reach
        if at is None or within is None:
            return None
        shape = Point(float(at[0]), float(at[1])).buffer(float(within))
    return _outline(scenario, list(shape.exterior.coords))


def _token(state: State, observer: str, piece: Piece) -> Token | None:
    if piece.kind != UNIT:
        return None
    at = piece.public.get("at") or (
        piece.secret.get("at") if observer in (piece.owner, REFEREE) else None
    )
    if at is None:
        return None
    words = describe(state, observer, piece)
    style = token_style(state, observer, piece.owner)
    label = _label(str(piece.public["name"]))
    shape: Shape = "square" if piece.public["class"] == "vehicle" else "disc"
    return Token(
        label,
        words,
        style,
        inches(state.scenario, at),
        piece.id,
        shape=shape,
        radius=0.6,
        # Its facing: the token is drawn only for a reader who may see the unit where it is.
        facing=facing.hull(piece),
        arc=(facing.weapon(piece), float(piece.public["arc"])),
    )


def _label(name: str) -> str:
    """A token's short label: "T-34 (2)" is T2, "Submachine gunners" SG, "PaK 40" P4."""
    words = name.replace("(", " ").replace(")", " ").split()
    number = words[-1] if len(words) > 1 and words[-1].isdigit() else ""
    initials = "".join(w[0] for w in (words[:-1] if number else words)[:2]).upper()
    return (initials[:1] + number) if number else initials
