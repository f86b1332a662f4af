"""Scouts and EW around ambush fields (RULES-SPEC BSG-R08, R24, R25 and A03, A04, A12, A13,
A20; worked cases T01, T02, T08, T09)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghillie.measure.hexes import Hex, direction, disc, distance
from ghillie.rules.ambush_fields.fields import Field, Visibility
from ghillie.rules.ambush_fields.scouting import (
    ALREADY_IDENTIFIED,
    NOT_DETECTED,
    NOT_LOCATED,
    OUT_OF_RANGE,
    EWAssignment,
    IdentifyResult,
    MassIdentifyResult,
    ew_gives_away,
    identify,
    mass_identify,
    mass_identify_range,
    mass_identify_reaches,
    points_on,
)

HID, DET, IDE = Visibility.HIDDEN, Visibility.DETECTED, Visibility.IDENTIFIED
ORIGIN = Hex(0, 0)


def east(n: int) -> Hex:
    return direction(2).scale(n)


# --- BSG-R08, A03, A04: EW inside the field --------------------------------------------------


@pytest.mark.spec("BSG-T01", "BSG-R08", "BSG-A03")
def test_a_cl_given_three_ecm_by_several_scouts_in_an_r2_field_is_detected() -> None:
    records = [EWAssignment("eye", "cl", 2), EWAssignment("owl", "cl", 1)]
    assert points_on("cl", records) == 3
    assert ew_gives_away(points_on("cl", records), rating=2)


@pytest.mark.spec("BSG-T02", "BSG-R08", "BSG-A04")
def test_two_points_on_a_cl_in_an_r2_field_keep_it_hidden() -> None:
    records = [EWAssignment("eye", "cl", 1), EWAssignment("owl", "cl", 1)]
    assert not ew_gives_away(points_on("cl", records), rating=2)


@pytest.mark.spec("BSG-A04", "BSG-R08")
@pytest.mark.parametrize("rating", [1, 2, 3])
@pytest.mark.parametrize("points", range(7))
def test_exceeds_is_strictly_greater(rating: int, points: int) -> None:
    assert ew_gives_away(points, rating) is (points > rating)


@pytest.mark.spec("BSG-A03")
def test_what_counts_is_points_applied_to_the_ship_unless_emitted_points_count_too() -> None:
    records = [
        EWAssignment("eye", "eye", 1),  # on itself: counts once either way
        EWAssignment("eye", "basestar", 2),  # emitted
        EWAssignment("owl", "eye", 1),  # received
        EWAssignment("owl", "basestar", 3),  # neither
    ]
    assert points_on("eye", records) == 2
    assert points_on("eye", records, count_emitted=True) == 4
    assert points_on("basestar", records) == 5
    assert points_on("nobody", records, count_emitted=True) == 0


@pytest.mark.spec("BSG-A03")
@given(
    st.lists(
        st.builds(
            EWAssignment,
            st.sampled_from("abc"),
            st.sampled_from("abc"),
            st.integers(0, 5),
        ),
        max_size=8,
    )
)
def test_emitted_points_only_ever_add(records: list[EWAssignment]) -> None:
    for ship in "abc":
        received = points_on(ship, records)
        assert received == sum(r.points for r in records if r.target == ship)
        assert points_on(ship, records, count_emitted=True) >= received


@pytest.mark.spec("BSG-R08")
def test_negative_points_and_bad_ratings_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 0"):
        EWAssignment("eye", "cl", -1)
    with pytest.raises(ValueError, match="BSG-R03"):
        ew_gives_away(1, 4)


# --- BSG-R24, A13, T08: Identify ----------------------------------------------------------


@pytest.mark.spec("BSG-T08", "BSG-R24", "BSG-A13")
def test_identify_against_r2_spend_one_fails_two_and_three_succeed() -> None:
    scout, target = ORIGIN, east(12)
    assert identify(1, 2, DET, scout, target) == IdentifyResult(None, False, 1)  # consumed
    assert identify(2, 2, DET, scout, target) == IdentifyResult(None, True, 2)
    assert identify(3, 2, DET, scout, target) == IdentifyResult(None, True, 3)  # nothing extra


@pytest.mark.spec("BSG-T08", "BSG-R24")
def test_identify_at_an_undetected_target_is_refused_and_spends_nothing() -> None:
    # The ruleset shows this exactly as it shows an unknown piece (RULES-SPEC §6).
    assert identify(3, 2, HID, ORIGIN, east(1)) == IdentifyResult(NOT_DETECTED, False, 0)
    assert identify(3, 2, IDE, ORIGIN, east(1)) == IdentifyResult(ALREADY_IDENTIFIED, False, 0)
    # A hidden target is refused as hidden before any range is measured: a range answer
    # would tell the player something is there.
    assert identify(3, 2, HID, ORIGIN, east(30)).refused == NOT_DETECTED


@pytest.mark.spec("BSG-R24")
def test_identify_reaches_twenty_hexes_by_default_and_the_field_need_not_be_located() -> None:
    assert identify(2, 2, DET, ORIGIN, east(20)).identified
    assert identify(2, 2, DET, ORIGIN, east(21)) == IdentifyResult(OUT_OF_RANGE, False, 0)
    assert identify(2, 2, DET, ORIGIN, east(21), identify_ewe=25).identified
    assert "located" not in identify.__code__.co_varnames


@pytest.mark.spec("BSG-R24", "BSG-T08")
def test_the_identify_answer_never_contains_the_rating() -> None:
    assert {f.name for f in dataclasses.fields(IdentifyResult)} == {
        "refused",
        "identified",
        "points_spent",
    }


@pytest.mark.spec("BSG-R24", "BSG-A13")
@given(
    st.integers(1, 9),
    st.integers(1, 3),
    st.integers(1, 3),
    st.sampled_from(list(Visibility)),
    st.integers(0, 25),
)
def test_two_ratings_with_the_same_success_give_the_same_answer(
    points: int, r1: int, r2: int, vis: Visibility, d: int
) -> None:
    a = identify(points, r1, vis, ORIGIN, east(d))
    b = identify(points, r2, vis, ORIGIN, east(d))
    if (points >= r1) == (points >= r2):
        assert a == b  # nothing in the answer tells R apart
    assert a.points_spent == (points if a.refused is None else 0)


@pytest.mark.spec("BSG-R24")
def test_identify_needs_at_least_one_point() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        identify(0, 2, DET, ORIGIN, east(1))


# --- BSG-R25, A12, A13, A20, T09: Mass Identify -------------------------------------------------


@pytest.mark.spec("BSG-T09", "BSG-R25", "BSG-A12")
def test_mass_identify_against_r2() -> None:
    assert mass_identify(4, 2, located=True) == MassIdentifyResult(None, DET, 4)
    assert mass_identify(6, 2, located=True) == MassIdentifyResult(None, IDE, 6)
    assert mass_identify(6, 2, located=False) == MassIdentifyResult(NOT_LOCATED, None, 0)


@pytest.mark.spec("BSG-R25", "BSG-A12", "BSG-A13")
@pytest.mark.parametrize("rating", [1, 2, 3])
@pytest.mark.parametrize("points", range(1, 11))
def test_mass_identify_thresholds_are_two_and_three_times_the_rating(
    rating: int, points: int
) -> None:
    result = mass_identify(points, rating, located=True)
    expected = IDE if points >= 3 * rating else DET if points >= 2 * rating else None
    assert result == MassIdentifyResult(None, expected, points)  # consumed even for nothing


@pytest.mark.spec("BSG-A20", "BSG-R25")
@given(st.builds(Hex, st.integers(-20, 20), st.integers(-20, 20)), st.integers(0, 4))
def test_mass_identify_range_is_to_the_nearest_field_hex(scout: Hex, radius: int) -> None:
    field = Field("veil", "cylons", Hex(2, -1), radius, 2)
    nearest = min(distance(scout, h) for h in disc(field.centre, radius))
    assert mass_identify_range(scout, field) == nearest
    assert mass_identify_reaches(scout, field, 15) is (nearest <= 15)


@pytest.mark.spec("BSG-A20")
def test_normal_ewe_is_the_hosts_not_identifys_twenty() -> None:
    field = Field("veil", "cylons", ORIGIN, 3, 2)
    assert mass_identify_reaches(east(18), field, normal_ewe=15)
    assert not mass_identify_reaches(east(19), field, normal_ewe=15)
    assert mass_identify_reaches(east(1), field, normal_ewe=1)  # from inside: range 0
