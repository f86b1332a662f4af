"""The ambush field as geometry, barrier and hiding place (RULES-SPEC BSG-R04–R06, R11,
R15, R16, R21, R22, R26–R30 and their DEFAULTs), checked against brute force where it can be."""

from __future__ import annotations

import dataclasses
import inspect

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghillie.measure.arcs import DEFAULT_ARCS, ArcScheme, arc_of
from ghillie.measure.hexes import Hex, direction, disc, distance
from ghillie.rules.ambush_fields.detection import base_number
from ghillie.rules.ambush_fields.fields import (
    Field,
    Reveal,
    UnitAt,
    Visibility,
    capped,
    contains,
    cover_rating,
    end_of_movement,
    field_lost,
    fire_modifier,
    fugitive_may_hide,
    hiding_fields,
    invasion,
    partial_information,
    protective_modifier,
    raised,
    range_to_field,
)
from ghillie.rules.ambush_fields.scenario import ArcReport, FieldSpec, RangeTo, ShipClass

CYLONS, COLONIALS = "cylons", "colonials"
HID, DET, IDE = Visibility.HIDDEN, Visibility.DETECTED, Visibility.IDENTIFIED
ORIGIN = Hex(0, 0)


def veil(centre: Hex = ORIGIN, radius: int = 2, rating: int = 2, **kw: object) -> Field:
    return dataclasses.replace(Field("veil", CYLONS, centre, radius, rating), **kw)


def unit(key: str, side: str, at: Hex, vis: Visibility, *was_in: str) -> UnitAt:
    return UnitAt(key, side, at, vis, was_in=was_in)


def east(n: int) -> Hex:
    """n hexes straight across hexside C from the origin (distance n)."""
    return direction(2).scale(n)


hexes = st.builds(Hex, st.integers(-12, 12), st.integers(-12, 12))
fields_st = st.builds(
    Field,
    key=st.sampled_from(["a", "b", "c"]),
    owner=st.sampled_from([CYLONS, COLONIALS]),
    centre=hexes,
    radius=st.integers(0, 5),
    rating=st.integers(1, 3),
    active=st.booleans(),
)


# --- BSG-R04: geometry ---------------------------------------------------------------------


@pytest.mark.spec("BSG-R04")
def test_the_field_is_every_hex_within_its_radius_of_the_controller() -> None:
    field = veil(Hex(4, 4), radius=2)
    inside = {h for h in disc(Hex(4, 4), 4) if contains(field, h)}
    assert inside == set(disc(Hex(4, 4), 2))


@pytest.mark.spec("BSG-R04")
@given(hexes, hexes, hexes, st.integers(0, 5))
def test_the_field_moves_with_its_controller(centre: Hex, step: Hex, at: Hex, radius: int) -> None:
    before = veil(centre, radius)
    after = veil(centre + step, radius)  # the controller moved by step
    assert contains(after, at + step) == contains(before, at)
    assert contains(after, centre + step)  # always centred on it


@pytest.mark.spec("BSG-R04", "BSG-R30")
def test_a_dropped_field_contains_nothing() -> None:
    assert not contains(veil(active=False), ORIGIN)


@pytest.mark.spec("BSG-R04")
def test_a_field_is_built_from_the_scenario_at_its_controllers_hex() -> None:
    spec = FieldSpec(key="veil", controller="basestar", radius=3, rating=2)
    assert Field.of(spec, CYLONS, Hex(9, 5)) == Field("veil", CYLONS, Hex(9, 5), 3, 2, True)
    with pytest.raises(ValueError, match="BSG-R03"):
        Field("x", CYLONS, ORIGIN, 1, 4)


# --- BSG-A01: range to the field --------------------------------------------------------------


@pytest.mark.spec("BSG-A01")
@pytest.mark.parametrize(
    ("d", "nearest", "controller"), [(3, 1, 3), (4, 2, 4), (6, 4, 6), (2, None, None)]
)
def test_range_to_the_field_under_both_switch_values(
    d: int, nearest: int | None, controller: int | None
) -> None:
    field = veil(radius=2)
    assert range_to_field(east(d), field) == nearest
    assert range_to_field(east(d), field, RangeTo.NEAREST_HEX) == nearest
    assert range_to_field(east(d), field, RangeTo.CONTROLLER) == controller


