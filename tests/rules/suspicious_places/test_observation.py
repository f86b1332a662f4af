"""Observation (RULES-SPEC SW-R09..R14, SW-T07, T08, T10; SW-A03, A06, A07, A10, A13)."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game, Refusal

from .helpers import (
    KENO,
    LIANRA,
    QueuedDice,
    activate,
    add_units,
    at_table,
    exists,
    known,
    line,
    map_data,
    observe,
    piece,
    rolls,
    setup_map,
    setup_table,
    table_data,
    unit,
)

OPEN = {"cover": "none", "open": False}
# Markers all in no cover, so at 10" the range die is a d4; the sergeant rolls d8 + d4.
NEAR = at_table(10)
H0 = (4, 4, 2)  # target 4; quality 4 (a tie), means 2: no die higher
H1 = (3, 5, 2)  # target 3; quality 5 higher, means 2 not
H2 = (2, 5, 3)  # target 2; both higher
BY_H = {0: H0, 1: H1, 2: H2}


def _game(
    hidings: list[dict[str, Any]],
    switches: dict[str, Any] | None = None,
    *,
    data: dict[str, Any] | None = None,
    sniper_true: int = 0,
) -> tuple[Game, QueuedDice]:
    dice = QueuedDice()
    data = data or table_data(switches)
    game = setup_table(data, dice, markers=[OPEN] * 3, hidings=hidings, sniper_true=sniper_true)
    activate(game, KENO, "sergeant")
    return game, dice


def _with_vehicle() -> dict[str, Any]:
    return add_units(table_data(), unit("tank", LIANRA, kind="vehicle", camouflaged=True))


# --- SW-R14: the result table --------------------------------------------------------------------


@pytest.mark.spec("SW-R14")
@pytest.mark.parametrize("kind", ["squad", "vehicle"])
@pytest.mark.parametrize(
    ("h", "result", "face", "level", "status"),
    [
        (0, "no_change", "face_up", "suspected", "camouflaged"),
        (1, "flipped", "flipped", "detected", "camouflaged"),
        (2, "revealed", None, None, "on_table"),
    ],
)
def test_people_or_vehicles_under_the_marker(
    kind: str, h: int, result: str, face: str | None, level: str | None, status: str
) -> None:
    hidden = "mg" if kind == "squad" else "tank"
    hidings = [{"marker": "M1", "unit": hidden}]
    data = table_data()
    if kind == "vehicle":
        data = _with_vehicle()
        hidings.append({"marker": "M2", "unit": "mg"})
    dice = QueuedDice()
    pool = (3,) if kind == "squad" else (1, 2)
    game = setup_table(data, dice, pool=pool, markers=[OPEN] * 3, hidings=hidings)
    activate(game, KENO, "sergeant")
    event = observe(game, dice, "M1", BY_H[h], measured=NEAR)
    assert line(event, KENO)["result"] == result
    marker = known(game, KENO, "M1")
    if face is None:
        assert marker is None
        assert not exists(game, "M1")
        assert line(event, KENO)["unit"] == piece(game, hidden).id
    else:
        assert marker is not None
        assert (marker["public"]["face"], marker["level"]) == (face, level)
    seen = known(game, KENO, hidden)
    assert seen is not None
    assert seen["public"]["status"] == status


@pytest.mark.spec("SW-R14", "SW-A07")
@pytest.mark.parametrize("content", ["mine", "ied"])
@pytest.mark.parametrize(("h", "result"), [(0, "no_change"), (1, "no_change"), (2, "revealed")])
def test_mines_and_ieds_under_the_marker(content: str, h: int, result: str) -> None:
    game, dice = _game([{"marker": "M1", "content": content}, {"marker": "M2", "unit": "mg"}])
    event = observe(game, dice, "M1", BY_H[h], measured=NEAR)
    told = line(event, KENO)
    assert told["result"] == result
    marker = known(game, KENO, "M1")
    assert marker is not None  # a mined place is never simply removed
    if h < 2:
        assert (marker["public"]["face"], marker["level"]) == ("face_up", "suspected")
        assert "revealed" not in told
    else:
        # SW-A07 DEFAULT: a known minefield marker replaces it.
        assert marker["public"]["face"] == "minefield"
        assert marker["public"]["content"] == content
        assert marker["level"] == "identified"
        assert told["revealed"] == content


@pytest.mark.spec("SW-R14", "SW-T08")
@pytest.mark.parametrize(("h", "result"), [(0, "no_change"), (1, "revealed"), (2, "revealed")])
def test_nothing_under_the_marker(h: int, result: str) -> None:
    game, dice = _game([{"marker": "M2", "unit": "mg"}])
    event = observe(game, dice, "M1", BY_H[h], measured=NEAR)
    told = line(event, KENO)
    assert told["result"] == result
    if h:
        assert told["revealed"] == "nothing"
        assert not exists(game, "M1")
        assert known(game, KENO, "M1") is None
    else:
        assert known(game, KENO, "M1") is not None


@pytest.mark.spec("SW-T07", "SW-R14")
def test_a_tie_is_not_higher() -> None:
    data = add_units(table_data(), unit("spotters", KENO, quality="d8", means=["stereo"]))
    game = setup_table(data, dice := QueuedDice(), hidings=[{"marker": "M1", "unit": "mg"}])
    activate(game, KENO, "spotters")
    # Target 5 against 5 and 5: no die higher, no change.
    event = observe(game, dice, "M1", (5, 5, 5), measured=at_table(30))
    assert rolls(event)["target"].die == "d10"
    assert rolls(event)["means"].die == "d8"
    assert line(event, KENO)["result"] == "no_change"
    # Target 5 against 6 and 5: one higher, one tied — flipped.
    event = observe(game, dice, "M1", (5, 6, 5), measured=at_table(30))
    assert line(event, KENO)["result"] == "flipped"


@pytest.mark.spec("SW-R14", "SW-R09")
def test_a_flipped_marker_stays_flipped_until_a_full_success() -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}])
    observe(game, dice, "M1", H1, measured=NEAR)
    event = observe(game, dice, "M1", H1, measured=NEAR)
    assert line(event, KENO)["result"] == "flipped"
    game.command(KENO, {"type": "end_activation"})
    game.command(LIANRA, {"type": "pass"})
    game.command(KENO, {"type": "pass"})  # turn 2
    activate(game, KENO, "sergeant")
    marker = known(game, KENO, "M1")
    assert marker is not None
    assert marker["public"]["face"] == "flipped"
    event = observe(game, dice, "M1", H0, measured=NEAR)
    assert line(event, KENO)["result"] == "no_change"
    assert known(game, KENO, "M1")["public"]["face"] == "flipped"  # type: ignore[index]
    event = observe(game, dice, "M1", H2, measured=NEAR)
    assert line(event, KENO)["revealed"] == "unit"


# --- SW-R09 on a map: the squad is placed centred on the marker's spot ---------------------------


@pytest.mark.spec("SW-R09", "SW-R03")
def test_a_successful_observation_places_the_squad_centred_on_the_marker() -> None:
    dice = QueuedDice()
    game = setup_map(map_data(), dice)
    activate(game, KENO, "volk")
    # Volk (x 33..39, y 6) to M1 at (36, 36) in the wood: 30" and soft cover, a d10.
    event = observe(game, dice, "M1", (3, 5, 4))
    assert line(event, KENO)["range_die"] == "d10"
    borz = known(game, KENO, "borz")
    assert borz is not None
    assert borz["public"]["at"] == [36, 36]
    assert borz["public"]["status"] == "on_table"


# --- SW-R10: an action of the observer's own activation, aimed at one marker, in sight ---------


@pytest.mark.spec("SW-R10")
def test_observation_needs_an_activation_and_targets_an_enemy_marker() -> None:
    dice = QueuedDice()
    game = setup_table(table_data(), dice)
    command = {"type": "observe", "marker": "M1", "measured": NEAR}
    with pytest.raises(Refusal) as refused:
        game.command(KENO, command)  # not activated yet
    assert refused.value.code == "not_your_turn"
    with pytest.raises(Refusal) as refused:
        game.command(LIANRA, command)  # not Lianra's turn
    assert refused.value.code == "not_your_turn"
    activate(game, KENO, "sergeant")
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {**command, "marker": "mg"})  # a unit, not a marker
    assert refused.value.code == "wrong_kind"
    observe(game, dice, "M1", H0, measured=NEAR)
    assert game.view(KENO)["board"]["activation"]["actions_left"] == 1


@pytest.mark.spec("SW-R10", "SW-A06")
def test_observation_needs_line_of_sight_by_default() -> None:
    game, _dice = _game([{"marker": "M1", "unit": "mg"}])
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {"type": "observe", "marker": "M1", "measured": at_table(10, los=False)})
    assert refused.value.code == "no_line_of_sight"
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {"type": "observe", "marker": "M1", "measured": {"range": 10}})
    assert refused.value.code == "measurement_required"  # sight must be judged at the table
    assert game.view(KENO)["board"]["activation"]["actions_left"] == 2


@pytest.mark.spec("SW-A06")
def test_under_observe_needs_los_false_an_unseen_marker_may_be_observed() -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}], {"sw.observe_needs_los": False})
    event = observe(game, dice, "M1", H1, measured={"range": 10})
    assert line(event, KENO)["result"] == "flipped"


@pytest.mark.spec("SW-A06", "SW-R10")
@pytest.mark.parametrize(("needs", "allowed"), [(True, False), (False, True)])
def test_on_a_map_a_building_blocks_observation(needs: bool, allowed: bool) -> None:
    dice = QueuedDice()
    # M2 at (66, 30) lies in the open, but Volk sees it only through the farmhouse.
    game = setup_map(map_data({"sw.observe_needs_los": needs}), dice)
    activate(game, KENO, "volk")
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {"type": "observe", "marker": "M1", "measured": {"range": 3}})
    assert refused.value.code == "measured_by_map"  # on a map nothing is entered
    if allowed:
        event = observe(game, dice, "M2", (1, 1, 1))
        assert line(event, KENO)["result"] == "no_change"
        assert line(event, KENO)["measured_by"] == "map"
    else:
        with pytest.raises(Refusal) as refused:
            game.command(KENO, {"type": "observe", "marker": "M2"})
        assert refused.value.code == "no_line_of_sight"


# --- SW-R11: the range die ------------------------------------------------------------------------


TABLE_COVERS = [
    {"cover": "none", "open": True},  # M1
    {"cover": "soft", "open": False},  # M2
    {"cover": "hard", "open": False},  # M3
]
MARKER_BY_COVER = {"none": "M1", "soft": "M2", "hard": "M3"}


@pytest.mark.spec("SW-R11", "SW-A03")
@pytest.mark.parametrize(
    ("distance", "cover", "die"),
    [
        (0.5, "none", "d4"),
        (12, "none", "d4"),  # exactly 12" is still zone 1 (SW-A03 DEFAULT)
        (12.5, "none", "d6"),
        (24, "none", "d6"),
        (30, "soft", "d10"),  # the sergeant's example
        (30, "hard", "d12"),
        (48, "hard", "d12+1"),
        (60, "hard", "d12+2"),  # SW-T10
    ],
)
def test_range_die_is_a_step_per_twelve_inches_plus_cover(
    distance: float, cover: str, die: str
) -> None:
    dice = QueuedDice()
    game = setup_table(
        table_data(), dice, markers=TABLE_COVERS, hidings=[{"marker": "M1", "unit": "mg"}]
    )
    activate(game, KENO, "sergeant")
    event = observe(game, dice, MARKER_BY_COVER[cover], (1, 1, 1), measured=at_table(distance))
    assert line(event, KENO)["range_die"] == die
    assert rolls(event)["target"].die == die


@pytest.mark.spec("SW-T10", "SW-A01")
@pytest.mark.parametrize(
    ("overflow", "die", "target"),
    [("d12_plus", "d12+2", 12), ("d20_then_plus", "d20+1", 20), ("cap_d12", "d12", 12)],
)
def test_sixty_inches_into_hard_cover_under_each_overflow(
    overflow: str, die: str, target: int
) -> None:
    dice = QueuedDice()
    game = setup_table(
        table_data({"sw.overflow": overflow}),
        dice,
        markers=TABLE_COVERS,
        hidings=[{"marker": "M1", "unit": "mg"}],
    )
    activate(game, KENO, "sergeant")
    # The target's die shows its top face: the bonus is added to what the die showed.
    event = observe(game, dice, "M3", (target, 8, 4), measured=at_table(60))
    roll = rolls(event)["target"]
    assert (roll.die, roll.face) == (die, target)
    assert roll.value == target + {"d12+2": 2, "d20+1": 1, "d12": 0}[die]
    assert line(event, LIANRA)["target"] == roll.value


@pytest.mark.spec("SW-A03")
@pytest.mark.parametrize(
    ("boundary", "at12", "at24"), [("ceil", "d4", "d6"), ("floor_plus_one", "d6", "d8")]
)
def test_the_zone_boundary_switch(boundary: str, at12: str, at24: str) -> None:
    dice = QueuedDice()
    game = setup_table(
        table_data({"sw.zone_boundary": boundary}),
        dice,
        markers=TABLE_COVERS,
        hidings=[{"marker": "M2", "unit": "mg"}],
    )
    activate(game, KENO, "sergeant")
    first = observe(game, dice, "M1", (4, 1, 1), measured=at_table(12))
    second = observe(game, dice, "M1", (4, 1, 1), measured=at_table(24))
    assert (line(first, KENO)["range_die"], line(second, KENO)["range_die"]) == (at12, at24)


@pytest.mark.spec("SW-R11")
def test_on_a_map_the_range_and_cover_come_from_the_map() -> None:
    dice = QueuedDice()
    game = setup_map(map_data(), dice, markers=((36, 36), (36, 42)))
    activate(game, KENO, "volk")
    near = observe(game, dice, "M1", (1, 1, 1))  # 30" into the wood: d8 + soft
    far = observe(game, dice, "M2", (1, 1, 1))  # 36" into the wood: d8 + soft
    assert line(near, KENO)["range_die"] == "d10"
    assert line(far, KENO)["range_die"] == "d10"
    game.command(KENO, {"type": "end_activation"})
    game.command(LIANRA, {"type": "pass"})
    activate(game, KENO, "orlov")  # Orlov at (24, 4): 39.8" to M2, zone 4, +1 soft
    event = observe(game, dice, "M2", (1, 1, 1))
    assert line(event, KENO)["range_die"] == "d12"


# --- SW-R12: the owner's range die is rolled for every marker ----------------------------------


@pytest.mark.spec("SW-R12")
@pytest.mark.parametrize("marker", ["M1", "M2", "M3"])
def test_the_range_die_is_rolled_in_secret_whatever_lies_under_the_marker(marker: str) -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}, {"marker": "M2", "content": "mine"}])
    event = observe(game, dice, marker, H0, measured=NEAR)  # unit, mine, nothing
    roll = rolls(event)["target"]
    assert roll.secret
    assert not roll.entered
    assert roll.die == "d4"
    assert "target" not in line(event, KENO)
    assert line(event, LIANRA)["target"] == 4  # the owner sees what "he" rolled


@pytest.mark.spec("SW-R12", "SW-A13")
def test_the_range_die_cannot_be_entered_by_the_observer() -> None:
    game, _dice = _game([{"marker": "M1", "unit": "mg"}])
    with pytest.raises(Refusal) as refused:
        game.command(
            KENO,
            {"type": "observe", "marker": "M1", "measured": NEAR, "rolls": {"target": 1}},
        )
    assert refused.value.code == "malformed_command"


@pytest.mark.spec("SW-A13")
def test_under_range_die_open_the_observer_sees_the_target_roll() -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}], {"sw.range_die": "open"})
    event = observe(game, dice, "M1", H1, measured=NEAR)
    assert line(event, KENO)["target"] == 3
    assert not rolls(event)["target"].secret


# --- SW-R13: quality die and observation means ------------------------------------------------


@pytest.mark.spec("SW-R13")
@pytest.mark.parametrize(
    ("means", "die"),
    [("eyes", "d4"), ("binoculars", "d6"), ("stereo", "d8"), ("electronic", "d10")],
)
def test_the_observer_rolls_its_quality_die_and_its_means_die(means: str, die: str) -> None:
    spotters = unit(
        "spotters", KENO, quality="d6", means=["eyes", "binoculars", "stereo", "electronic"]
    )
    game = setup_table(add_units(table_data(), spotters), dice := QueuedDice())
    activate(game, KENO, "spotters")
    event = observe(game, dice, "M1", (1, 1, 1), measured=at_table(30), means=means)
    assert (rolls(event)["quality"].die, rolls(event)["means"].die) == ("d6", die)
    assert line(event, KENO)["means"] == means


@pytest.mark.spec("SW-R13")
def test_without_a_named_means_the_best_one_is_used_and_missing_means_are_refused() -> None:
    orlov = unit("orlov", KENO, kind="lone", means=["eyes", "binoculars"])
    game = setup_table(add_units(table_data(), orlov), dice := QueuedDice())
    activate(game, KENO, "orlov")
    event = observe(game, dice, "M1", (1, 1, 6), measured=at_table(30))
    assert rolls(event)["means"].die == "d6"
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {"type": "observe", "marker": "M1", "measured": NEAR, "means": "stereo"})
    assert refused.value.code == "no_such_means"


@pytest.mark.spec("SW-R13")
def test_the_observer_may_enter_the_dice_rolled_at_the_table() -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}])
    dice.queue(3)  # only the target's die comes from ghillie
    event = game.command(
        KENO,
        {"type": "observe", "marker": "M1", "measured": NEAR, "rolls": {"quality": 6, "means": 4}},
    )
    assert dice.empty
    assert line(event, KENO)["dice"] == {"quality": 6, "means": 4}
    assert line(event, KENO)["result"] == "revealed"
    assert rolls(event)["quality"].entered
    assert rolls(event)["means"].entered
    dice.queue(1, 1)  # the target's die and the quality die, not entered this time
    with pytest.raises(Refusal) as refused:
        game.command(
            KENO,
            {"type": "observe", "marker": "M2", "measured": NEAR, "rolls": {"means": 5}},
        )
    assert refused.value.code == "bad_roll"  # a d4 cannot show 5


# --- SW-A07: a full success on a mine or IED ----------------------------------------------------


@pytest.mark.spec("SW-A07")
def test_a_known_minefield_is_not_observed_or_fired_at_again() -> None:
    game, dice = _game([{"marker": "M1", "content": "mine"}, {"marker": "M2", "unit": "mg"}])
    observe(game, dice, "M1", H2, measured=NEAR)
    for command in (
        {"type": "observe", "marker": "M1", "measured": NEAR},
        {"type": "fire", "target": "M1", "measured": {**NEAR, "cover": "none"}},
    ):
        with pytest.raises(Refusal) as refused:
            game.command(KENO, command)
        assert refused.value.code == "known_minefield"


@pytest.mark.spec("SW-A07")
@pytest.mark.parametrize("content", ["mine", "ied"])
def test_under_full_observation_on_mine_no_change_a_mine_stays_hidden(content: str) -> None:
    game, dice = _game(
        [{"marker": "M1", "content": content}, {"marker": "M2", "unit": "mg"}],
        {"sw.full_observation_on_mine": "no_change"},
    )
    event = observe(game, dice, "M1", H2, measured=NEAR)
    assert line(event, KENO)["result"] == "no_change"
    marker = known(game, KENO, "M1")
    assert marker is not None
    assert (marker["public"]["face"], marker["level"]) == ("face_up", "suspected")
    assert "content" not in marker["public"]


# --- SW-A10: observing a sniper's markers -------------------------------------------------------


def _sniper_game(switches: dict[str, Any] | None = None) -> tuple[Game, QueuedDice, str, str]:
    """Lianra's sniper under S1..S3; returns the game and one true and one false label."""
    game, dice = _game([{"marker": "M1", "unit": "mg"}], switches)
    true = next(
        p.public["label"]
        for p in game.state.pieces.values()
        if p.kind == "sniper_marker" and p.secret["true"]
    )
    false = next(
        p.public["label"]
        for p in game.state.pieces.values()
        if p.kind == "sniper_marker" and not p.secret["true"]
    )
    return game, dice, true, false


