"""Firing at markers and units (RULES-SPEC SW-R15..R17, SW-R20, SW-R30..R32, SW-T06, SW-T11;
SW-A08, SW-A16, SW-A17)."""

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
    add_units,
    at_table,
    end,
    exists,
    known,
    line,
    observe,
    piece,
    rolls,
    said,
    setup_table,
    table_data,
    unit,
)

NONE = {"cover": "none", "open": False}
SOFT = {"cover": "soft", "open": False}
# The sergeant (d8, weapon d6) at 6" from a marker in no cover: 8" zones, a d4 target.
CLOSE = at_table(6)
MISS = (4, 4, 4)  # target 4; quality 4 and weapon 4 tie
PARTIAL = (3, 5, 2)
FULL = (2, 5, 3)
BY_H = {0: MISS, 1: PARTIAL, 2: FULL}
AT_SNIPER = at_table(6, cover="none")  # a sniper marker's cover is measured at the table


def _game(
    hidings: list[dict[str, Any]],
    switches: dict[str, Any] | None = None,
    *,
    markers: list[dict[str, Any]] | None = None,
    data: dict[str, Any] | None = None,
) -> tuple[Game, QueuedDice]:
    dice = QueuedDice()
    data = data or table_data(switches)
    game = setup_table(data, dice, markers=markers or [NONE] * 3, hidings=hidings)
    return game, dice


def _fire(
    game: Game, dice: QueuedDice, target: str, rolls_: tuple[int, ...], measured: Any = CLOSE
) -> Any:
    return act(game, dice, KENO, {"type": "fire", "target": target, "measured": measured}, rolls_)


def _true_and_false(game: Game) -> tuple[str, str]:
    markers = [p for p in game.state.pieces.values() if p.kind == "sniper_marker"]
    true = next(p.public["label"] for p in markers if p.secret["true"])
    false = next(p.public["label"] for p in markers if not p.secret["true"])
    return true, false


# --- SW-R15: any marker may be fired at; the range die is built as for shooting ----------------


@pytest.mark.spec("SW-R15", "SW-A17")
@pytest.mark.parametrize(
    ("distance", "cover", "die"),
    [
        (8, "none", "d4"),  # a d8 shooter's zones are 8" long
        (9, "none", "d6"),
        (20, "none", "d8"),
        (20, "soft", "d10"),
        (20, "hard", "d12"),
        (40, "hard", "d12+2"),
    ],
)
def test_fire_at_a_marker_uses_the_shooters_quality_die_zones_and_cover(
    distance: float, cover: str, die: str
) -> None:
    markers = [{"cover": cover, "open": False}] * 3
    game, dice = _game([{"marker": "M1", "unit": "mg"}], markers=markers)
    activate(game, KENO, "sergeant")
    event = _fire(game, dice, "M2", (1, 1, 1), at_table(distance))
    assert line(event, KENO)["range_die"] == die
    assert (rolls(event)["quality"].die, rolls(event)["weapon"].die) == ("d8", "d6")
    assert rolls(event)["target"].secret  # a marker's die is the owner's, rolled unseen


@pytest.mark.spec("SW-A17")
@pytest.mark.parametrize(("rule", "die"), [("quality_die", "d8"), ("twelve", "d6")])
def test_the_fire_zone_switch(rule: str, die: str) -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}], {"sw.fire_zone": rule})
    activate(game, KENO, "sergeant")
    event = _fire(game, dice, "M2", (1, 1, 1), at_table(20))
    assert line(event, KENO)["range_die"] == die


@pytest.mark.spec("SW-R15")
def test_a_flipped_marker_may_be_fired_at() -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}])
    activate(game, KENO, "sergeant")
    observe(game, dice, "M1", (3, 5, 2), measured=at_table(10))  # flipped
    event = _fire(game, dice, "M1", FULL)
    assert line(event, KENO)["revealed"] == "unit"


@pytest.mark.spec("SW-R15")
def test_fire_at_a_marker_needs_the_shooter_to_see_it() -> None:
    game, _dice = _game([{"marker": "M1", "unit": "mg"}])
    activate(game, KENO, "sergeant")
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {"type": "fire", "target": "M1", "measured": at_table(6, los=False)})
    assert refused.value.code == "no_line_of_sight"


# --- SW-R16 / SW-R17 / SW-T11: what a full success does ---------------------------------------