@pytest.mark.spec("BSG-A01", "BSG-R26")
@given(hexes, st.integers(0, 4))
def test_nearest_hex_range_is_the_distance_to_the_closest_field_hex(ship: Hex, radius: int) -> None:
    field = veil(Hex(1, -2), radius)
    brute = min(distance(ship, h) for h in disc(field.centre, radius))
    got = range_to_field(ship, field, RangeTo.NEAREST_HEX)
    assert got == (None if brute == 0 else brute)
    assert got is None or got == max(1, distance(ship, field.centre) - radius)


@pytest.mark.spec("BSG-A01", "BSG-T12")
def test_a_dropped_field_has_no_range() -> None:
    with pytest.raises(ValueError, match="BSG-T12"):
        range_to_field(east(5), veil(active=False))


# --- BSG-R05 / A16: who is hidden ----------------------------------------------------------


@pytest.mark.spec("BSG-R05", "BSG-A16")
def test_a_unit_is_hidden_in_any_friendly_field_and_never_in_an_enemy_one() -> None:
    a = Field("a", CYLONS, ORIGIN, 2, 1)
    b = Field("b", CYLONS, east(3), 2, 3)
    c = Field("c", COLONIALS, east(1), 3, 2)
    fields = [a, b, c]
    assert hiding_fields(east(2), CYLONS, fields) == [a, b]
    assert hiding_fields(east(5), CYLONS, fields) == [b]
    assert hiding_fields(east(7), CYLONS, fields) == []
    assert hiding_fields(east(2), COLONIALS, fields) == [c]
    assert cover_rating(east(2), CYLONS, fields) == 3  # the highest, not the sum
    assert cover_rating(east(7), CYLONS, fields) is None
    assert hiding_fields(ORIGIN, CYLONS, [dataclasses.replace(a, active=False)]) == []


# --- BSG-R21, R22, A16, T10: the field as a one-way barrier ---------------------------------


@pytest.mark.spec("BSG-T10", "BSG-R21")
def test_fire_modifiers_with_a_rating_two_field() -> None:
    field = veil(radius=2, rating=2)
    outside, inside, also_inside = east(5), east(1), east(-2)
    assert fire_modifier(outside, inside, CYLONS, [field]) == 2
    assert fire_modifier(inside, outside, COLONIALS, [field]) == 0
    assert fire_modifier(inside, also_inside, CYLONS, [field]) == 0
    # then the ±3 cap
    assert fire_modifier(outside, inside, CYLONS, [field], other_modifiers=2) == 3
    assert fire_modifier(outside, inside, CYLONS, [field], other_modifiers=-1) == 1
    assert fire_modifier(inside, outside, COLONIALS, [field], other_modifiers=-5) == -3


@pytest.mark.spec("BSG-R21")
@pytest.mark.parametrize("total", range(-8, 9))
def test_the_cap_is_plus_or_minus_three(total: int) -> None:
    assert capped(total) == max(-3, min(3, total))


@pytest.mark.spec("BSG-R21")
def test_the_field_protects_its_owners_units_not_an_enemy_that_moved_in() -> None:
    field = veil(radius=2, rating=2)
    assert protective_modifier(east(5), east(1), COLONIALS, [field]) == 0


@pytest.mark.spec("BSG-R21", "BSG-A16")
def test_overlapping_fields_give_the_highest_rating_not_the_sum() -> None:
    a = Field("a", CYLONS, ORIGIN, 3, 2)
    b = Field("b", CYLONS, east(2), 3, 3)
    assert protective_modifier(east(9), east(1), CYLONS, [a, b]) == 3
    # From inside b only a protects; from inside a only b does.
    assert protective_modifier(east(5), east(1), CYLONS, [a, b]) == 2
    assert protective_modifier(east(-3), east(1), CYLONS, [a, b]) == 3


