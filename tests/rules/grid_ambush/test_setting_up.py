"""Setting up a revealed ambush with the set_up command (RULES-SPEC DWV-R08, A04, A08, A09;
test case T06): a slip is refused and changes nothing; a model is removed only when it
cannot be set up anywhere, and only once its owner has listed it among the casualties."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghillie import Game, Refusal

from .helpers import (
    GRAW_IN_D2,
    JUNGLE,
    MARINES,
    ORKS,
    TACTICAL_IN_D2,
    end_phases,
    known,
    map_data,
    refused,
    said,
    started,
    table_data,
    texts,
    told,
    unit,
)

MARBO_IN_B2 = [[16, 20]]  # in the Creeper thicket
OPEN_GROUND_IN_B2 = [[20, 12.5]]  # B2 (x 12-24, y 12-24), south of the thicket's edge y = 13
# A 1" x 1" patch of jungle in D2 instead of the Green hell: four bases fit, at its corners.
PATCH_CORNERS = [[41, 16], [42, 16], [41, 17], [42, 17]]
IN_A1_OPEN_GROUND = [[2 + 1.5 * (i % 5), 4 + 1.5 * (i // 5)] for i in range(10)]


def _reveal(game: Game, key: str) -> Any:
    return game.command(JUNGLE, {"type": "reveal", "unit": key})


def _set_up(key: str, models: list[Any] | None = None, **fields: Any) -> dict[str, Any]:
    command: dict[str, Any] = {"type": "set_up", "unit": key, **fields}
    if models is not None:
        command["models"] = models
    return command


def _revealed(key: str, data: dict[str, Any] | None = None, **squares: str) -> Game:
    game = started(data, **squares)
    _reveal(game, key)
    return game


def _lost(game: Game, key: str) -> list[bool]:
    return [m["lost"] for m in unit(game, key).public["models"]]


def _patch_map(*extra: list[list[float]], y: float = 16) -> dict[str, Any]:
    """The map with D2's jungle only the 1" patch x 41-42, y to y + 1 (and ``extra`` jungle)."""
    data = map_data()
    green_hell = data["terrain"][0]
    assert green_hell["name"] == "Green hell"
    green_hell["outline"] = [[41, y], [42, y], [42, y + 1], [41, y + 1]]
    for i, outline in enumerate(extra):
        data["terrain"].append({"name": f"jungle {i}", "kind": "jungle", "outline": outline})
    return data


def _jungle_turn_2_with_arvin_in_d2(game: Game) -> None:
    end_phases(game, JUNGLE, 3)
    game.command(MARINES, {"type": "move", "unit": "tactical", "models": TACTICAL_IN_D2})
    end_phases(game, MARINES, 3)


# --- who sets up -------------------------------------------------------------------------------


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_only_the_owner_sets_up_and_only_the_unit_revealed() -> None:
    game = _revealed("graw", graw="D2", marbo="B2")
    assert refused(game, MARINES, _set_up("graw", GRAW_IN_D2)).code == "not_your_turn"
    assert refused(game, JUNGLE, _set_up("marbo", MARBO_IN_B2)).code == "setup_pending"
    assert refused(game, JUNGLE, {"type": "end_phase"}).code == "not_your_turn"
    short = refused(game, JUNGLE, _set_up("graw", GRAW_IN_D2[:9]))
    assert (short.code, short.field) == ("bad_models", "models")
    counted = refused(game, JUNGLE, _set_up("graw", GRAW_IN_D2, in_square=10))
    assert (counted.code, counted.field) == ("measured_by_map", "in_square")
    game.command(JUNGLE, _set_up("graw", GRAW_IN_D2))


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_the_old_count_of_models_placed_is_no_longer_a_field() -> None:
    game = _revealed("graw", table_data(), graw="D2")
    old = _set_up("graw", placed=10, in_square=4)
    assert refused(game, JUNGLE, old).code == "malformed_command"


