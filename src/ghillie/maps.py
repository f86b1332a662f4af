"""A side's map as data: layers of shapes and tokens that the pages draw knowing no ruleset.

A ruleset's ``map_view(state, observer)`` builds one from what that observer may see. The
page draws it in the map's own units — inches on a tabletop, hexes on a printed hex map —
so a tap turns straight into the point, square or hex a command takes.

Styles are a small fixed vocabulary the page's stylesheet knows (``STYLES``): a ruleset picks
among them and says in ``legend`` what each means in its game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ghillie.state import REFEREE, GameState, Piece
from ghillie.words import N_, Say, Speaker, say
from ghillie.words.piece import PieceWords

# Layers: ground by cover, zones, fields and squares. Tokens: whose, and how well known.
STYLES = frozenset(
    {
        "ground",
        "soft",
        "hard",
        "blocks-sight",
        "zone-own",
        "zone-enemy",
        "zone-0",
        "zone-1",
        "field-own",
        "field-enemy",
        "field-0",
        "field-1",
        "field-dropped",
        "square",
        "square-empty",
        "own",
        "enemy",
        "side-0",
        "side-1",
        "counter",
        "true",
        "route",
    }
)
Shape = Literal["disc", "square", "diamond"]


@dataclass(frozen=True)
class Layer:
    style: str
    legend: str | Say  # what the style means here; "" keeps it out of the legend
    polygons: Sequence[Sequence[tuple[float, float]]] = ()  # in inches
    hexes: Sequence[str] = ()  # hex labels
    titles: Sequence[str | Say] = ()  # what a tap on each polygon (or the hexes) says

    def json(self, speaker: Speaker) -> dict[str, Any]:
        out: dict[str, Any] = {"style": self.style, "legend": _words(self.legend, speaker)}
        if self.polygons:
            out["polygons"] = [[list(p) for p in poly] for poly in self.polygons]
        if self.hexes:
            out["hexes"] = list(self.hexes)
        if self.titles:
            out["titles"] = [speaker.text(t) for t in self.titles]
        return out


@dataclass(frozen=True)
class Line:
    """A path drawn on the map, in inches: a route declared and still to be carried out.
    ``name`` lets an order's field snap a tap onto it (``forms.Ask.snap``)."""

    name: str
    style: str
    legend: str | Say  # what the style means here; "" keeps it out of the legend
    points: Sequence[tuple[float, float]]
    title: str | Say = ""  # what a tap on it says

    def json(self, speaker: Speaker) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "style": self.style,
            "points": [list(p) for p in self.points],
        }
        if self.title:
            out["title"] = speaker.text(self.title)
        return out


# slots=True on the tokens: each reader's last view in a live game holds dozens of them
# (benchmarks/memory.py --part served), and a __dict__ costs about 40 bytes each.
@dataclass(frozen=True, slots=True)
class Token:
    """A piece on the map: at a point (inches) or a hex, with its models if it has several."""

    label: str | Say  # short, drawn beside it
    title: str | Say | PieceWords  # what a tap on it says (a piece: its name and state)
    style: str
    at: tuple[float, float] | str
    id: str | None = None
    shape: Shape = "disc"
    models: Sequence[tuple[float, float]] = ()
    radius: float = 0.5
    heading: str | None = None  # the hexside it faces, A to F
    # On an inches map: the way it faces, in degrees clockwise from up the map, and the arc
    # its weapon covers, (the way it points, its width in degrees), if the ruleset has them.
    facing: float | None = None
    arc: tuple[float, float] | None = None

    def json(self, speaker: Speaker) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": speaker.text(self.label),
            "title": _title(self.title, speaker),
            "style": self.style,
            "at": self.at if isinstance(self.at, str) else list(self.at),
            "shape": self.shape,
            "radius": self.radius,
        }
        if self.id is not None:
            out["id"] = self.id
        if self.models:
            out["models"] = [list(m) for m in self.models]
        if self.heading:
            out["heading"] = self.heading
        if self.facing is not None:
            out["facing"] = self.facing
        if self.arc is not None:
            out["arc"] = list(self.arc)
        return out