@pytest.mark.spec("BSG-R22")
def test_knowing_is_not_bypassing_the_modifier_takes_no_knowledge() -> None:
    # There is no parameter through which a located field or an identified target could
    # lower the modifier: only positions, the target's side and the fields.
    names = list(inspect.signature(protective_modifier).parameters)
    assert names == ["source", "target", "target_side", "fields"]
    assert list(inspect.signature(fire_modifier).parameters) == [*names, "other_modifiers"]
    # Located and identified or not, an outside attacker suffers R until it moves in...
    field = veil(radius=2, rating=2)
    assert protective_modifier(east(5), east(1), CYLONS, [field]) == 2
    assert protective_modifier(east(2), east(1), CYLONS, [field]) == 0
    # ...or the field drops.
    assert protective_modifier(east(5), east(1), CYLONS, [veil(active=False)]) == 0


@pytest.mark.spec("BSG-R21", "BSG-A16")
@given(hexes, hexes, st.lists(fields_st, max_size=4))
def test_the_modifier_is_zero_from_inside_every_field_holding_the_target(
    source: Hex, target: Hex, fields: list[Field]
) -> None:
    holding = [f for f in fields if f.owner == CYLONS and contains(f, target)]
    got = protective_modifier(source, target, CYLONS, fields)
    if all(contains(f, source) for f in holding):
        assert got == 0
    assert got in {0, *(f.rating for f in holding)}
    assert got == max((f.rating for f in holding if not contains(f, source)), default=0)
    assert 0 <= fire_modifier(source, target, CYLONS, fields, 3) <= 3


# --- containment at the end of movement: BSG-R06, R11, R16, R26 ----------------------------


@pytest.mark.spec("BSG-R06", "BSG-R05")
def test_only_the_final_position_counts_and_a_unit_inside_stays_hidden() -> None:
    result = end_of_movement([unit("raider", CYLONS, east(2), HID, "veil")], [veil()])
    assert result.reveals == ()
    assert result.partial_information == ()
    assert result.located == ()


@pytest.mark.spec("BSG-T13", "BSG-R06", "BSG-R16", "BSG-A14")
def test_a_hidden_frigate_one_hex_outside_is_identified_and_gives_pi() -> None:
    frigate = unit("frigate", CYLONS, east(3), HID, "veil")
    basestar = unit("basestar", CYLONS, ORIGIN, HID, "veil")
    result = end_of_movement([basestar, frigate], [veil(radius=2)])
    assert result.reveals == (Reveal("frigate", IDE, "BSG-R06", "veil"),)
    assert result.partial_information == ("veil",)  # the −1 flag only (A14)
    assert result.located == ()


@pytest.mark.spec("BSG-R06", "BSG-A16")
def test_a_unit_that_crosses_into_another_friendly_field_stays_hidden() -> None:
    other = Field("other", CYLONS, east(5), 2, 1)
    result = end_of_movement([unit("frigate", CYLONS, east(4), HID, "veil")], [veil(), other])
    assert result.reveals == ()


@pytest.mark.spec("BSG-R16", "BSG-A14")
def test_automatic_pi_is_on_each_field_left_once() -> None:
    a = Field("a", CYLONS, ORIGIN, 1, 1)
    b = Field("b", CYLONS, east(1), 1, 2)
    units = [unit("x", CYLONS, east(9), HID, "a", "b"), unit("y", CYLONS, east(8), HID, "b")]
    result = end_of_movement(units, [a, b])
    assert [r.unit for r in result.reveals] == ["x", "y"]
    assert result.partial_information == ("a", "b")


@pytest.mark.spec("BSG-R11")
def test_a_detected_unit_outside_is_identified_without_new_pi() -> None:
    result = end_of_movement(
        [unit("cl", CYLONS, east(4), DET, "veil"), unit("cl2", CYLONS, east(1), DET, "veil")],
        [veil()],
    )
    assert result.reveals == (Reveal("cl", IDE, "BSG-R11"),)
    assert result.partial_information == ()  # it appeared when detected, not now


