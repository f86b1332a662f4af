"""Camouflage setup: when it applies, the marker pool, the secret of what lies under each
marker, and snipers kept out of it (RULES-SPEC SW-R01..R05, SW-A02, SW-A04)."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Refusal
from ghillie.errors import ScenarioError
from ghillie.state import REFEREE

from .helpers import (
    KENO,
    LIANRA,
    THREE_MARKERS,
    QueuedDice,
    add_units,
    create,
    known,
    line,
    map_data,
    piece,
    said,
    setup_table,
    table_data,
    unit,
)


def _refused(game: Any, side: str, command: dict[str, Any]) -> Refusal:
    with pytest.raises(Refusal) as refused:
        game.command(side, command)
    return refused.value


# --- SW-R01: only in an ambush or an attack on a prepared enemy ------------------------------


@pytest.mark.spec("SW-R01")
@pytest.mark.parametrize("situation", ["ambush", "prepared_defence"])
def test_the_ambushing_side_keeps_camouflaged_units_beside_the_table(situation: str) -> None:
    dice = QueuedDice([4])
    game = create(table_data(situation=situation), dice)
    assert dice.empty  # one d6 for the one camouflaged squad (the sniper takes none)
    mg = known(game, KENO, "mg")
    assert mg is not None
    assert mg["public"]["status"] == "camouflaged"  # declared camouflaged, beside the table
    assert mg["public"]["at"] is None
    told = [x for x in game.events()[0].told[KENO] if x["event"] == "camouflage"]
    assert told
    assert told[0]["units"] == [mg["id"]]


@pytest.mark.spec("SW-R01")
def test_camouflage_is_refused_outside_an_ambush_scenario() -> None:
    with pytest.raises(ScenarioError, match="SW-R01"):
        create(table_data(situation="other"), QueuedDice())


@pytest.mark.spec("SW-R01", "SW-A02")
def test_camouflage_needs_the_scenario_to_name_the_ambusher() -> None:
    data = table_data()
    del data["ambusher"]
    with pytest.raises(ScenarioError, match="SW-R01"):
        create(data, QueuedDice())


@pytest.mark.spec("SW-R01")
def test_without_camouflaged_units_nobody_rolls_markers() -> None:
    data = table_data()
    data["units"] = [u for u in data["units"] if u["key"] != "mg"]
    dice = QueuedDice()
    game = create(data, dice)  # no d6 is rolled: LookupError otherwise
    assert dice.asked == []
    assert "place_markers" not in [c["type"] for c in game.view(LIANRA)["commands"]]


# --- SW-A02: which side is "the defending side" ----------------------------------------------


@pytest.mark.spec("SW-A02")
def test_by_default_only_the_ambusher_may_camouflage() -> None:
    data = add_units(table_data(), unit("scouts", KENO, camouflaged=True))
    with pytest.raises(ScenarioError, match="SW-A02"):
        create(data, QueuedDice())


@pytest.mark.spec("SW-A02")
def test_under_ambushed_the_side_being_ambushed_camouflages() -> None:
    data = add_units(
        table_data({"sw.camouflage_side": "ambushed"}), unit("scouts", KENO, camouflaged=True)
    )
    data["units"] = [u for u in data["units"] if u["key"] != "mg"]
    dice = QueuedDice([2])
    game = create(data, dice)
    assert dice.empty
    assert game.view(KENO)["table"]["camouflage_side"] == KENO
    assert game.view(KENO)["board"]["markers_to_place"] == 2
    assert "markers_to_place" not in game.view(LIANRA)["board"]
    with pytest.raises(ScenarioError, match="SW-A02"):
        create(table_data({"sw.camouflage_side": "ambushed"}), QueuedDice([2]))


# --- SW-R02 / SW-A04: d6 markers per camouflaged unit, one pool, all placed ------------------


def _two_squads() -> dict[str, Any]:
    return add_units(table_data(), unit("rifles", LIANRA, quality="d6", camouflaged=True))


@pytest.mark.spec("SW-R02", "SW-A04")
def test_each_camouflaged_unit_brings_a_d6_of_markers_into_one_pool() -> None:
    dice = QueuedDice([3, 5])
    game = create(_two_squads(), dice)
    assert dice.asked == [6, 6]
    board = game.view(LIANRA)["board"]
    assert board["markers_to_place"] == 8
    assert sorted(board["marker_rolls"].values()) == [3, 5]
    # The pool is the owner's own business until the markers are on the table.
    assert "markers_to_place" not in game.view(KENO)["board"]
    assert "marker_rolls" not in game.view(KENO)["board"]
    # Any marker may go anywhere: lay them in two batches, then hide both squads.
    game.command(LIANRA, {"type": "place_markers", "markers": [THREE_MARKERS[0]] * 5})
    assert (
        _refused(game, LIANRA, {"type": "place_markers", "markers": [THREE_MARKERS[2]] * 4}).code
        == "no_markers_left"
    )
    game.command(LIANRA, {"type": "place_markers", "markers": [THREE_MARKERS[2]] * 3})
    game.command(
        LIANRA,
        {
            "type": "hide",
            "hidings": [{"marker": "M8", "unit": "mg"}, {"marker": "M1", "unit": "rifles"}],
        },
    )
    labels = [k["public"]["label"] for k in game.view(KENO)["known"] if k["kind"] == "marker"]
    assert labels == [f"M{n}" for n in range(1, 9)]


@pytest.mark.spec("SW-R02", "SW-A04")
def test_every_rolled_marker_must_be_laid_before_hiding_or_getting_ready() -> None:
    dice = QueuedDice([3])
    game = create(table_data(), dice)
    game.command(LIANRA, {"type": "place_markers", "markers": list(THREE_MARKERS[:2])})
    assert _refused(game, LIANRA, {"type": "ready"}).code == "setup_incomplete"
    refused = _refused(game, LIANRA, {"type": "hide", "hidings": [{"marker": "M1", "unit": "mg"}]})
    assert refused.code == "markers_left"


@pytest.mark.spec("SW-A04")
def test_under_place_all_markers_false_unlaid_markers_may_be_left_in_the_box() -> None:
    dice = QueuedDice([3])
    game = create(table_data({"sw.place_all_markers": False}), dice)
    game.command(LIANRA, {"type": "place_markers", "markers": [THREE_MARKERS[0]]})
    game.command(LIANRA, {"type": "hide", "hidings": [{"marker": "M1", "unit": "mg"}]})
    game.command(LIANRA, {"type": "place_sniper", "sniper": "sniper", "true_marker": 0})
    game.command(KENO, {"type": "ready"})
    game.command(LIANRA, {"type": "ready"})
    assert game.view(KENO)["phase"] == "play"
    assert [k["public"]["label"] for k in game.view(KENO)["known"] if k["kind"] == "marker"] == [
        "M1"
    ]


@pytest.mark.spec("SW-A04")
def test_the_marker_die_is_a_switch() -> None:
    dice = QueuedDice([4])
    game = create(table_data({"sw.markers_per_unit": "d4"}), dice)
    assert dice.asked == [4]
    assert game.view(LIANRA)["board"]["markers_to_place"] == 4


@pytest.mark.spec("SW-A04")
def test_unpooled_markers_belong_to_the_unit_that_rolled_them() -> None:
    data = _two_squads()
    data["switches"] = {"sw.pooled_markers": False}
    dice = QueuedDice([1, 2])
    game = create(data, dice)
    # Each marker names its unit; a unit cannot lay more than it rolled.
    assert (
        _refused(game, LIANRA, {"type": "place_markers", "markers": [THREE_MARKERS[0]]}).code
        == "wrong_group"
    )
    assert (
        _refused(
            game,
            LIANRA,
            {"type": "place_markers", "markers": [{**THREE_MARKERS[0], "group": "mg"}] * 2},
        ).code
        == "wrong_group"
    )
    game.command(
        LIANRA,
        {
            "type": "place_markers",
            "markers": [
                {**THREE_MARKERS[0], "group": "mg"},
                {**THREE_MARKERS[1], "group": "rifles"},
                {**THREE_MARKERS[2], "group": "rifles"},
            ],
        },
    )
    # The rifles cannot sit under the machine gun's marker.
    wrong = {
        "type": "hide",
        "hidings": [{"marker": "M1", "unit": "rifles"}, {"marker": "M2", "unit": "mg"}],
    }
    assert _refused(game, LIANRA, wrong).code == "wrong_group"
    game.command(
        LIANRA,
        {
            "type": "hide",
            "hidings": [{"marker": "M1", "unit": "mg"}, {"marker": "M3", "unit": "rifles"}],
        },
    )
    # Keno sees markers, never whose they are.
    for entry in game.view(KENO)["known"]:
        assert "group" not in entry["public"]


@pytest.mark.spec("SW-A04")
def test_unpooled_markers_are_laid_in_one_order_so_no_batch_tells_whose_they_are() -> None:
    """Issue 24: laid unit by unit, the machine gun's one marker and then the rifles' two
    told Keno which markers were whose, and how many each rolled. They come in one order."""
    data = _two_squads()
    data["switches"] = {"sw.pooled_markers": False}
    game = create(data, QueuedDice([1, 2]))
    mg_only = {"type": "place_markers", "markers": [{**THREE_MARKERS[0], "group": "mg"}]}
    assert _refused(game, LIANRA, mg_only).code == "markers_left"
    mixed = [
        {**THREE_MARKERS[0], "group": "rifles"},
        {**THREE_MARKERS[1], "group": "mg"},
        {**THREE_MARKERS[2], "group": "rifles"},
    ]
    game.command(LIANRA, {"type": "place_markers", "markers": mixed})
    assert "place_markers" not in [c["type"] for c in game.view(LIANRA)["commands"]]


@pytest.mark.spec("SW-A04")
def test_unpooled_markers_still_let_the_scenarios_extra_markers_be_laid() -> None:
    data = table_data({"sw.pooled_markers": False}, extra_markers=1)
    dice = QueuedDice([1])
    game = create(data, dice)
    assert game.view(LIANRA)["board"]["markers_to_place"] == 2
    one_extra = [{**THREE_MARKERS[0], "group": "mg"}, THREE_MARKERS[1], THREE_MARKERS[2]]
    assert (
        _refused(game, LIANRA, {"type": "place_markers", "markers": one_extra[1:]}).code
        == "wrong_group"
    )  # only one marker without a unit: the one extra
    game.command(LIANRA, {"type": "place_markers", "markers": one_extra[:2]})
    game.command(
        LIANRA,
        {
            "type": "hide",
            "hidings": [{"marker": "M1", "unit": "mg"}, {"marker": "M2", "content": "ied"}],
        },
    )
    game.command(LIANRA, {"type": "place_sniper", "sniper": "sniper", "true_marker": 0})
    game.command(LIANRA, {"type": "ready"})
    assert LIANRA in game.view(KENO)["board"]["ready"]


@pytest.mark.spec("SW-R02")
def test_on_a_map_markers_take_their_cover_and_openness_from_the_terrain() -> None:
    game = create(map_data(), QueuedDice([3]))
    game.command(LIANRA, {"type": "place_markers", "markers": [{"at": [36, 36]}, {"at": [10, 40]}]})
    m1, m2 = known(game, KENO, "M1"), known(game, KENO, "M2")
    assert m1 is not None
    assert m2 is not None
    assert (m1["public"]["cover"], m1["public"]["open"]) == ("soft", False)  # in the wood
    assert (m2["public"]["cover"], m2["public"]["open"]) == ("none", True)
    off = {"type": "place_markers", "markers": [{"at": [80, 10]}]}
    assert _refused(game, LIANRA, off).code == "off_table"
    agreed = {"type": "place_markers", "markers": [{"at": [10, 10], "cover": "hard"}]}
    assert _refused(game, LIANRA, agreed).code == "bad_marker"  # the map says, not players


# --- SW-R03: which marker hides which squad, in secret ---------------------------------------


@pytest.mark.spec("SW-R03")
def test_what_lies_under_each_marker_is_recorded_in_secret() -> None:
    game = setup_table(
        table_data(),
        QueuedDice(),
        hidings=[
            {"marker": "M2", "unit": "mg", "note": "behind the broken wall"},
            {"marker": "M1", "content": "mine"},
        ],
        ready=False,
    )
    hide_event = game.events()[2]
    told = line(hide_event, KENO)
    assert set(told) == {"event", "text"}
    assert said(told) == "Lianra defenders records in secret what lies under its markers."
    assert said(line(hide_event, LIANRA)) == (
        "You record in secret what lies under your markers: mines under marker M1, "
        "Machine-gun position under marker M2, and nothing under marker M3."
    )
    text = str(game.view(KENO))
    assert "behind the broken wall" not in text
    for entry in game.view(KENO)["known"]:
        assert "content" not in entry["public"]
        assert "unit" not in entry["public"]
        assert entry["facts"] == {}
    m2 = piece(game, "M2")
    assert (m2.secret["content"], m2.secret["unit"]) == ("unit", piece(game, "mg").id)
    assert piece(game, "mg").secret["marker"] == m2.id


@pytest.mark.spec("SW-R03", "SW-A04")
@pytest.mark.parametrize(
    ("hidings", "code"),
    [
        # Two things under one marker: a marker is the centre of one squad at most.
        ([{"marker": "M1", "unit": "mg"}, {"marker": "M1", "content": "mine"}], "duplicate"),
        ([{"marker": "M1", "unit": "mg"}, {"marker": "M2", "unit": "mg"}], "duplicate"),
        ([{"marker": "M1", "content": "mine"}], "unit_unassigned"),
        ([{"marker": "M1", "unit": "mg", "content": "ied"}], "bad_hiding"),
        ([{"marker": "M1", "unit": "sergeant"}], "not_yours"),
    ],
)
def test_every_camouflaged_squad_sits_under_exactly_one_marker_of_its_own(
    hidings: list[dict[str, str]], code: str
) -> None:
    dice = QueuedDice([3])
    game = create(table_data(), dice)
    game.command(LIANRA, {"type": "place_markers", "markers": list(THREE_MARKERS)})
    assert _refused(game, LIANRA, {"type": "hide", "hidings": hidings}).code == code


@pytest.mark.spec("SW-R03")
def test_the_record_cannot_be_rewritten() -> None:
    game = setup_table(table_data(), QueuedDice(), ready=False)
    again = {"type": "hide", "hidings": [{"marker": "M2", "unit": "mg"}]}
    assert _refused(game, LIANRA, again).code == "not_your_turn"
    assert piece(game, "mg").secret["marker"] == piece(game, "M1").id


@pytest.mark.spec("SW-R03")
def test_a_side_cannot_get_ready_before_recording_its_secret() -> None:
    dice = QueuedDice([3])
    game = create(table_data(), dice)
    game.command(LIANRA, {"type": "place_markers", "markers": list(THREE_MARKERS)})
    assert _refused(game, LIANRA, {"type": "ready"}).code == "setup_incomplete"


# --- SW-R04: mines, IEDs and nothing share the markers ---------------------------------------


@pytest.mark.spec("SW-R04")
def test_a_marker_may_hide_a_mine_an_ied_or_nothing() -> None:
    data = add_units(table_data(), unit("tank", LIANRA, kind="vehicle", camouflaged=True))
    game = setup_table(
        data,
        QueuedDice(),
        pool=(2, 3),
        markers=[THREE_MARKERS[0]] * 5,
        hidings=[
            {"marker": "M1", "unit": "mg"},
            {"marker": "M2", "unit": "tank"},
            {"marker": "M3", "content": "mine"},
            {"marker": "M4", "content": "ied"},
        ],
    )
    contents = {
        p["public"]["label"]: p["secret"]["content"]
        for p in game.view(REFEREE)["pieces"]
        if p["kind"] == "marker"
    }
    # A marker left out of the record hides nothing.
    assert contents == {"M1": "unit", "M2": "unit", "M3": "mine", "M4": "ied", "M5": "nothing"}
    # To Keno, all five are the same face-up suspicious place.
    faces = {k["public"]["face"] for k in game.view(KENO)["known"] if k["kind"] == "marker"}
    assert faces == {"face_up"}


# --- SW-R05: snipers do not use suspicious-place markers -------------------------------------


@pytest.mark.spec("SW-R05")
def test_a_sniper_neither_rolls_markers_nor_hides_under_one() -> None:
    dice = QueuedDice([3])
    game = create(table_data(), dice)
    assert dice.asked == [6]  # the machine gun's d6 only; the hidden sniper rolls none
    game.command(LIANRA, {"type": "place_markers", "markers": list(THREE_MARKERS)})
    refused = _refused(
        game,
        LIANRA,
        {
            "type": "hide",
            "hidings": [{"marker": "M1", "unit": "mg"}, {"marker": "M2", "unit": "sniper"}],
        },
    )
    assert refused.code == "not_camouflaged"
    assert known(game, KENO, "sniper")["public"]["status"] == "hidden"  # type: ignore[index]


@pytest.mark.spec("SW-R05", "SW-R33")
def test_a_hidden_sniper_must_lay_its_own_three_markers_before_ready() -> None:
    game = setup_table(table_data(), QueuedDice(), sniper_true=None, ready=False)
    assert _refused(game, LIANRA, {"type": "ready"}).code == "setup_incomplete"