def _words(words: str | Say, speaker: Speaker) -> str:
    """A caption or a legend's line: a fixed string is an ``N_`` word of the catalogues (the
    map's caption), a ``Say`` a sentence."""
    return speaker.word(words) if isinstance(words, str) and words else speaker.text(words)


def _title(title: str | Say | PieceWords, speaker: Speaker) -> str:
    if not isinstance(title, PieceWords):
        return speaker.text(title)
    words = title.json(speaker)
    return f"{words['name']}: {words['about']}" if words.get("about") else words["name"]


@dataclass(frozen=True)
class MapView:
    """One observer's map. ``inches``: width × depth; ``hexes``: columns × rows, labelled
    column then row ("0412"), ``shifted`` saying which columns sit half a hex lower."""

    units: Literal["inches", "hexes"]
    caption: str | Say
    width: float = 0
    depth: float = 0
    columns: int = 0
    rows: int = 0
    shifted: str = "even"
    layers: Sequence[Layer] = ()
    tokens: Sequence[Token] = ()
    squares: Mapping[str, tuple[float, float, float, float]] = field(default_factory=dict)
    legend: Sequence[tuple[str, str | Say]] = ()  # token styles and what they mean
    focus: Sequence[str] = ()  # ids of the tokens a phone's first zoom shows: one's own
    schematic: bool = False  # a real table's plan (its grid), not a map to play on
    lines: Sequence[Line] = ()  # paths over the ground, under the tokens

    def json(
        self, speaker: Speaker, before: tuple[MapView, dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """The map in words. ``before``: a map drawn for the same reader and its words: a
        layer, token or line drawn as it was in the same place is not worded again (an
        event moves or reveals one piece of many, and the ground never changes)."""
        held, said = before if before is not None else (None, {})
        out: dict[str, Any] = {
            "units": self.units,
            "caption": _words(self.caption, speaker),
            "layers": _parts(
                self.layers, held.layers if held else None, said.get("layers"), speaker
            ),
            "tokens": _parts(
                self.tokens, held.tokens if held else None, said.get("tokens"), speaker
            ),
            "legend": [
                {"style": style, "words": _words(words, speaker)} for style, words in self.legend
            ]
            + [
                {"style": layer.style, "words": _words(layer.legend, speaker)}
                for layer in self.layers
                if layer.legend
            ]
            + [
                {"style": line.style, "words": _words(line.legend, speaker)}
                for line in self.lines
                if line.legend
            ],
        }
        if self.units == "inches":
            out["size"] = [self.width, self.depth]
        else:
            out["hexes"] = {"columns": self.columns, "rows": self.rows, "shifted": self.shifted}
        if self.squares:
            out["squares"] = {ref: list(box) for ref, box in self.squares.items()}
        if self.focus:
            out["focus"] = list(self.focus)
        if self.schematic:
            out["schematic"] = True
        if self.lines:
            out["lines"] = _parts(
                self.lines, held.lines if held else None, said.get("lines"), speaker
            )
        return out


def _parts(
    parts: Sequence[Layer | Token | Line],
    held: Sequence[Layer | Token | Line] | None,
    said: list[dict[str, Any]] | None,
    speaker: Speaker,
) -> list[dict[str, Any]]:
    """Each part in words, those drawn as the part held in the same place reused from what
    was said of it (shared with the view held before, which is never changed in place)."""
    if not held or said is None or len(said) != len(held):
        return [part.json(speaker) for part in parts]
    return [
        said[i] if i < len(held) and (part is held[i] or part == held[i]) else part.json(speaker)
        for i, part in enumerate(parts)
    ]


INCHES_CAPTION = N_(
    "Inches across from the left edge and down from the top edge, as drawn. Tap a piece or "
    "an area to see what it is."
)
HEX_CAPTION = N_("Hexes are numbered column then row. Tap a hex or a piece to see what it is.")


def whose(state: GameState[Any, Any], observer: str, owner: str) -> str:
    """Whose a piece or area is, as ``observer`` sees it: "own" or "enemy", or, for the
    referee and spectators, which side ("0", "1"). Styles are made from it: "zone-own",
    "side-1"."""
    if observer == REFEREE or observer not in state.sides:
        return str(state.sides.index(owner)) if owner in state.sides else "0"
    return "own" if owner == observer else "enemy"


def token_style(state: GameState[Any, Any], observer: str, owner: str) -> str:
    found = whose(state, observer, owner)
    return f"side-{found}" if found.isdigit() else found


def side_legend(state: GameState[Any, Any], observer: str) -> list[tuple[str, str | Say]]:
    """What the token colours mean for this observer."""
    if observer == REFEREE or observer not in state.sides:
        names = [state.scenario.side_name(s) for s in state.sides]
        return [(f"side-{i}", say("Pieces of {side}", side=n)) for i, n in enumerate(names)]
    return [("own", N_("Your pieces")), ("enemy", N_("Enemy pieces you know of"))]


def focus(state: GameState[Any, Any], observer: str, tokens: Sequence[Token]) -> list[str]:
    """The tokens a phone's map first zooms to: the observer's own pieces."""
    return [t.id for t in tokens if t.id and state.pieces[t.id].owner == observer]


def shown(state: GameState[Any, Any], observer: str) -> list[Piece]:
    """The pieces ``observer``'s map may show: every piece for the referee; a side's own and
    those it knows of; for spectators, those every side but the owner knows of."""
    if observer == REFEREE:
        return list(state.pieces.values())
    if observer in state.sides:
        return [p for p in state.pieces.values() if state.can_see(observer, p.id)]
    return [
        p
        for p in state.pieces.values()
        if all(state.can_see(side, p.id) for side in state.sides if side != p.owner)
    ]


def inches_map(
    state: GameState[Any, Any],
    observer: str,
    size: tuple[float, float],
    terrain: Sequence[Any],
    tokens: list[Token],
    legend: list[tuple[str, str | Say]] | None = None,
    lines: Sequence[Line] = (),
) -> MapView:
    """A tabletop in inches: its terrain, the tokens given, the sides' legend (and any more
    ``legend`` rows), opening on the observer's own pieces."""
    return MapView(
        "inches",
        INCHES_CAPTION,
        width=size[0],
        depth=size[1],
        layers=terrain_layers(terrain),
        tokens=tokens,
        legend=[*side_legend(state, observer), *(legend or [])],
        focus=focus(state, observer, tokens),
        lines=lines,
    )


COVER_STYLE = {"none": "ground", "soft": "soft", "hard": "hard"}


def terrain_layers(terrain: Sequence[Any]) -> list[Layer]:
    """Terrain features, one layer per kind, styled by the cover they give."""
    kinds: dict[tuple[str, str, bool], list[Any]] = {}
    for t in terrain:
        kinds.setdefault((t.kind, str(t.cover), bool(t.blocks_sight)), []).append(t)
    out = []
    for (kind, cover, blocks), features in kinds.items():
        style = "blocks-sight" if blocks else COVER_STYLE.get(cover, "ground")
        # The kind is the scenario's word ("wood"); a ruleset whose catalogue has it
        # ("лес") speaks it in the reader's language.
        named = say(kind.replace("{", "{{").replace("}", "}}"))
        words = {
            "ground": say("{kind}: no cover", kind=named),
            "soft": say("{kind}: soft cover", kind=named),
            "hard": say("{kind}: hard cover", kind=named),
            "blocks-sight": say("{kind}: blocks sight", kind=named),
        }[style]
        out.append(
            Layer(
                style,
                words,
                polygons=[tuple(tuple(p) for p in f.outline) for f in features],
                titles=[say("{name} ({what})", name=f.name, what=words) for f in features],
            )
        )
    return out