@pytest.mark.spec("BSG-T14", "BSG-R26", "BSG-A15")
def test_an_enemy_destroyer_ending_inside_identifies_everyone_and_locates_the_field() -> None:
    field = veil(radius=2, rating=2)
    units = [
        unit("basestar", CYLONS, ORIGIN, HID, "veil"),
        unit("raiders", CYLONS, east(-2), DET, "veil"),
        unit("far", CYLONS, east(9), IDE),
        unit("destroyer", COLONIALS, east(2), IDE),
        unit("galactica", COLONIALS, east(6), IDE),
    ]
    result = end_of_movement(units, [field])
    assert result.reveals == (
        Reveal("basestar", IDE, "BSG-R26", "veil"),
        Reveal("raiders", IDE, "BSG-R26", "veil"),
    )
    assert result.located == ("veil",)
    assert result.partial_information == ()
    # In combat: the destroyer fires without +R, its fleet-mate outside still suffers it.
    assert fire_modifier(east(2), ORIGIN, CYLONS, [field]) == 0
    assert fire_modifier(east(6), ORIGIN, CYLONS, [field]) == 2


@pytest.mark.spec("BSG-R26", "BSG-A16")
def test_moving_in_beats_another_friendly_field_and_any_unit_may_move_in() -> None:
    other = Field("other", CYLONS, east(1), 2, 1)
    units = [
        unit("hider", CYLONS, east(1), HID, "veil", "other"),
        UnitAt("viper", COLONIALS, east(-2), IDE, ShipClass.FIGHTER_FLIGHT),
    ]
    result = end_of_movement(units, [veil(), other])
    assert result.reveals == (Reveal("hider", IDE, "BSG-R26", "veil"),)
    assert result.located == ("veil",)  # the viper is not inside "other"


@pytest.mark.spec("BSG-R26", "BSG-A15")
def test_under_immediate_entry_the_ruleset_calls_invasion_at_once() -> None:
    units = [unit("basestar", CYLONS, ORIGIN, HID), unit("far", CYLONS, east(5), HID)]
    assert invasion(veil(), units) == [Reveal("basestar", IDE, "BSG-R26", "veil")]


@pytest.mark.spec("BSG-R27", "BSG-A17", "BSG-R05")
@given(st.lists(st.tuples(hexes, st.sampled_from(list(Visibility)), st.booleans()), max_size=6))
def test_containment_never_lowers_visibility_and_ignores_class(
    placed: list[tuple[Hex, Visibility, bool]],
) -> None:
    fields = [veil(Hex(1, 1), 3), Field("blind", COLONIALS, Hex(-4, 2), 2, 1)]
    units = [
        UnitAt(f"u{i}", CYLONS if cylon else COLONIALS, at, vis)
        for i, (at, vis, cylon) in enumerate(placed)
    ]
    result = end_of_movement(units, fields)
    by_key = {u.key: u for u in units}
    for reveal in result.reveals:
        before = by_key[reveal.unit].visibility
        assert reveal.visibility.rank > before.rank
        assert raised(before, reveal.visibility) is reveal.visibility
    as_fighters = [dataclasses.replace(u, ship_class=ShipClass.FIGHTER_FLIGHT) for u in units]
    assert end_of_movement(as_fighters, fields) == result
    # Afterwards every unit outside all its friendly fields is identified (§1.2).
    after = {u.key: u.visibility for u in units} | {r.unit: r.visibility for r in result.reveals}
    for u in units:
        if not hiding_fields(u.at, u.side, fields):
            assert after[u.key] is IDE


@pytest.mark.spec("BSG-A17")
def test_raised_never_lowers() -> None:
    for a in Visibility:
        for b in Visibility:
            assert raised(a, b).rank == max(a.rank, b.rank)


# --- BSG-R27 / A19: fugitives ---------------------------------------------------------------


@pytest.mark.spec("BSG-R27")
def test_a_fugitive_entering_its_own_field_gets_the_modifiers_but_stays_identified() -> None:
    field = veil(rating=2)
    fugitive = unit("raider", CYLONS, east(1), IDE)
    assert end_of_movement([fugitive], [field]).reveals == ()  # stays identified
    assert protective_modifier(east(6), east(1), CYLONS, [field]) == 2