SNIPER_AT = {**NEAR, "cover": "none"}


@pytest.mark.spec("SW-A10", "SW-R35")
@pytest.mark.parametrize(("h", "result"), [(0, "no_change"), (1, "no_change"), (2, "revealed")])
def test_the_true_sniper_marker_reacts_like_a_sniper(h: int, result: str) -> None:
    game, dice, true, _false = _sniper_game()
    event = observe(game, dice, true, BY_H[h], measured=SNIPER_AT)
    assert line(event, KENO)["result"] == result
    sniper = known(game, KENO, "sniper")
    assert sniper is not None
    markers = [k for k in game.view(KENO)["known"] if k["kind"] == "sniper_marker"]
    if h == 2:
        # SW-R35(a): revealed by observation: placed, and all three markers removed.
        assert sniper["public"]["status"] == "on_table"
        assert markers == []
        assert line(event, KENO)["revealed"] == "sniper"
    else:
        assert sniper["public"]["status"] == "hidden"
        assert len(markers) == 3


@pytest.mark.spec("SW-A10")
@pytest.mark.parametrize(("h", "removed"), [(0, False), (1, True), (2, True)])
def test_a_false_sniper_marker_counts_as_nothing(h: int, removed: bool) -> None:
    game, dice, _true, false = _sniper_game()
    event = observe(game, dice, false, BY_H[h], measured=SNIPER_AT)
    assert exists(game, false) is not removed
    assert known(game, KENO, "sniper")["public"]["status"] == "hidden"  # type: ignore[index]
    if removed:
        assert line(event, KENO)["revealed"] == "nothing"


@pytest.mark.spec("SW-A10")
@pytest.mark.parametrize("h", [1, 2])
def test_under_sniper_false_marker_removable_false_a_false_marker_never_reacts(h: int) -> None:
    game, dice, _true, false = _sniper_game({"sw.sniper_false_marker_removable": False})
    event = observe(game, dice, false, BY_H[h], measured=SNIPER_AT)
    assert line(event, KENO)["result"] == "no_change"
    assert exists(game, false)