@pytest.mark.spec("SW-R16", "SW-T11")
def test_a_full_success_places_the_hidden_squad_with_exactly_one_suppression() -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}])
    activate(game, KENO, "sergeant")
    event = _fire(game, dice, "M1", FULL)
    told = line(event, KENO)
    assert (told["result"], told["revealed"]) == ("revealed", "unit")
    assert not exists(game, "M1")
    mg = known(game, KENO, "mg")
    assert mg is not None
    assert (mg["public"]["status"], mg["public"]["suppression"]) == ("on_table", 1)
    # SW-R16 DEFAULT: no casualties: the whole squad is placed.
    assert mg["public"]["models"] == 3


@pytest.mark.spec("SW-R16")
def test_a_full_success_on_an_empty_marker_removes_it() -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}])
    activate(game, KENO, "sergeant")
    event = _fire(game, dice, "M3", FULL)
    assert line(event, KENO)["revealed"] == "nothing"
    assert not exists(game, "M3")


@pytest.mark.spec("SW-R17", "SW-T11")
@pytest.mark.parametrize("content", ["mine", "ied"])
def test_a_full_success_on_mines_or_an_ied_leaves_the_marker(content: str) -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}, {"marker": "M2", "content": content}])
    activate(game, KENO, "sergeant")
    event = _fire(game, dice, "M2", FULL)
    assert line(event, KENO)["result"] == "marker_stays"
    marker = known(game, KENO, "M2")
    assert marker is not None
    assert (marker["public"]["face"], marker["level"]) == ("face_up", "suspected")
    assert "content" not in marker["public"]


@pytest.mark.spec("SW-R17", "SW-A10")
def test_a_full_success_on_the_true_sniper_marker_leaves_it_and_the_sniper_hidden() -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}])
    true, _false = _true_and_false(game)
    activate(game, KENO, "sergeant")
    event = _fire(game, dice, true, FULL, AT_SNIPER)
    assert line(event, KENO)["result"] == "marker_stays"
    assert exists(game, true)
    assert known(game, KENO, "sniper")["public"]["status"] == "hidden"  # type: ignore[index]


@pytest.mark.spec("SW-R17", "SW-A10")
@pytest.mark.parametrize(("removable", "result"), [(True, "revealed"), (False, "marker_stays")])
def test_a_full_success_on_a_false_sniper_marker(removable: bool, result: str) -> None:
    game, dice = _game(
        [{"marker": "M1", "unit": "mg"}], {"sw.sniper_false_marker_removable": removable}
    )
    true, false = _true_and_false(game)
    activate(game, KENO, "sergeant")
    event = _fire(game, dice, false, FULL, AT_SNIPER)
    # DEFAULT: nothing is under a false marker, so it goes. Option: a false marker never
    # reacts, and reads exactly like the true one.
    assert line(event, KENO)["result"] == result
    assert exists(game, false) is not removable
    if not removable:
        again = _fire(game, dice, true, FULL, AT_SNIPER)
        assert {k: v for k, v in line(event, KENO).items() if k not in ("target", "text")} == {
            k: v for k, v in line(again, KENO).items() if k not in ("target", "text")
        }


# --- SW-A08: a partial success on a marker -----------------------------------------------------


@pytest.mark.spec("SW-A08", "SW-T11")
@pytest.mark.parametrize("h", [0, 1])
def test_a_partial_success_on_a_marker_changes_nothing_visible(h: int) -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}])
    activate(game, KENO, "sergeant")
    event = _fire(game, dice, "M1", BY_H[h])
    assert line(event, KENO)["result"] == "no_change"
    marker = known(game, KENO, "M1")
    assert marker is not None
    assert marker["public"]["face"] == "face_up"
    end(game, KENO)
    activate(game, LIANRA, "mg")  # SW-R06: placed, with no suppression from that shot
    assert known(game, KENO, "mg")["public"]["suppression"] == 0  # type: ignore[index]


