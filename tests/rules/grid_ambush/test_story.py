"""The grid-ambush log as a story: every line a side is told is a sentence a player at a
table would say, with no rule codes, ids or code words in it, and it tells each side what
the rules let it know (RULES-SPEC §4.5; DWV-R07, A06)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ghillie import Game
from ghillie.demo import new_game, play
from ghillie.rules.grid_ambush.demo import SCRIPT
from ghillie.state import REFEREE, SPECTATOR
from tests.rules.words_check import SNAKE, SPEC_ID

from .helpers import (
    JUNGLE,
    MARINES,
    SCOUTS_IN_D2,
    TACTICAL_IN_C2,
    TACTICAL_IN_D2,
    end_phases,
    map_data,
    marines_shooting,
    said,
    scan,
    started,
    table_data,
    told,
    watchers,
)

HEX_ID = re.compile(r"\b[0-9a-f]{32}\b")


def _jargon(text: str) -> list[str]:
    """What in a line's words a player at a table would never say."""
    found = []
    if SPEC_ID.search(text):
        found.append("a RULES-SPEC id")
    if "(s)" in text:
        found.append('a plural as "(s)"')
    if SNAKE.search(text) or "_" in text:
        found.append("an underscore word")
    if HEX_ID.search(text):
        found.append("a piece id")
    if re.search(r"[{}]|\bNone\b|\bTrue\b|\bFalse\b", text):
        found.append("a template or a value left unspoken")
    if text[:1].islower():
        found.append("a sentence starting in lower case")
    return found


def _read(game: Game) -> Iterator[tuple[str, Any, str]]:
    """Every line of the log as each side, a spectator and the referee read it:
    (observer, the line as recorded, its words)."""
    for observer in (*game.state.sides, SPECTATOR):
        for entry in game.view(observer)["log"]:
            for line, spoken in zip(entry["lines"], entry["said"], strict=True):
                yield observer, line, spoken["text"]
    for entry in game.view(REFEREE)["log"]:
        for side, lines in entry["told"].items():
            for line, spoken in zip(lines, entry["said"][side], strict=True):
                yield f"{REFEREE} ({side})", line, spoken["text"]


def _demo() -> Game:
    game = new_game(SCRIPT)
    for _ in play(SCRIPT, game):
        pass
    return game


def _empty_scan_then_the_end() -> Game:
    game = started(map_data(unrevealed_at_end="reveal"), graw="B2", marbo="E2")
    marines_shooting(game)
    scan(game)
    game.command(MARINES, {"type": "end_game"})
    return game


def _unreported_scan_then_the_end() -> Game:
    game = started(map_data(report_empty_scan=False, unrevealed_at_end="destroyed"), graw="B2")
    marines_shooting(game)
    scan(game)
    game.command(JUNGLE, {"type": "end_game"})
    return game


def _second_scan_of_a_found_square() -> Game:
    data = map_data()
    tactical = next(u for u in data["units"] if u["key"] == "tactical")
    tactical["models"][1]["wargear"] = ["auspex"]
    game = started(data, graw="A1")
    marines_shooting(game, [[6, 6], [7, 7], *TACTICAL_IN_D2[2:]])
    scan(game, model=0)
    # No jungle in A1: the whole patrol is lost.
    game.command(
        JUNGLE,
        {"type": "set_up", "unit": "graw", "models": [None] * 10, "casualties": [*range(10)]},
    )
    scan(game, model=1)
    game.command(MARINES, {"type": "fire", "unit": "tactical", "weapon": "rapid_fire"})
    return game


def _at_a_table_with_casualties() -> Game:
    game = started(table_data(), graw="D2", harker="B2")
    game.command(JUNGLE, {"type": "reveal", "unit": "graw"})
    game.command(JUNGLE, {"type": "set_up", "unit": "graw", "in_square": 4, "casualties": [2, 9]})
    return game


def _no_orders() -> Game:
    game = started()
    end_phases(game, JUNGLE, 1)
    return game


