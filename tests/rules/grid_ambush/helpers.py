"""Building grid-ambush games for the rules tests, through the public API only.

The map-mode example (``grid-ambush``) is the rule text's 3' x 5' table: the Deathworld
Veterans (``jungle``, first to play) against Space Marines (``marines``). Squares that
matter here: D2 = x [36, 48) × y [12, 24), under the "Green hell" jungle (x 34-50,
y 10-25); B2 holds most of the "Creeper thicket" jungle; A1 has no jungle at all. The
Marines' deployment zone is y 26-36, so row 3 overlaps it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from ghillie import Game, Refusal, examples
from ghillie.events import Event
from ghillie.state import SPECTATOR, Facts
from ghillie.words import speaker
from tests.contract.harness import comparable

JUNGLE, MARINES, ORKS = "jungle", "marines", "orks"

# Sergeant Arvin (model 0, auspex) in D2 at (42, 21); his squad in D3 behind him.
TACTICAL_IN_D2 = [
    [42, 21], [40, 27], [44, 27], [38, 27], [46, 27],
    [40, 29], [42, 29], [44, 29], [38, 29], [46, 29],
]  # fmt: skip
# The same squad with the sergeant in C2 (x < 36) instead.
TACTICAL_IN_C2 = [[30, 21], *TACTICAL_IN_D2[1:]]
# The scouts (no auspex, no scanner) in the middle of D2.
SCOUTS_IN_D2 = [[40, 20], [41.5, 20], [43, 20], [40, 22], [41.5, 22]]
# Sgt. Graw's ten veterans in the jungle of D2, coherent, far from any Marine.
GRAW_IN_D2 = [
    [38, 15], [39.5, 15], [41, 15], [37, 13], [38.5, 13],
    [40, 13], [41.5, 13], [43, 13], [36.5, 11], [38, 11],
]  # fmt: skip


def map_data(**switches: Any) -> dict[str, Any]:
    """The map example, with switches given by their RULES-SPEC names less ``dwv.``."""
    data = examples.data("grid-ambush")
    data["switches"] = {f"dwv.{name}": value for name, value in switches.items()}
    return data


def table_data(**switches: Any) -> dict[str, Any]:
    data = examples.data("grid-ambush-table")
    data["switches"] = {f"dwv.{name}": value for name, value in switches.items()}
    return data


def new_game(data: Mapping[str, Any], seed: int = 1) -> Game:
    return Game.create(data, seed=seed)


def refused(game: Game, side: str, command: Mapping[str, Any]) -> Refusal:
    """The refusal ``command`` gets; the game must be exactly as it was."""
    state, log = game.state, len(game.events())
    with pytest.raises(Refusal) as caught:
        game.command(side, command)
    assert game.state == state, "a refused command changed the game"
    assert len(game.events()) == log
    return caught.value


def record(game: Game, **squares: str) -> Event:
    """The jungle writes its orders: ``record(game, graw="D2", marbo="B2")``."""
    orders = [{"unit": key, "square": sq, "note": f"{key} hides"} for key, sq in squares.items()]
    return game.command(JUNGLE, {"type": "record_ambushes", "orders": orders})


def both_ready(game: Game) -> None:
    for side in game.state.sides:
        game.command(side, {"type": "ready"})


def started(data: Mapping[str, Any] | None = None, seed: int = 1, **squares: str) -> Game:
    """A game in play (turn 1, the jungle to move) with the given ambushes recorded."""
    game = new_game(data if data is not None else map_data(), seed)
    record(game, **squares)
    both_ready(game)
    return game


def end_phases(game: Game, side: str, count: int) -> None:
    for _ in range(count):
        game.command(side, {"type": "end_phase"})


def marines_shooting(game: Game, tactical: list[list[float]] | None = TACTICAL_IN_D2) -> None:
    """From the jungle's turn 1 movement phase to the Marines' shooting phase, the tactical
    squad having moved to ``tactical`` (or not moved)."""
    end_phases(game, JUNGLE, 3)
    if tactical is not None:
        game.command(MARINES, {"type": "move", "unit": "tactical", "models": tactical})
    end_phases(game, MARINES, 1)


def scan(game: Game, side: str = MARINES, unit: str = "tactical", model: int = 0) -> Event:
    return game.command(side, {"type": "scan", "unit": unit, "model": model})


def unit(game: Game, key: str) -> Any:
    """The truth about a unit (what only the referee sees)."""
    return next(p for p in game.state.pieces.values() if p.public.get("key") == key)


def told(event: Event, side: str) -> list[Facts]:
    return list(event.told.get(side, ()))


def said(line: Facts, lang: str = "en") -> str:
    """A told line's words as its reader reads them (the line keeps them as a Say)."""
    return speaker("grid-ambush", lang).text(line.get("text"))


def texts(event: Event, side: str) -> str:
    return " | ".join(said(line) for line in told(event, side))


def seen(game: Game, observer: str) -> str:
    """Everything ``observer`` receives, as one searchable text (commitment digests
    masked, so that two worlds compare: see tests.contract.harness.comparable)."""
    return json.dumps(comparable(game.view(observer)), ensure_ascii=False, sort_keys=True)


def known(game: Game, side: str, key: str) -> dict[str, Any] | None:
    """What ``side``'s view shows of another side's unit, or None if it shows nothing."""
    return next(
        (k for k in game.view(side)["known"] if k["public"].get("key") == key),
        None,
    )


def offered(game: Game, side: str) -> list[str]:
    """The commands ``side``'s view offers now, by name."""
    return [c["type"] for c in game.view(side)["commands"]]


def watchers(game: Game, owner: str) -> list[str]:
    return [s for s in (*game.state.sides, SPECTATOR) if s != owner]