@pytest.mark.spec("SW-A08")
def test_under_hidden_suppression_a_partial_success_shows_only_when_the_squad_appears() -> None:
    game, dice = _game(
        [{"marker": "M1", "unit": "mg"}], {"sw.partial_fire_on_marker": ("hidden_suppression")}
    )
    activate(game, KENO, "sergeant")
    event = _fire(game, dice, "M1", PARTIAL)
    assert line(event, KENO)["result"] == "no_change"
    assert piece(game, "mg").secret["hidden_suppression"] == 1
    assert known(game, KENO, "mg")["public"]["suppression"] == 0  # type: ignore[index]
    # A second partial hit and then a full success: 1 + 1 + the full success's 1.
    _fire(game, dice, "M1", PARTIAL)
    end(game, KENO)
    game.command(LIANRA, {"type": "pass"})
    game.command(KENO, {"type": "pass"})
    activate(game, KENO, "sergeant")
    _fire(game, dice, "M1", FULL)
    assert known(game, KENO, "mg")["public"]["suppression"] == 3  # type: ignore[index]


@pytest.mark.spec("SW-A08")
def test_under_hidden_suppression_an_empty_marker_reads_the_same_after_a_partial() -> None:
    game, dice = _game(
        [{"marker": "M1", "unit": "mg"}], {"sw.partial_fire_on_marker": ("hidden_suppression")}
    )
    activate(game, KENO, "sergeant")
    squad = line(_fire(game, dice, "M1", PARTIAL), KENO)
    empty = line(_fire(game, dice, "M3", PARTIAL), KENO)
    assert {k: v for k, v in squad.items() if k not in ("target", "text")} == {
        k: v for k, v in empty.items() if k not in ("target", "text")
    }
    assert said(squad).replace("M1", "M3") == said(empty)


# --- fire at units: lone figures, snipers --------------------------------------------------


def _lianra_sniper_fires(
    switches: dict[str, Any] | None = None, *, with_officer: bool = False
) -> tuple[Game, QueuedDice]:
    data = table_data(switches)
    if with_officer:
        add_units(data, unit("captain", KENO, kind="lone", officer=True, quality="d8"))
    game, dice = _game([{"marker": "M1", "unit": "mg"}], data=data)
    if with_officer:
        game.command(KENO, {"type": "join", "unit": "captain", "squad": "sergeant"})
    game.command(KENO, {"type": "pass"})
    activate(game, LIANRA, "sniper")
    return game, dice


def _sniper_fire(game: Game, dice: QueuedDice, rolls_: tuple[int, ...], rng: float = 24) -> Any:
    return act(
        game,
        dice,
        LIANRA,
        {"type": "fire", "target": "sergeant", "measured": at_table(rng, cover="none")},
        rolls_,
    )


@pytest.mark.spec("SW-R30", "SW-T06")
@pytest.mark.parametrize(("distance", "die"), [(16, "d4"), (17, "d6"), (32, "d6"), (33, "d8")])
def test_a_d8_snipers_zones_are_sixteen_inches(distance: float, die: str) -> None:
    game, dice = _lianra_sniper_fires()
    event = _sniper_fire(game, dice, (4, 4, 4), distance)
    assert line(event, LIANRA)["range_die"] == die


@pytest.mark.spec("SW-R34")
def test_the_enemy_learns_neither_a_hidden_snipers_range_die_nor_the_roll_on_it() -> None:
    """The range die depends on which marker is true, so showing it would point at it."""
    seen = []
    for distance in (16, 33):  # d4 and d8: as if fired from two different markers
        game, dice = _lianra_sniper_fires()
        event = _sniper_fire(game, dice, (3, 4, 4), distance)
        told = line(event, KENO)
        assert "range_die" not in told
        assert "target_roll" not in told
        assert "higher" not in told
        assert "measured_by" not in told
        seen.append({k: v for k, v in told.items() if k != "result"})
    assert seen[0] == seen[1]


@pytest.mark.spec("SW-R30", "SW-A17")
@pytest.mark.parametrize(("rule", "die"), [("quality_die", "d6"), ("twelve", "d4")])
def test_under_either_fire_zone_rule_the_sniper_doubles_it(rule: str, die: str) -> None:
    # 24": a d8 sniper's 16" zones give zone 2; doubled 12" zones (24") give zone 1.
    game, dice = _lianra_sniper_fires({"sw.fire_zone": rule})
    assert line(_sniper_fire(game, dice, (4, 4, 4), 24), LIANRA)["range_die"] == die