# --- a slip is refused, and changes nothing ---------------------------------------------------


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_a_first_model_on_open_ground_is_refused_and_nothing_changes() -> None:
    """The slip from the pages: Marbo tapped onto open ground outside the thicket."""
    game = _revealed("marbo", graw="D2", marbo="B2")
    refusal = refused(game, JUNGLE, _set_up("marbo", OPEN_GROUND_IN_B2))
    assert refusal.code == "not_in_jungle_or_woods"
    assert refusal.field == "models.0"
    assert refusal.detail.startswith(
        "The position of Marbo is open ground: set-up models must be in jungle or woods."
    )
    assert "There is room for it at (" in refusal.detail  # it can be put right
    assert unit(game, "marbo").public["status"] == "revealed"
    assert [c["type"] for c in game.view(JUNGLE)["commands"]] == ["set_up"]
    # Put right, Marbo stands.
    event = game.command(JUNGLE, _set_up("marbo", MARBO_IN_B2))
    assert _lost(game, "marbo") == [False]
    assert texts(event, JUNGLE) == "Marbo is set up in B2."
    assert texts(event, MARINES) == "Marbo appears in B2."


@pytest.mark.spec("DWV-R08")
@pytest.mark.parametrize(
    ("model", "position", "code", "words"),
    [
        (6, [42.5, 9.5], "not_in_jungle_or_woods", "The position of model 7 (veteran) is open"),
        (7, [42, 22.5], "too_near_an_enemy_model", 'model 8 (veteran) is within 1" of an enemy'),
        (8, [47, 23], "out_of_coherency", "Model 9 (veteran) is out of squad coherency"),
        (5, [38, 13], "on_another_base", "model 6 (veteran) is on another model's base"),
        (0, [38, -1], "off_table", "The position of Sgt. Graw is off the table."),
        (0, [29, 17], "not_in_jungle_or_woods", "Sgt. Graw is in ruins, not in jungle or woods"),
    ],
)
def test_dwv_r08_each_condition_broken_is_refused_naming_the_model(
    model: int, position: list[float], code: str, words: str
) -> None:
    game = started(graw="D2")
    _jungle_turn_2_with_arvin_in_d2(game)  # Sergeant Arvin stands at (42, 21)
    _reveal(game, "graw")
    proposed = [[38, 15], [39.5, 15], [41, 15], [38, 13.5], [39.5, 13.5], [41, 13.5],
                [42.5, 13.5], [42.5, 15], [44, 15], [44, 13.5]]  # fmt: skip
    proposed[model] = position
    refusal = refused(game, JUNGLE, _set_up("graw", proposed))
    assert refusal.code == code
    assert refusal.field == f"models.{model}"
    assert words in refusal.detail
    assert not any(_lost(game, "graw"))
    game.command(JUNGLE, _set_up("graw", GRAW_IN_D2))
    assert not any(_lost(game, "graw"))


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_the_first_model_must_be_in_the_recorded_square() -> None:
    game = _revealed("graw", graw="D2")
    # The whole patrol in the jungle just east of D2 (x 48-50 is E2): none in D2.
    east = [[48.6 + (i % 2), 11 + 1.2 * (i // 2)] for i in range(10)]
    refusal = refused(game, JUNGLE, _set_up("graw", east))
    assert refusal.code == "no_model_in_square"
    assert "No model is set up in D2" in refusal.detail
    assert "There is room in D2 at (" in refusal.detail
    assert unit(game, "graw").public["status"] == "revealed"


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_a_model_left_out_that_could_be_set_up_is_refused() -> None:
    game = _revealed("graw", graw="D2")
    command = _set_up("graw", [*GRAW_IN_D2[:9], None], casualties=[9])
    refusal = refused(game, JUNGLE, command)
    assert refusal.code == "can_be_set_up"
    assert refusal.field == "models.9"
    assert refusal.detail.startswith("Model 10 (veteran) can still be set up: there is room")
    # Nor can the whole unit be thrown away while its square has room.
    everyone = _set_up("graw", [None] * 10, casualties=list(range(10)))
    assert refused(game, JUNGLE, everyone).code == "can_be_set_up"


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_casualties_listed_for_a_unit_set_up_whole_are_refused() -> None:
    game = _revealed("graw", graw="D2")
    refusal = refused(game, JUNGLE, _set_up("graw", GRAW_IN_D2, casualties=[3]))
    assert (refusal.code, refusal.field) == ("confirm_casualties", "casualties")
    assert refusal.detail == "No model is removed: every model is set up, so none is a casualty."


# --- models that cannot be set up: removed once confirmed -----------------------------------------


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_models_with_no_room_are_removed_only_once_confirmed() -> None:
    game = _revealed("graw", _patch_map(), graw="D2")
    proposed = [*PATCH_CORNERS, *[None] * 6]
    unconfirmed = refused(game, JUNGLE, _set_up("graw", proposed))
    assert unconfirmed.code == "confirm_casualties"
    assert unconfirmed.field == "casualties"
    assert unconfirmed.detail == (
        "6 models cannot be set up, model 5 (veteran), model 6 (veteran), model 7 (veteran), "
        "model 8 (veteran), model 9 (veteran) and model 10 (veteran): there is no room left "
        'for them in jungle or woods, within 2" of the unit and 1" from enemy models. '
        "Confirm to remove them as casualties."
    )
    # Confirming some other models is refused the same way: it must be exactly those.
    for wrong in ([4, 5, 6, 7, 8], [3, 4, 5, 6, 7, 8, 9], [4, 4, 5, 6, 7, 8, 9]):
        again = refused(game, JUNGLE, _set_up("graw", proposed, casualties=wrong))
        assert again.as_dict() == unconfirmed.as_dict()
    event = game.command(JUNGLE, _set_up("graw", proposed, casualties=[9, 8, 7, 6, 5, 4]))
    assert _lost(game, "graw") == [False] * 4 + [True] * 6
    (mine,) = told(event, JUNGLE)
    assert mine["casualties"] == dict.fromkeys(
        ["4", "5", "6", "7", "8", "9"], "no room left to set it up"
    )
    assert said(mine) == (
        "Sgt. Graw's patrol is set up in D2 with 4 of its 10 models. Removed as casualties: "
        "model 5 (veteran), model 6 (veteran), model 7 (veteran), model 8 (veteran), model 9 "
        "(veteran), and model 10 (veteran), because there is no room left for them in jungle "
        'or woods, within 2" of the unit and 1" from enemy models.'
    )
    # The enemy is told what the table shows: which models appear, how many were lost.
    (theirs,) = told(event, MARINES)
    assert "casualties" not in theirs
    assert (theirs["placed"], theirs["lost"]) == (4, 6)
    assert said(theirs) == (
        "Sgt. Graw's patrol appears in D2: 4 models set up; 6 models could not be set up and "
        "were removed as casualties."
    )
    assert told(event, "spectator") == told(event, MARINES)


@pytest.mark.spec("DWV-T06", "DWV-R08", "DWV-A08")
def test_dwv_t06_only_four_fit_in_d2_so_eight_stand_once_two_are_confirmed_lost() -> None:
    # The patch at D2's edge (y 22.9-23.9), and a jungle strip along D3's edge (y 24-25.5):
    # room outside the square for four more.
    strip = [[36, 24], [48, 24], [48, 25.5], [36, 25.5]]
    game = _revealed("graw", _patch_map(strip, y=22.9), graw="D2")
    corners = [[41, 22.9], [42, 22.9], [41, 23.9], [42, 23.9]]
    outside = [[40, 25], [41, 25.2], [42, 25.2], [43, 25]]
    too_many = [*corners, *outside, [44, 25], [45, 25]]
    refusal = refused(game, JUNGLE, _set_up("graw", too_many))
    assert refusal.code == "too_few_in_square"
    assert refusal.detail.startswith("Only 4 of the 10 models set up are in D2: at least 5")
    proposed = [*corners, *outside, None, None]
    unconfirmed = refused(game, JUNGLE, _set_up("graw", proposed))
    assert unconfirmed.code == "confirm_casualties"
    assert "there is no room left for them in D2, and at least half the unit" in (
        unconfirmed.detail
    )
    event = game.command(JUNGLE, _set_up("graw", proposed, casualties=[8, 9]))
    assert told(event, MARINES)[0]["placed"] == 8
    assert set(told(event, JUNGLE)[0]["casualties"].values()) == {
        "fewer than half the unit would be in the recorded square"
    }
    assert _lost(game, "graw") == [False] * 8 + [True] * 2


near_the_patch = st.tuples(st.integers(76, 90), st.integers(26, 40)).map(
    lambda p: [p[0] / 2, p[1] / 2]
)


@pytest.mark.spec("DWV-R08")
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_dwv_r08_no_set_up_removes_a_model_its_owner_did_not_list(data: st.DataObject) -> None:
    """Whatever is given (on the patch map, where only four models fit), a set-up is refused
    or removes exactly the models listed, which are exactly those given no position."""
    # Some of the patch's corners, given to models in any order; now and then one slip more.
    order = data.draw(st.permutations(range(10)))
    corners = data.draw(st.sampled_from([0, 2, 3, 4, 4, 4]))
    proposed: list[Any] = [None] * 10
    for model, at in zip(order[:corners], PATCH_CORNERS, strict=False):
        proposed[model] = at
    if data.draw(st.integers(0, 3)) == 0:
        proposed[data.draw(st.integers(0, 9))] = data.draw(st.one_of(st.none(), near_the_patch))
    nulls = [i for i, p in enumerate(proposed) if p is None]
    how = data.draw(st.sampled_from(["as left out", "as left out", "one short", "any"]))
    casualties = {"as left out": nulls, "one short": nulls[1:]}.get(how) or data.draw(
        st.lists(st.integers(0, 9), max_size=10)
    )
    command = _set_up("graw", proposed, casualties=casualties)
    try:
        _event, after = _patch_game().trial(JUNGLE, command)
    except Refusal:
        return
    graw = next(p for p in after.pieces.values() if p.public.get("key") == "graw")
    lost = {i for i, m in enumerate(graw.public["models"]) if m["lost"]}
    assert lost == set(casualties)
    assert lost == set(nulls)


_GAMES: dict[str, Game] = {}


def _patch_game() -> Game:
    """Graw revealed on the patch map: one game, only ever tried (``trial`` changes nothing)."""
    if "patch" not in _GAMES:
        _GAMES["patch"] = _revealed("graw", _patch_map(), graw="D2")
    return _GAMES["patch"]


# --- DWV-A09 no first model ----------------------------------------------------------------------


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_no_jungle_in_the_square_removes_the_whole_unit_once_confirmed() -> None:
    game = _revealed("graw", graw="A1")
    # Set up in the open, the owner is told no model can be set up in A1 at all.
    refusal = refused(game, JUNGLE, _set_up("graw", IN_A1_OPEN_GROUND))
    assert refusal.code == "not_in_jungle_or_woods"
    assert "No model can be set up in A1 in jungle or woods" in refusal.detail
    assert "confirm the whole unit as casualties" in refusal.detail
    unconfirmed = refused(game, JUNGLE, _set_up("graw", [None] * 10))
    assert (unconfirmed.code, unconfirmed.field) == ("confirm_casualties", "casualties")
    assert unconfirmed.detail == (
        "Sgt. Graw's patrol cannot be set up: no model of it can be set up in A1 in jungle or "
        'woods, at least 1" from enemy models. Confirm to remove the whole unit, 10 models, '
        "as casualties."
    )
    one = refused(game, JUNGLE, _set_up("graw", [None] * 10, casualties=[0]))
    assert one.as_dict() == unconfirmed.as_dict()
    event = game.command(JUNGLE, _set_up("graw", [None] * 10, casualties=list(range(10))))
    assert said(told(event, JUNGLE)[0]) == (
        "Sgt. Graw's patrol could not be set up: no model of it can be set up in A1 in jungle "
        'or woods, at least 1" from enemy models. The whole unit, 10 models, is removed as '
        "casualties."
    )
    (line,) = told(event, MARINES)
    assert (line["placed"], line["lost"]) == (0, 10)
    assert said(line) == (
        "Sgt. Graw's patrol could not be set up in A1: the whole unit, 10 models, is removed "
        "as casualties."
    )
    graw = known(game, MARINES, "graw")
    assert graw is not None
    assert graw["public"]["status"] == "destroyed"
    assert all(m["lost"] for m in graw["public"]["models"])


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_first_model_any_terrain_switch_sets_the_unit_up_in_the_open() -> None:
    game = _revealed("graw", map_data(first_model="any_terrain"), graw="A1")
    event = game.command(JUNGLE, _set_up("graw", IN_A1_OPEN_GROUND))
    assert told(event, MARINES)[0]["placed"] == 10
    assert known(game, MARINES, "graw")["public"]["status"] == "on_table"  # type: ignore[index]


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_any_terrain_applies_only_when_no_first_model_can_stand_in_jungle() -> None:
    game = _revealed("graw", map_data(first_model="any_terrain"), graw="D2")
    proposed = [*GRAW_IN_D2[:9], [42.5, 9.5]]  # the last in open ground south of the jungle
    refusal = refused(game, JUNGLE, _set_up("graw", proposed))
    assert (refusal.code, refusal.field) == ("not_in_jungle_or_woods", "models.9")


# --- DWV-A04 which models count as in the recorded square ---------------------------------------

# Three wholly inside D2, four with their centres just inside D2 but their bases astride the
# D1/D2 line (y = 12), three in the jungle of D1.
ASTRIDE_THE_LINE = [
    [38, 14], [39.5, 14], [41, 14],
    [38, 12.3], [39.5, 12.3], [41, 12.3], [42.5, 12.3],
    [38, 10.8], [39.5, 10.8], [41, 10.8],
]  # fmt: skip


@pytest.mark.spec("DWV-A04", "DWV-R08")
def test_dwv_a04_a_model_whose_base_centre_is_in_the_square_counts_as_in_it() -> None:
    game = _revealed("graw", graw="D2")
    event = game.command(JUNGLE, _set_up("graw", ASTRIDE_THE_LINE))  # 7 in
    assert told(event, MARINES)[0]["placed"] == 10


@pytest.mark.spec("DWV-A04", "DWV-R08")
def test_dwv_a04_whole_base_switch_counts_only_bases_wholly_inside() -> None:
    game = _revealed("graw", map_data(square_by="whole_base"), graw="D2")
    refusal = refused(game, JUNGLE, _set_up("graw", ASTRIDE_THE_LINE))
    assert refusal.code == "too_few_in_square"
    assert refusal.detail.startswith("Only 3 of the 10 models set up are in D2: at least 5")


# --- at a physical table: the players say which models cannot be set up ----------------------


def _table_revealed(key: str, **switches: Any) -> Game:
    game = started(table_data(**switches), graw="D2", harker="B2")
    _reveal(game, key)
    return game


@pytest.mark.spec("DWV-A08", "DWV-R08")
def test_dwv_a08_at_a_table_too_few_in_the_square_is_refused_not_trimmed() -> None:
    """The slip from the pages: "10 placed, 4 in square" removed 2 models, unnamed."""
    game = _table_revealed("graw")
    refusal = refused(game, JUNGLE, _set_up("graw", in_square=4))
    assert (refusal.code, refusal.field) == ("too_few_in_square", "in_square")
    assert refusal.detail == (
        "Only 4 of the 10 models set up are in D2: at least 5 must be. Set more up in D2, or "
        "list a model that cannot be set up anywhere among the casualties."
    )
    assert not any(_lost(game, "graw"))
    # The owner says which two could not be set up: those, and only those, are removed.
    event = game.command(JUNGLE, _set_up("graw", in_square=4, casualties=[2, 9]))
    assert _lost(game, "graw") == [False, False, True] + [False] * 6 + [True]
    (mine,) = told(event, JUNGLE)
    assert said(mine) == (
        "Sgt. Graw's patrol is set up in D2 with 8 of its 10 models. Removed as casualties: "
        "model 3 (veteran) and model 10 (veteran), as you said they could not be set up."
    )
    (theirs,) = told(event, ORKS)
    assert (theirs["placed"], theirs["lost"]) == (8, 2)
    assert said(theirs) == (
        "Sgt. Graw's patrol appears in D2: 8 models set up; 2 models could not be set up and "
        "were removed as casualties."
    )


@pytest.mark.spec("DWV-A08")
def test_dwv_a08_half_rounding_down_switch_lets_an_odd_unit_keep_one_more() -> None:
    up, down = _table_revealed("harker"), _table_revealed("harker", half_rounding="down")
    assert refused(up, JUNGLE, _set_up("harker", in_square=2)).code == "too_few_in_square"
    assert told(down.command(JUNGLE, _set_up("harker", in_square=2)), ORKS)[0]["placed"] == 5
    assert (
        told(up.command(JUNGLE, _set_up("harker", in_square=2, casualties=[4])), ORKS)[0]["placed"]
        == 4
    )


@pytest.mark.spec("DWV-A08", "DWV-R08")
@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"in_square": 11}, "in_square"),
        ({"in_square": 5, "casualties": [4, 5, 6, 7, 8, 9]}, "in_square"),
        ({"in_square": 3, "casualties": [10]}, "casualties"),
        ({"in_square": 3, "casualties": [8, 8]}, "casualties"),
        ({"casualties": [9]}, "in_square"),
        ({"models": GRAW_IN_D2, "in_square": 10}, "models"),
    ],
)
def test_dwv_a08_at_a_table_counts_and_lists_that_cannot_be_true_are_refused(
    fields: dict[str, Any], field: str
) -> None:
    game = _table_revealed("graw")
    refusal = refused(game, JUNGLE, _set_up("graw", **fields))
    assert (refusal.code, refusal.field) == ("bad_models", field)