GAMES: dict[str, Callable[[], Game]] = {
    "the demo": _demo,
    "an empty scan, and the hidden revealed at the end": _empty_scan_then_the_end,
    "a scan unreported, and the hidden destroyed at the end": _unreported_scan_then_the_end,
    "a second scan of a square already found": _second_scan_of_a_found_square,
    "a set-up at a table with casualties": _at_a_table_with_casualties,
    "no ambush orders": _no_orders,
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_line_reads_as_a_player_would_say_it(name: str) -> None:
    game = GAMES[name]()
    read = list(_read(game))
    assert any(line.get("event") != "acted" for _, line, _ in read)
    for observer, line, text in read:
        assert text, f"{observer} was told nothing in words: {line}"
        assert not _jargon(text), f"{observer} read {_jargon(text)}: {text!r}"
        if "text" not in line:
            assert line["event"] == "acted", line
            continue
        # Recorded as a sentence to speak in the reader's language, never as English.
        assert isinstance(line["text"], dict), line
        assert "say" in line["text"], line
        for rule in line["text"].get("rules", ()):
            assert SPEC_ID.fullmatch(rule), rule


# --- who learns what of a scan (RULES-SPEC §4.5) ---------------------------------------------


def _without_words(lines: list[Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in line.items() if k != "text"} for line in lines]


@pytest.mark.spec("DWV-R07")
def test_dwv_r07_a_scan_that_finds_a_unit_tells_its_owner_who_scanned_which_square() -> None:
    game = started(graw="D2")
    marines_shooting(game)
    event = scan(game)
    assert [said(line) for line in told(event, JUNGLE)] == [
        "Sergeant Arvin (Tactical squad Arvin) scans with the auspex and finds Sgt. Graw's "
        "patrol in D2!",
        "Sgt. Graw's patrol must be set up in D2 at once.",
    ]
    # The Marines and the spectators read what the table shows; every side's lines carry
    # the same facts, in words for each.
    for watcher in watchers(game, JUNGLE):
        assert [said(line) for line in told(event, watcher)] == [
            "Sergeant Arvin (Tactical squad Arvin) scans with the auspex: ambushers found in D2!",
            "Sgt. Graw's patrol is found in D2; Deathworld Veterans set it up there at once.",
        ]
        assert _without_words(told(event, watcher)) == _without_words(told(event, JUNGLE))


@pytest.mark.spec("DWV-A07")
def test_dwv_a07_found_in_the_enemy_turn_under_the_option_its_owner_is_told_it_stays_put() -> None:
    game = started(map_data(enemy_turn_reveal="no_move_next_own_turn"), graw="D2")
    marines_shooting(game)
    revealed = told(scan(game), JUNGLE)[1]
    assert said(revealed) == (
        "Sgt. Graw's patrol must be set up in D2 at once. It cannot move in your next turn."
    )


@pytest.mark.spec("DWV-A10")
def test_dwv_a10_a_listed_model_scans_without_a_device_named() -> None:
    game = started(map_data(scanning_models={"space_marines": ["Sergeant Telion"]}), graw="D2")
    end_phases(game, JUNGLE, 3)
    game.command(MARINES, {"type": "move", "unit": "scouts", "models": SCOUTS_IN_D2})
    end_phases(game, MARINES, 1)
    event = scan(game, unit="scouts", model=0)
    assert said(told(event, MARINES)[0]) == (
        "Sergeant Telion (Scout squad Telion) scans: ambushers found in D2!"
    )


@pytest.mark.spec("DWV-A06")
def test_dwv_a06_an_empty_scan_tells_every_side_the_square_it_found_empty() -> None:
    game = started(graw="D2")
    marines_shooting(game, TACTICAL_IN_C2)
    event = scan(game)
    for observer in (*game.state.sides, SPECTATOR):
        (line,) = told(event, observer)
        assert (line["square"], line["found"]) == ("C2", False)
        assert said(line) == (
            "Sergeant Arvin (Tactical squad Arvin) scans with the auspex: no ambushers found in C2."
        )
    assert game.view(MARINES)["board"]["found_empty"] == ["C2"]