@pytest.mark.spec("SW-R32")
def test_a_sniper_with_one_die_higher_hits_one_model_at_random() -> None:
    game, dice = _lianra_sniper_fires()
    # 24": d6 target rolls 3; quality 5 beats it, weapon 2 does not; the hit die: a d6.
    event = _sniper_fire(game, dice, (3, 5, 2, 4))
    assert rolls(event)["hit"].die == "d6"  # the sergeant's six models
    told = line(event, KENO)
    assert (told["result"], told["hit_model"]) == ("partial", 4)
    assert known(game, KENO, "sniper")["public"]["status"] == "hidden"  # type: ignore[index]


@pytest.mark.spec("SW-R32")
def test_a_sniper_with_both_dice_higher_lets_its_owner_choose_the_model() -> None:
    game, dice = _lianra_sniper_fires()
    event = _sniper_fire(game, dice, (3, 5, 4))  # no hit die is rolled
    told = line(event, KENO)
    assert told["result"] == "full"
    assert "hit_model" not in told
    assert said(told).endswith("one hit, on a model Lianra defenders chooses.")


@pytest.mark.spec("SW-R32")
def test_ordinary_fire_with_one_die_higher_only_suppresses() -> None:
    game, dice = _game([{"marker": "M1", "unit": "mg"}])
    game.command(KENO, {"type": "pass"})
    activate(game, LIANRA, "mg")  # revealed by activation (SW-R06)
    event = act(
        game,
        dice,
        LIANRA,
        {"type": "fire", "target": "sergeant", "measured": at_table(20, cover="none")},
        (5, 6, 2),  # no hit die
    )
    told = line(event, KENO)
    assert told["result"] == "partial"
    assert "hit_model" not in told
    assert "apply the host rules' suppression" in said(told)
    assert told["target_roll"] == 5  # a unit's range die is rolled in the open


@pytest.mark.spec("SW-A16", "SW-R32")
@pytest.mark.parametrize(("rule", "doubled"), [("doubled", True), ("hit_only", False)])
def test_a_snipers_single_hit_and_the_host_suppression(rule: str, doubled: bool) -> None:
    game, dice = _lianra_sniper_fires({"sw.sniper_hit": rule})
    told = line(_sniper_fire(game, dice, (3, 5, 2, 1)), KENO)
    assert "drawn at random, on model 1 of the group" in said(told)
    assert ("suppression comes doubled, at most 3" in said(told)) is doubled
    assert told["hit_model"] == 1


@pytest.mark.spec("SW-R31", "SW-R16")
def test_a_snipers_full_success_on_a_marker_places_the_squad_with_two_suppression() -> None:
    data = table_data()
    data["units"] = [
        {**u, "side": KENO, "camouflaged": True} if u["key"] == "sniper" else u
        for u in data["units"]
    ]
    dice = QueuedDice()
    game = setup_table(data, dice, markers=[NONE] * 3, sniper_true=None, ready=False)
    game.command(KENO, {"type": "place_sniper", "sniper": "sniper", "true_marker": 0})
    game.command(KENO, {"type": "ready"})
    game.command(LIANRA, {"type": "ready"})
    activate(game, KENO, "sniper")
    act(
        game,
        dice,
        KENO,
        {"type": "fire", "target": "M1", "measured": at_table(10, cover="none")},
        (2, 5, 3),
    )
    mg = known(game, KENO, "mg")
    assert mg is not None
    assert (mg["public"]["status"], mg["public"]["suppression"]) == ("on_table", 2)


@pytest.mark.spec("SW-R20")
def test_a_lone_figure_with_a_squad_is_fired_at_through_the_squad() -> None:
    game, _dice = _lianra_sniper_fires(with_officer=True)
    with pytest.raises(Refusal) as refused:
        game.command(
            LIANRA, {"type": "fire", "target": "captain", "measured": at_table(24, cover="none")}
        )
    assert refused.value.code == "attached"


@pytest.mark.spec("SW-R20", "SW-R32")
@pytest.mark.parametrize(("face", "captain_hit"), [(6, False), (7, True)])
def test_a_random_hit_can_fall_on_an_attached_lone_figure(face: int, captain_hit: bool) -> None:
    game, dice = _lianra_sniper_fires(with_officer=True)
    event = _sniper_fire(game, dice, (3, 5, 2, face))
    assert rolls(event)["hit"].die == "d7"  # six models and the captain
    told = line(event, KENO)
    assert told["hit_model"] == face
    assert (told.get("hit_unit") == piece(game, "captain").id) is captain_hit