@pytest.mark.spec("BSG-A19", "BSG-R27")
def test_a_fugitive_may_hide_once_no_pursuer_is_on_the_board() -> None:
    pursuers = {"galactica", "pegasus"}
    assert not fugitive_may_hide(True, pursuers, {"galactica", "viper"})
    assert fugitive_may_hide(True, pursuers, {"viper"})  # newcomers are not pursuers
    assert not fugitive_may_hide(False, pursuers, set())  # it must be in its field


# --- BSG-R28–R30: losing the field ----------------------------------------------------------


@pytest.mark.spec("BSG-R30", "BSG-R28", "BSG-R29", "BSG-T12")
def test_losing_the_field_identifies_every_unit_that_was_in_it() -> None:
    field = veil(radius=2)
    other = Field("other", CYLONS, east(3), 1, 1)
    units = [
        unit("basestar", CYLONS, ORIGIN, HID),
        unit("raiders", CYLONS, east(-1), DET),
        unit("known", CYLONS, east(1), IDE),
        unit("overlap", CYLONS, east(2), HID),  # also in "other": still hidden (A16)
        unit("outside", CYLONS, east(6), HID),
    ]
    assert field_lost(field, units, [other]) == [
        Reveal("basestar", IDE, "BSG-R30", "veil"),
        Reveal("raiders", IDE, "BSG-R30", "veil"),
    ]
    with pytest.raises(ValueError, match="BSG-R29"):
        field_lost(veil(active=False), units, [])


# --- BSG-R15 / T07: partial information ------------------------------------------------------


@pytest.mark.spec("BSG-T07", "BSG-R15")
@pytest.mark.parametrize("moving", [True, False])
def test_partial_information_has_exactly_arc_base_number_and_heading_if_moving(
    moving: bool,
) -> None:
    field = veil(Hex(0, -6), radius=2, rating=3)
    detector = ORIGIN
    n = base_number(range_to_field(detector, field) or 0, fighter=False)
    assert n == 5
    info = partial_information(detector, 0, field, base_number=n, moving=moving, heading=3)
    expected_keys = {"arc", "base_number", "heading"} if moving else {"arc", "base_number"}
    assert set(info) == expected_keys
    assert info["arc"] == "F"
    assert info["base_number"] == 5
    if moving:
        assert info["heading"] == "D"
    # Never the speed, the rating, the radius or the range.
    assert not {"speed", "rating", "radius", "range"} & set(info)
    assert 3 not in info.values()
    assert 4 not in info.values()


@pytest.mark.spec("BSG-R15", "BSG-A07")
def test_the_arc_is_the_detectors_arc_holding_the_field_centre() -> None:
    field = veil(east(6), radius=3)
    for heading in range(6):
        info = partial_information(ORIGIN, heading, field, base_number=4, moving=False)
        assert info == {"arc": arc_of(ORIGIN, heading, east(6)), "base_number": 4}


@pytest.mark.spec("BSG-R15", "BSG-A07")
def test_under_arc_report_every_it_lists_each_arc_the_field_overlaps() -> None:
    field = veil(Hex(2, -5), radius=1)  # straddles F and RF of a ship facing A
    info = partial_information(
        ORIGIN, 0, field, DEFAULT_ARCS, ArcReport.EVERY, base_number=5, moving=False
    )
    assert info == {"arcs": ["F", "RF"], "base_number": 5}
    halves = ArcScheme.from_data({"front": [[-90, 90]], "back": [[90, 270]]})
    info = partial_information(
        ORIGIN, 0, field, halves, ArcReport.CENTRE, base_number=5, moving=False
    )
    assert info == {"arc": "front", "base_number": 5}


@pytest.mark.spec("BSG-R15", "BSG-R26")
def test_partial_information_is_refused_for_a_ship_inside_or_a_moving_field_without_heading() -> (
    None
):
    with pytest.raises(ValueError, match="BSG-R26"):
        partial_information(east(1), 0, veil(), base_number=5, moving=False)
    with pytest.raises(ValueError, match="direction of travel"):
        partial_information(east(5), 0, veil(), base_number=5, moving=True)