@pytest.mark.spec("DWV-A09", "DWV-R08")
def test_dwv_a09_at_a_table_the_whole_unit_is_lost_only_if_every_model_is_listed() -> None:
    game = _table_revealed("graw")
    refusal = refused(game, JUNGLE, _set_up("graw", in_square=0))
    assert (refusal.code, refusal.field) == ("no_model_in_square", "in_square")
    event = game.command(JUNGLE, _set_up("graw", casualties=list(range(10))))
    assert unit(game, "graw").public["status"] == "destroyed"
    assert said(told(event, JUNGLE)[0]) == (
        "Sgt. Graw's patrol could not be set up: no model of it could be set up in D2. The "
        "whole unit, 10 models, is removed as casualties."
    )


# --- what the log says ---------------------------------------------------------------------------


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_set_up_lines_are_plain_words_without_spec_ids_or_field_names() -> None:
    game = _revealed("graw", _patch_map(), graw="D2")
    event = game.command(
        JUNGLE, _set_up("graw", [*PATCH_CORNERS, *[None] * 6], casualties=[4, 5, 6, 7, 8, 9])
    )
    for observer in (JUNGLE, MARINES, "spectator"):
        text = texts(event, observer)
        assert text
        for jargon in ("DWV-", "in_square", "set_up", "null", "None", "[", "{"):
            assert jargon not in text, f"{observer} was told {jargon!r}"
        assert not re.search(r"models\.\d", text)
