"""When a suspicious-place marker is removed without an observation: activation, an enemy in
sight of a marker in the open, a marker inside an enemy squad (RULES-SPEC SW-R06..R08;
SW-A05, SW-A14, SW-A15)."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game, Refusal

from .helpers import (
    KENO,
    LIANRA,
    QueuedDice,
    act,
    activate,
    at_table,
    exists,
    known,
    line,
    map_data,
    piece,
    said,
    setup_map,
    setup_table,
    table_data,
    unit,
)

WOOD_SPOT = (36, 36)  # in the birch wood: soft cover, not open terrain
BEHIND_HOUSE = (66, 30)  # open ground that Keno's start positions see only through the house
IN_VIEW = (10, 40)  # open ground in plain view of Keno's start positions


def _exposed(game: Game, side: str = KENO) -> list[dict[str, Any]]:
    return [dict(x) for x in game.events()[-1].told[side] if x["event"] == "exposed"]


# --- SW-R06: activating the hidden squad reveals it ---------------------------------------------


@pytest.mark.spec("SW-R06", "SW-A14")
def test_activating_a_camouflaged_squad_replaces_its_marker_with_the_squad() -> None:
    dice = QueuedDice()
    game = setup_map(map_data(), dice, hidings=[{"marker": "M2", "unit": "borz"}])
    game.command(KENO, {"type": "pass"})
    event = activate(game, LIANRA, "borz")
    told = line(event, KENO)
    assert told["revealed"] == "unit"
    assert told["unit"] == piece(game, "borz").id
    assert not exists(game, "M2")
    borz = known(game, KENO, "borz")
    assert borz is not None
    assert (borz["public"]["status"], borz["public"]["at"]) == ("on_table", list(BEHIND_HOUSE))
    assert game.view(LIANRA)["board"]["activation"]["actions_left"] == 2


@pytest.mark.spec("SW-R06", "SW-R05")
def test_activating_a_hidden_sniper_does_not_reveal_it() -> None:
    dice = QueuedDice()
    game = setup_table(table_data(), dice)
    game.command(KENO, {"type": "pass"})
    event = activate(game, LIANRA, "sniper")
    assert "revealed" not in line(event, KENO)
    assert known(game, KENO, "sniper")["public"]["status"] == "hidden"  # type: ignore[index]
    assert len([k for k in game.view(KENO)["known"] if k["kind"] == "sniper_marker"]) == 3


# --- SW-A14: can a hidden squad act while hidden? -----------------------------------------------


@pytest.mark.spec("SW-A14")
def test_under_activation_reveals_false_the_squad_stays_hidden_until_it_fires() -> None:
    dice = QueuedDice()
    game = setup_table(table_data({"sw.activation_reveals": False}), dice)
    game.command(KENO, {"type": "pass"})
    activate(game, LIANRA, "mg")
    game.command(LIANRA, {"type": "other_action", "what": "hold fire"})
    assert known(game, KENO, "mg")["public"]["status"] == "camouflaged"  # type: ignore[index]
    assert exists(game, "M1")
    event = act(
        game,
        dice,
        LIANRA,
        {"type": "fire", "target": "sergeant", "measured": at_table(20, cover="none")},
        (1, 1, 1),
    )
    assert known(game, KENO, "mg")["public"]["status"] == "on_table"  # type: ignore[index]
    assert not exists(game, "M1")
    assert said(line(event, KENO)).startswith(
        "Machine-gun position comes out from under marker M1 and is placed on its spot. "
        "Machine-gun position fires at Keno regulars (sergeant)"
    )


@pytest.mark.spec("SW-A14")
def test_under_activation_reveals_false_moving_reveals_the_squad() -> None:
    dice = QueuedDice()
    game = setup_table(table_data({"sw.activation_reveals": False}), dice)
    game.command(KENO, {"type": "pass"})
    activate(game, LIANRA, "mg")
    game.command(LIANRA, {"type": "move"})
    assert known(game, KENO, "mg")["public"]["status"] == "on_table"  # type: ignore[index]


# --- SW-R07: an enemy in line of sight of a marker lying in open terrain --------------------------


@pytest.mark.spec("SW-R07")
def test_moving_into_sight_of_a_marker_in_the_open_removes_it() -> None:
    dice = QueuedDice()
    game = setup_map(map_data(), dice, hidings=[{"marker": "M2", "unit": "borz"}])
    activate(game, KENO, "volk")
    assert exists(game, "M2")  # hidden from Volk by the farmhouse
    game.command(KENO, {"type": "move", "to": [66, 10]})  # now east of the house
    found = _exposed(game)
    assert [x["revealed"] for x in found] == ["unit"]
    assert not exists(game, "M2")
    borz = known(game, KENO, "borz")
    assert borz is not None
    assert borz["public"]["at"] == list(BEHIND_HOUSE)
    # M1 lies in the wood, in full view of Volk the whole time: not open terrain.
    assert exists(game, "M1")


@pytest.mark.spec("SW-R07")
def test_a_marker_in_the_open_already_in_sight_when_play_starts_is_removed() -> None:
    dice = QueuedDice()
    game = setup_map(
        map_data(), dice, markers=(WOOD_SPOT, IN_VIEW), hidings=[{"marker": "M2", "unit": "borz"}]
    )
    start = game.events()[-1]  # Lianra's ready: play starts
    found = [x for x in start.told[KENO] if x["event"] == "exposed"]
    assert [x["revealed"] for x in found] == ["unit"]
    assert known(game, KENO, "borz")["public"]["at"] == list(IN_VIEW)  # type: ignore[index]
    assert exists(game, "M1")


@pytest.mark.spec("SW-R07")
def test_at_a_table_the_mover_names_the_markers_its_move_exposed() -> None:
    dice = QueuedDice()
    game = setup_table(table_data(), dice)
    activate(game, KENO, "sergeant")
    game.command(KENO, {"type": "move", "exposes": ["M3"]})
    found = _exposed(game)
    assert found == [
        {
            "event": "exposed",
            "revealed": "nothing",
            "text": found[0]["text"],
            "asserted_by": KENO,
        }
    ]
    assert said(found[0]) == (
        "Marker M3 is removed (Keno regulars (sergeant) moves and exposes it): nothing was there."
    )
    assert _exposed(game, LIANRA) == found  # the claim is on the record for both sides
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {"type": "move", "to": [1, 1]})
    assert refused.value.code == "bad_move"


# --- SW-R08 / SW-A05: a marker inside an enemy squad --------------------------------------------


ASSAULT = unit("assault", KENO, quality="d8", models=8, spacing=3, at=[40, 4])
# Two rows, 3" apart: the squad's centre is 1.5" from the nearest model.


@pytest.mark.spec("SW-R08", "SW-A05")
@pytest.mark.parametrize(
    ("rule", "to", "removed"),
    [
        ("hull_or_contact", [36, 36], True),  # centre on the marker: inside the hull
        ("contact_only", [36, 36], False),  # 1.5" from every model's centre: no contact
        ("contact_only", [36, 37.5], True),  # a model stands on the marker
        ("hull_or_contact", [36, 30], False),  # 6" off
    ],
)
def test_a_marker_inside_an_enemy_squad_is_removed(
    rule: str, to: list[float], removed: bool
) -> None:
    dice = QueuedDice()
    game = setup_map(
        map_data({"sw.inside_squad": rule}, units=[ASSAULT]), dice, pool=(1,), markers=[WOOD_SPOT]
    )
    activate(game, KENO, "assault")
    game.command(KENO, {"type": "move", "to": to})
    assert exists(game, "M1") is not removed
    if removed:
        assert [x["revealed"] for x in _exposed(game)] == ["unit"]


@pytest.mark.spec("SW-R08", "SW-A07")
def test_a_known_minefield_stays_when_a_squad_walks_into_it() -> None:
    dice = QueuedDice()
    game = setup_map(
        map_data(units=[ASSAULT]),
        dice,
        markers=(WOOD_SPOT, (30, 43)),
        hidings=[{"marker": "M1", "content": "mine"}, {"marker": "M2", "unit": "borz"}],
    )
    activate(game, KENO, "assault")
    game.command(KENO, {"type": "move", "to": [36, 36]})
    # SW-A07: exposing a mine leaves a known minefield marker.
    assert [x["revealed"] for x in _exposed(game)] == ["mine"]
    assert known(game, KENO, "M1")["public"]["face"] == "minefield"  # type: ignore[index]
    game.command(KENO, {"type": "move", "to": [36, 36.5]})
    assert _exposed(game) == []


# --- SW-A15: sniper markers and the open-terrain rule -------------------------------------------


RESERVE = unit("reserve", LIANRA, quality="d6", at=[66, 22])  # behind the farmhouse


@pytest.mark.spec("SW-A15")
@pytest.mark.parametrize("reveals", [False, True])
def test_sniper_markers_in_the_open_and_an_enemy_moving_into_sight(reveals: bool) -> None:
    dice = QueuedDice()
    game = setup_map(map_data({"sw.open_sight_reveals_snipers": reveals}, units=[RESERVE]), dice)
    assert len([k for k in game.view(LIANRA)["known"] if k["kind"] == "sniper_marker"]) == 3
    game.command(KENO, {"type": "pass"})
    activate(game, LIANRA, "reserve")
    game.command(LIANRA, {"type": "move", "to": [66, 10]})  # the markers are now in sight
    markers = [k for k in game.view(LIANRA)["known"] if k["kind"] == "sniper_marker"]
    yarov = known(game, LIANRA, "yarov")
    assert yarov is not None
    if reveals:
        assert markers == []
        assert yarov["public"]["status"] == "on_table"
        assert "sniper" in [x["revealed"] for x in _exposed(game, LIANRA)]
    else:
        # DEFAULT: the marker rules do not apply to snipers (SW-R05).
        assert len(markers) == 3
        assert yarov["public"]["status"] == "hidden"
        assert _exposed(game, LIANRA) == []
