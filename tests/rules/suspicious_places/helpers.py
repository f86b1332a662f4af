"""Building suspicious-places games for the rules tests.

Every game here is made through the public API (``Game.create``, ``Game.command``,
``Game.view``) with dice fixed in advance: a test queues the rolls a command will make, in
the order the rules make them (observation: target, quality, means; shot: target, quality,
weapon; covert move: quality, then the leadership die if rolled), and checks that the rule
used exactly those rolls.
"""

from __future__ import annotations

import copy
import json
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

from ghillie import Game, examples
from ghillie.events import Event, Roll
from ghillie.state import REFEREE
from ghillie.words import speaker
from tests.contract.harness import comparable

KENO, LIANRA = "keno", "lianra"
SEED = 1

THREE_MARKERS = (
    {"cover": "soft", "open": False},  # M1: a group of trees
    {"cover": "hard", "open": False},  # M2: a ruin
    {"cover": "none", "open": True},  # M3: in the open
)


class QueuedDice:
    """A dice source that hands out queued values and nothing else.

    ``queue(6, 7, 1)`` before a command; ``empty`` afterwards proves that the command rolled
    exactly the dice the test expected. A value that cannot show on the die asked for is an
    error, so a test never passes on a roll of the wrong die.
    """

    def __init__(self, values: Iterable[int] = ()) -> None:
        self._values: deque[int] = deque(values)
        self.asked: list[int] = []  # faces of every die rolled, in order

    def queue(self, *values: int) -> QueuedDice:
        self._values.extend(values)
        return self

    def roll(self, faces: int) -> int:
        if not self._values:
            raise LookupError(f"no queued roll left for a d{faces}")
        value = self._values.popleft()
        if not 1 <= value <= faces:
            raise ValueError(f"queued {value} cannot show on a d{faces}")
        self.asked.append(faces)
        return value

    @property
    def empty(self) -> bool:
        return not self._values


# --- scenarios ---------------------------------------------------------------------------------


def table_data(switches: Mapping[str, Any] | None = None, **changes: Any) -> dict[str, Any]:
    """The sergeant's scenario at a physical table: Keno's sergeant (d8, eyes, 6 models);
    Lianra's camouflaged machine gun and a hidden sniper (d8, leadership d6)."""
    data = copy.deepcopy(examples.data("suspicious-places-table"))
    data.update(changes)
    if switches:
        data["switches"] = dict(switches)
    return data


def add_units(data: dict[str, Any], *units: Mapping[str, Any]) -> dict[str, Any]:
    data["units"] = [*data["units"], *(dict(u) for u in units)]
    return data


def unit(key: str, side: str, **fields: Any) -> dict[str, Any]:
    return {"key": key, "side": side, "name": fields.pop("name", key.title()), **fields}


# A map: a soft wood in the north, a sight-blocking hard farmhouse to the east, open ground.
WOOD = [[28, 30], [46, 30], [46, 44], [28, 44]]
HOUSE = [[54, 18], [62, 18], [62, 26], [54, 26]]


def map_data(
    switches: Mapping[str, Any] | None = None, *, units: Iterable[Mapping[str, Any]] = ()
) -> dict[str, Any]:
    """A map-mode scenario: Keno's squad Volk (5 models in a row, 1.5" apart, centred on
    (36, 6)), Lieutenant Orlov (lone officer) and a hidden sniper Yarov; Lianra's
    camouflaged MG team Borz."""
    data: dict[str, Any] = {
        "ruleset": "suspicious-places",
        "title": "Rules tests on a map",
        "mode": "map",
        "situation": "ambush",
        "ambusher": LIANRA,
        "first": KENO,
        "sides": [{"id": KENO, "name": "Keno army"}, {"id": LIANRA, "name": "Lianra defenders"}],
        "table": {"width": 72, "depth": 48},
        "terrain": [
            {"name": "Birch wood", "kind": "wood", "cover": "soft", "outline": WOOD},
            {
                "name": "Farmhouse",
                "kind": "building",
                "cover": "hard",
                "blocks_sight": True,
                "outline": HOUSE,
            },
        ],
        "units": [
            unit("volk", KENO, quality="d8", models=5, at=[36, 6]),
            unit(
                "orlov",
                KENO,
                kind="lone",
                officer=True,
                quality="d8",
                leadership=4,
                means=["eyes", "binoculars"],
                weapon="d4",
                at=[24, 4],
            ),
            unit(
                "yarov",
                KENO,
                kind="sniper",
                quality="d10",
                leadership=5,
                weapon="d10",
                camouflaged=True,
            ),
            unit("borz", LIANRA, quality="d8", models=3, weapon="d10", camouflaged=True),
            *units,
        ],
    }
    if switches:
        data["switches"] = dict(switches)
    return data


# --- playing -------------------------------------------------------------------------------------


def create(data: Mapping[str, Any], dice: QueuedDice, seed: int = SEED) -> Game:
    return Game.create(data, dice=dice, seed=seed, game_id="test")


def piece_id(game: Game, handle: str) -> str:
    """A piece's id from its label (M1, S2) or a unit's scenario key (referee's eye)."""
    for piece in game.state.pieces.values():
        if handle in (piece.public.get("label"), piece.public.get("key")):
            return piece.id
    raise KeyError(handle)


