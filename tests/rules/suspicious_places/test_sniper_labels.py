"""A sniper's markers are labelled in the order the player laid them (issue 26, item 8): S1
is the first marker laid, so "the sniper is under the second marker" is S2, on the map and in
every list. The labels the enemy sees depend only on that public order, never on which
marker is true (RULES-SPEC SW-R33); hiding again, whose true marker is laid first by the
rule itself (SW-R37 DEFAULT), keeps its labels in no such order."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game

from .helpers import (
    KENO,
    LIANRA,
    QueuedDice,
    act,
    activate,
    create,
    map_data,
    setup_map,
    view_bytes,
)
from .test_snipers import RESERVE, YAROV_SPOTS

SPOTS = ((20, 20), (24, 20), (22, 23))


def _laid(true: int, seed: int = 1) -> Game:
    data = {**map_data(), "sniper_labels": "laid"}  # as every bundled scenario says
    return setup_map(data, QueuedDice(), sniper=(SPOTS, true), seed=seed)


def _labels(game: Game, observer: str, key: str) -> dict[str, Any]:
    pieces = game.view(observer)[key]
    return {p["public"]["label"]: p for p in pieces if p["kind"] == "sniper_marker"}


@pytest.mark.spec("SW-R33")
@pytest.mark.parametrize("true", [0, 1, 2])
@pytest.mark.parametrize("seed", [0, 5, 7, 9])  # ids drawn in other orders
def test_sniper_markers_are_labelled_in_the_order_laid(true: int, seed: int) -> None:
    game = _laid(true, seed)
    mine = _labels(game, KENO, "pieces")
    assert [mine[f"S{n}"]["public"]["at"] for n in (1, 2, 3)] == [list(p) for p in SPOTS]
    assert mine[f"S{true + 1}"]["secret"]["true"]
    theirs = _labels(game, LIANRA, "known")
    assert [theirs[f"S{n}"]["public"]["at"] for n in (1, 2, 3)] == [list(p) for p in SPOTS]
    # The owner is told the label of the marker chosen: "the second marker" is S2.
    told = " ".join(str(line) for line in game.view(KENO)["log"])
    assert f"he is really under S{true + 1}" in told


@pytest.mark.spec("SW-R33")
def test_the_enemy_reads_the_same_labels_whichever_marker_is_true() -> None:
    assert len({view_bytes(_laid(true), LIANRA) for true in range(3)}) == 1


@pytest.mark.spec("SW-R37")
def test_hiding_again_does_not_label_the_true_marker_first() -> None:
    firsts = set()
    for seed in range(6):
        dice = QueuedDice()
        dice.queue(2)  # Lianra's markers
        game = create(map_data(units=[RESERVE]), dice, seed)
        game.command(
            LIANRA, {"type": "place_markers", "markers": [{"at": [36, 36]}, {"at": [66, 30]}]}
        )
        game.command(LIANRA, {"type": "hide", "hidings": [{"marker": "M1", "unit": "borz"}]})
        game.command(
            KENO,
            {
                "type": "place_sniper",
                "sniper": "yarov",
                "true_marker": 1,
                "markers": [list(p) for p in YAROV_SPOTS],
            },
        )
        game.command(KENO, {"type": "ready"})
        game.command(LIANRA, {"type": "ready"})
        activate(game, KENO, "yarov")
        act(game, dice, KENO, {"type": "fire", "target": "reserve"}, (3, 1, 7))  # seen
        game.command(
            KENO,
            {"type": "rehide", "passed_reaction_test": True, "markers": [[47, 16], [49, 20]]},
        )
        mine = _labels(game, KENO, "pieces")
        first = min(mine, key=lambda label: int(label[1:]))
        firsts.add(mine[first]["secret"]["true"])
    assert firsts == {True, False}
