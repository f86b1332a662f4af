"""The d20 rolls of camouflage (RULES-SPEC INF-A01, A08, A11, INF-T01(d), INF-T03): Discover
values and exact odds, against a brute-force oracle that counts every face combination with
itertools.product and reads each combination by the rule's own words, die by die."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest

from ghillie.dice.check import Check
from ghillie.rules.camouflage import checks as inf
from ghillie.rules.camouflage.checks import BandEdge, CriticalClash, Mod, OutOfRange

D20 = range(1, 21)
NEARER, FARTHER = BandEdge.NEARER, BandEdge.FARTHER


def nonzero(check: Check[Any]) -> dict[Any, Fraction]:
    return {outcome: p for outcome, p in check.odds().items() if p}


def as_fractions(counts: Counter[Hashable]) -> dict[Hashable, Fraction]:
    total = sum(counts.values())
    return {key: Fraction(n, total) for key, n in counts.items()}


def normal_oracle(value: int) -> dict[Hashable, Fraction]:
    return as_fractions(Counter("success" if d <= value else "failure" for d in D20))


# --- INF-A01: the Discover range MODs ------------------------------------------------------------

# A distance inside each band, away from its edges: the MOD RULES-SPEC §5.1 gives it.
INSIDE = {0: 3, 4: 3, 12: 0, 20: 0, 28: 0, 36: -3, 44: -3, 60: -6, 95.5: -6}


@pytest.mark.spec("INF-A01")
def test_the_range_table_is_the_n4_discover_row() -> None:
    assert inf.DISCOVER_RANGE_MODS == (
        (8, 3),
        (16, 0),
        (24, 0),
        (32, 0),
        (40, -3),
        (48, -3),
        (96, -6),
    )
    for distance, mod in INSIDE.items():
        assert inf.range_mod(distance, NEARER) == inf.range_mod(distance, FARTHER) == mod


@pytest.mark.spec("INF-A01")
def test_the_discover_table_is_flagged_source_unverified() -> None:
    assert inf.DISCOVER_MODS_SOURCE_UNVERIFIED is True


@pytest.mark.spec("INF-A01")
@pytest.mark.parametrize("edge", list(BandEdge))
def test_past_96_inches_discover_is_out_of_range(edge: BandEdge) -> None:
    for distance in (96.5, 97, 200):
        with pytest.raises(OutOfRange) as refused:
            inf.range_mod(distance, edge)
        assert refused.value.code == "out_of_range"
        with pytest.raises(OutOfRange):
            inf.discover_value(13, distance, -3, 0, False, True, edge)
    for bad in (-1, math.nan, math.inf):
        with pytest.raises(ValueError, match="not a distance"):
            inf.range_mod(bad, edge)


# Every Mimetism and visor level, and what the Mimetism MOD becomes (INF-A08).
EFFECTIVE = {
    (0, 0): 0,
    (0, 1): 0,
    (-3, 0): -3,
    (-3, 1): 0,
    (-3, 2): 0,
    (-6, 0): -6,
    (-6, 1): -3,
    (-6, 2): 0,
    (-6, 3): 0,
}


@pytest.mark.spec("INF-A01", "INF-A08", "INF-R10")
@pytest.mark.parametrize("cover", [False, True])
@pytest.mark.parametrize("applies_cover", [False, True])
def test_discover_values_and_odds_match_brute_force(cover: bool, applies_cover: bool) -> None:
    for wip, distance, ((mimetism, msv), mimetism_mod) in itertools.product(
        (8, 13, 15), INSIDE, EFFECTIVE.items()
    ):
        value, mods = inf.discover_value(wip, distance, mimetism, msv, cover, applies_cover, NEARER)
        total = INSIDE[distance] + mimetism_mod + (-3 if cover and applies_cover else 0)
        assert value == wip + max(-12, min(12, total))
        assert value == wip + sum(mod.value for mod in mods)
        assert nonzero(inf.normal_roll(value)) == normal_oracle(value), (wip, distance, mods)


@pytest.mark.spec("INF-A01")
def test_discover_lists_each_mod_that_counts() -> None:
    _, mods = inf.discover_value(13, 20, 0, 0, False, True, NEARER)
    assert mods == (Mod("range", 0),)  # no Mimetism, no cover
    _, mods = inf.discover_value(13, 20, -3, 1, True, True, NEARER)
    assert mods == (Mod("range", 0), Mod("mimetism", 0), Mod("cover", -3))
    _, mods = inf.discover_value(13, 20, -3, 0, True, False, NEARER)
    assert mods == (Mod("range", 0), Mod("mimetism", -3))  # inf.discover_applies_cover off


@pytest.mark.spec("INF-A01")
def test_the_sum_of_the_mods_is_held_to_twelve() -> None:
    # Mimetism -6 at 50" in cover: -6 - 6 - 3 = -15, held to -12.
    value, mods = inf.discover_value(13, 50, -6, 0, True, True, NEARER)
    assert value == 1
    assert mods[-1] == Mod("cap", 3)
    assert nonzero(inf.normal_roll(value)) == {
        "success": Fraction(1, 20),
        "failure": Fraction(19, 20),
    }
    # Without the cap the value is -2, and a Success Value of 0 or less always fails.
    value, _ = inf.discover_value(13, 50, -6, 0, True, True, NEARER, mod_cap=None)
    assert value == -2
    assert nonzero(inf.normal_roll(value)) == {"failure": Fraction(1)}


@pytest.mark.spec("INF-R10")
def test_normal_roll_odds_match_brute_force_for_every_value() -> None:
    for value in range(-3, 26):
        assert nonzero(inf.normal_roll(value)) == normal_oracle(value), value
    check = inf.normal_roll(7)
    assert check.roll(lambda label, die: 7) == ({"d20": 7}, "success")
    assert check.roll(lambda label, die: 8) == ({"d20": 8}, "failure")


# --- INF-A08: Multispectral Visor and Sensor -----------------------------------------------------


@pytest.mark.spec("INF-A08")
def test_each_visor_level_takes_three_off_mimetism_down_to_zero() -> None:
    for (mimetism, msv), expected in EFFECTIVE.items():
        assert inf.effective_mimetism(mimetism, msv) == expected
    with pytest.raises(ValueError, match="Mimetism"):
        inf.effective_mimetism(-2, 0)
    with pytest.raises(ValueError, match="Visor"):
        inf.effective_mimetism(-3, -1)


@pytest.mark.spec("INF-A08")
def test_sensor_is_wip_plus_six_with_no_range_mimetism_or_cover() -> None:
    for distance, mimetism, cover in itertools.product((2, 45, 150), (0, -3, -6), (False, True)):
        value, mods = inf.discover_value(13, distance, mimetism, 0, cover, True, NEARER, True)
        assert (value, mods) == (19, (Mod("sensor", 6),))
    assert (
        nonzero(inf.normal_roll(19))
        == normal_oracle(19)
        == {
            "success": Fraction(19, 20),
            "failure": Fraction(1, 20),
        }
    )


# --- INF-A11: a distance on a band edge (one test per reading) -----------------------------------


@pytest.mark.spec("INF-A11")
def test_an_edge_distance_belongs_to_the_nearer_band_by_default() -> None:
    edges = {8: 3, 16: 0, 24: 0, 32: 0, 40: -3, 48: -3, 96: -6}
    for distance, mod in edges.items():
        assert inf.range_mod(distance, NEARER) == mod
        # a distance worked out from positions, a hair off the edge, is on it
        assert inf.range_mod(distance + 1e-12, NEARER) == mod
    assert inf.discover_value(13, 8, -3, 0, False, True, NEARER)[0] == 13


@pytest.mark.spec("INF-A11")
def test_under_farther_an_edge_distance_is_in_the_next_band() -> None:
    edges = {8: 0, 16: 0, 24: 0, 32: -3, 40: -3, 48: -6}
    for distance, mod in edges.items():
        assert inf.range_mod(distance, FARTHER) == mod
        assert inf.range_mod(distance - 1e-12, FARTHER) == mod
    assert inf.range_mod(7.99, FARTHER) == 3
    with pytest.raises(OutOfRange):  # no band follows 48-96"
        inf.range_mod(96, FARTHER)
    assert inf.discover_value(13, 8, -3, 0, False, True, FARTHER)[0] == 10


# --- INF-T03: the worked Discover numbers --------------------------------------------------------


@pytest.mark.spec("INF-T03")
@pytest.mark.parametrize(
    ("distance", "mimetism", "msv", "value"),
    [
        (6, -3, 0, 13),  # 13 + 3 - 3
        (45, -3, 0, 7),  # 13 - 3 - 3
        (50, -6, 0, 1),  # 13 - 6 - 6
        (6, -6, 1, 13),  # visor 1: -6 -> -3, so 13 + 3 - 3
    ],
)
def test_the_worked_discover_numbers(distance: float, mimetism: int, msv: int, value: int) -> None:
    got, _ = inf.discover_value(13, distance, mimetism, msv, False, True, NEARER)
    assert got == value
    assert nonzero(inf.normal_roll(got)) == normal_oracle(value)
    assert inf.normal_roll(got).odds()["success"] == Fraction(value, 20)


# --- INF-T01(d): Face to Face Rolls --------------------------------------------------------------


def read(die: int, value: int) -> tuple[str, int]:
    """One die by the rule: ("fail"|"hit"|"crit", the result compared)."""
    if value > 20:  # N5: the excess over 20 is added to the die; 20 or more is a Critical
        shown = die + value - 20
        return ("crit", 20) if shown >= 20 else ("hit", shown)
    if die > value:
        return ("fail", 0)
    return ("crit", die) if die == value else ("hit", die)


def oracle(
    a_dice: tuple[int, ...],
    a_value: int,
    b_dice: tuple[int, ...],
    b_value: int,
    criticals: CriticalClash = CriticalClash.CANCEL,
) -> tuple[int, int, int, int]:
    """Each success, one at a time: it stands unless the opponent has a Critical (which
    cancels any non-critical success; Criticals are cancelled only by Criticals, under
    CANCEL) or a non-critical success at least as high."""
    a = [read(d, a_value) for d in a_dice]
    b = [read(d, b_value) for d in b_dice]

    def standing(mine: list[tuple[str, int]], theirs: list[tuple[str, int]]) -> tuple[int, int]:
        they_crit = any(kind == "crit" for kind, _ in theirs)
        hits = crits = 0
        for kind, shown in mine:
            if kind == "crit":
                if not (they_crit and criticals is CriticalClash.CANCEL):
                    hits, crits = hits + 1, crits + 1
            elif kind == "hit":
                beaten = any(k == "hit" and s >= shown for k, s in theirs)
                if not (they_crit or beaten):
                    hits += 1
        return hits, crits

    return (*standing(a, b), *standing(b, a))


def brute_force(
    a_value: int, a_burst: int, b_value: int, b_burst: int, criticals: CriticalClash
) -> Counter[Hashable]:
    counts: Counter[Hashable] = Counter()
    for faces in itertools.product(D20, repeat=a_burst + b_burst):
        counts[oracle(faces[:a_burst], a_value, faces[a_burst:], b_value, criticals)] += 1
    return counts


VALUES = [-2, 0, 1, 6, 13, 19, 20, 21, 23, 30]


@pytest.mark.spec("INF-T01")
@pytest.mark.parametrize("criticals", list(CriticalClash))
def test_one_die_each_matches_brute_force_for_every_pair_of_values(
    criticals: CriticalClash,
) -> None:
    for a_value, b_value in itertools.product(VALUES, VALUES):
        check = inf.face_to_face(a_value, 1, b_value, 1, criticals=criticals)
        expected = as_fractions(brute_force(a_value, 1, b_value, 1, criticals))
        assert nonzero(check) == expected, (a_value, b_value)
        for a1, b1 in itertools.product(D20, D20):  # every roll is judged as the oracle reads it
            assert check.judge_values({"a1": a1, "b1": b1}) == oracle(
                (a1,), a_value, (b1,), b_value, criticals
            )


@pytest.mark.spec("INF-T01")
@pytest.mark.parametrize("criticals", list(CriticalClash))
@pytest.mark.parametrize(
    ("a_value", "a_burst", "b_value", "b_burst"),
    [(13, 2, 11, 1), (21, 1, 13, 2), (10, 2, 23, 1), (20, 2, 20, 1), (1, 2, 19, 1)],
)
def test_a_burst_matches_brute_force(
    a_value: int, a_burst: int, b_value: int, b_burst: int, criticals: CriticalClash
) -> None:
    check = inf.face_to_face(a_value, a_burst, b_value, b_burst, criticals=criticals)
    expected = as_fractions(brute_force(a_value, a_burst, b_value, b_burst, criticals))
    assert nonzero(check) == expected
    labels = [label for label, _ in check.dice]
    assert labels == [f"a{i}" for i in range(1, a_burst + 1)] + [
        f"b{i}" for i in range(1, b_burst + 1)
    ]
    for faces in itertools.product(D20, repeat=a_burst + b_burst):
        got = check.judge_values(dict(zip(labels, faces, strict=True)))
        assert got == oracle(faces[:a_burst], a_value, faces[a_burst:], b_value, criticals)


@pytest.mark.spec("INF-T01")
def test_the_calibans_burst_3_against_the_fusiliers_burst_1_matches_brute_force() -> None:
    # INF-T01(d): the Caliban shoots in Burst mode, the Fusilier answers in ARO with Burst 1.
    check = inf.face_to_face(12, 3, 14, 1)
    assert nonzero(check) == as_fractions(brute_force(12, 3, 14, 1, CriticalClash.CANCEL))
    assert sum(check.odds().values()) == 1


@pytest.mark.spec("INF-T01")
def test_the_odds_by_result_equal_the_checks_own_enumeration() -> None:
    # Check.odds, the generic path, lists every roll through the judge (icepool.map).
    for a_value, b_value in [(13, 11), (20, 23), (5, 5)]:
        check = inf.face_to_face(a_value, 2, b_value, 1)
        assert check.odds() == Check.odds(check)


@pytest.mark.spec("INF-T01")
@pytest.mark.parametrize(
    ("a_value", "a_dice", "b_value", "b_dice", "outcome"),
    [
        # 15 cancels the 10; the 10 still cancels the 3 and the 2 (cancelled or not).
        (16, (15, 3, 2), 12, (10,), (1, 0, 0, 0)),
        (14, (12,), 14, (12,), (0, 0, 0, 0)),  # a tie cancels both
        (15, (12, 14), 14, (12,), (1, 0, 0, 0)),  # the 14 stands, the 12s tie
        (14, (9,), 14, (12, 3), (0, 0, 1, 0)),  # the 12 stands, the 9 cancels the 3
        (10, (10,), 16, (15,), (1, 1, 0, 0)),  # a Critical beats a higher success
        (13, (13, 11), 15, (9,), (2, 1, 0, 0)),  # ... and the 11 is above the 9
        (13, (13, 5), 15, (9,), (1, 1, 0, 0)),  # ... but the 9 cancels the 5
        (13, (13,), 15, (15, 14), (0, 0, 0, 0)),  # Critical against Critical: all cancelled
        (23, (16,), 19, (18,), (1, 0, 0, 0)),  # 16 + 3 = 19 beats 18
        (23, (17, 2), 19, (19,), (0, 0, 0, 0)),  # 17 + 3 = 20 is a Critical, as is 19 at 19
        (0, (1, 1), 5, (6,), (0, 0, 0, 0)),  # a value of 0 never succeeds; 6 fails at 5
    ],
)
def test_face_to_face_reads_each_die_by_the_rule(
    a_value: int,
    a_dice: tuple[int, ...],
    b_value: int,
    b_dice: tuple[int, ...],
    outcome: tuple[int, int, int, int],
) -> None:
    check = inf.face_to_face(a_value, len(a_dice), b_value, len(b_dice))
    faces = dict(zip([label for label, _ in check.dice], a_dice + b_dice, strict=True))
    assert check.roll(lambda label, die: faces[label]) == (faces, outcome)
    assert oracle(a_dice, a_value, b_dice, b_value) == outcome


@pytest.mark.spec("INF-T01")
def test_under_stand_both_sides_criticals_count() -> None:
    check = inf.face_to_face(13, 2, 15, 2, criticals=CriticalClash.STAND)
    assert check.judge_values({"a1": 13, "a2": 12, "b1": 15, "b2": 15}) == (1, 1, 2, 2)
    assert (1, 1, 2, 2) in check.outcomes
    assert (1, 1, 2, 2) not in inf.face_to_face(13, 2, 15, 2).outcomes


@pytest.mark.spec("INF-T01")
def test_a_side_rolls_at_least_one_die() -> None:
    with pytest.raises(ValueError, match="at least one die"):
        inf.face_to_face(13, 0, 13, 1)


@pytest.mark.spec("INF-T01")
def test_burst_5_against_burst_5_has_exact_odds_that_sum_to_one() -> None:
    odds = inf.face_to_face(15, 5, 12, 5).odds()
    assert sum(odds.values()) == 1
    # Both sides roll no success at all, or only ties and the like: nobody scores.
    nobody = odds[(0, 0, 0, 0)]
    assert Fraction(5, 20) ** 5 * Fraction(8, 20) ** 5 < nobody < 1


# --- Saving Rolls --------------------------------------------------------------------------------


@pytest.mark.spec("INF-T01")
def test_saving_rolls_match_brute_force() -> None:
    for value, count in itertools.product((-1, 0, 1, 10, 19, 20, 25), (0, 1, 2, 3)):
        counts: Counter[Hashable] = Counter(
            sum(d > value for d in faces) for faces in itertools.product(D20, repeat=count)
        )
        check = inf.saving_rolls(value, count)
        assert nonzero(check) == as_fractions(counts), (value, count)
        assert [label for label, _ in check.dice] == [f"save{i}" for i in range(1, count + 1)]
    assert inf.saving_rolls(10, 3).judge_values({"save1": 10, "save2": 11, "save3": 20}) == 2
    with pytest.raises(ValueError, match="Saving Rolls"):
        inf.saving_rolls(10, -1)