def piece(game: Game, handle: str) -> Any:
    return game.state.pieces[piece_id(game, handle)]


def exists(game: Game, handle: str) -> bool:
    try:
        piece_id(game, handle)
    except KeyError:
        return False
    return True


def line(event: Event, side: str) -> dict[str, Any]:
    """The one line of ``event`` that ``side`` was told about its command's result."""
    lines = [dict(x) for x in event.told[side]]
    assert lines, f"{side} was told nothing"
    return lines[0]


def said(line: Mapping[str, Any], lang: str = "en") -> str:
    """A told line's sentence as its reader reads it (the line keeps it as data)."""
    return speaker("suspicious-places", lang).text(line["text"])


def rolls(event: Event) -> dict[str, Roll]:
    return {r.label: r for r in event.rolls}


def known(game: Game, side: str, handle: str) -> dict[str, Any] | None:
    """What ``side``'s view says of an enemy piece (None when it is not in the view)."""
    pid = piece_id(game, handle) if exists(game, handle) else handle
    for entry in game.view(side)["known"]:
        if entry["id"] == pid:
            return dict(entry)
    return None


def view_bytes(game: Game, observer: str) -> str:
    """What ``observer`` receives, each proof string as the place it first appeared (two
    worlds compare: tests.contract.harness.comparable)."""
    return json.dumps(comparable(game.view(observer)), sort_keys=True)


def setup_table(
    data: Mapping[str, Any],
    dice: QueuedDice,
    *,
    pool: Iterable[int] = (3,),
    markers: Iterable[Mapping[str, Any]] = THREE_MARKERS,
    hidings: Iterable[Mapping[str, Any]] = ({"marker": "M1", "unit": "mg"},),
    sniper_true: int | None = 0,
    ready: bool = True,
    seed: int = SEED,
) -> Game:
    """Create a table-mode game and run setup: Lianra rolls ``pool`` (d6 per camouflaged
    unit), lays ``markers``, records ``hidings``; its sniper takes markers (true one by
    index); both sides get ready, and Keno has the first activation."""
    dice.queue(*pool)
    game = create(data, dice, seed)
    markers = list(markers)
    if markers:
        game.command(LIANRA, {"type": "place_markers", "markers": markers})
    game.command(LIANRA, {"type": "hide", "hidings": list(hidings)})
    if sniper_true is not None:
        game.command(
            LIANRA, {"type": "place_sniper", "sniper": "sniper", "true_marker": sniper_true}
        )
    if ready:
        game.command(KENO, {"type": "ready"})
        game.command(LIANRA, {"type": "ready"})
    return game


def setup_map(
    data: Mapping[str, Any],
    dice: QueuedDice,
    *,
    pool: Iterable[int] = (2,),
    markers: Iterable[Iterable[float]] = ((36, 36), (66, 30)),
    hidings: Iterable[Mapping[str, Any]] = ({"marker": "M1", "unit": "borz"},),
    sniper: tuple[Iterable[Iterable[float]], int] | None = (((20, 20), (24, 20), (22, 23)), 0),
    ready: bool = True,
    seed: int = SEED,
) -> Game:
    """Create a map-mode game: Lianra lays markers at ``markers`` (by default M1 in the wood
    30" north of Volk, M2 in the open but out of Keno's sight behind the farmhouse), records
    ``hidings``; Keno's sniper takes three markers."""
    dice.queue(*pool)
    game = create(data, dice, seed)
    spots = [list(p) for p in markers]
    if spots:
        game.command(LIANRA, {"type": "place_markers", "markers": [{"at": p} for p in spots]})
    game.command(LIANRA, {"type": "hide", "hidings": list(hidings)})
    if sniper is not None:
        points, true = sniper
        game.command(
            KENO,
            {
                "type": "place_sniper",
                "sniper": "yarov",
                "markers": [list(p) for p in points],
                "true_marker": true,
            },
        )
    if ready:
        game.command(KENO, {"type": "ready"})
        game.command(LIANRA, {"type": "ready"})
    return game


def activate(game: Game, side: str, key: str) -> Event:
    return game.command(side, {"type": "activate", "unit": key})


def end(game: Game, side: str) -> Event:
    return game.command(side, {"type": "end_activation"})


def at_table(rng: float, *, los: bool = True, cover: str | None = None) -> dict[str, Any]:
    measured: dict[str, Any] = {"range": rng, "line_of_sight": los}
    if cover is not None:
        measured["cover"] = cover
    return measured


def act(
    game: Game,
    dice: QueuedDice,
    side: str,
    command: Mapping[str, Any],
    rolls_: Iterable[int] = (),
) -> Event:
    """Give ``command`` with the rolls it makes queued; check it rolled exactly those."""
    dice.queue(*rolls_)
    event = game.command(side, dict(command))
    assert dice.empty, "the command did not roll exactly the dice queued"
    return event


def observe(
    game: Game, dice: QueuedDice, marker: str, rolls_: Iterable[int], **extra: Any
) -> Event:
    """Keno observes ``marker``: rolls are target, quality, means."""
    return act(game, dice, KENO, {"type": "observe", "marker": marker, **extra}, rolls_)


def referee_piece(game: Game, handle: str) -> dict[str, Any]:
    pid = piece_id(game, handle)
    return next(p for p in game.view(REFEREE)["pieces"] if p["id"] == pid)
