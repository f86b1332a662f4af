"""Fire arcs on the hex map (RULES-SPEC BSG-A07, BSG-R15's "in which fire arc")."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghillie.measure.arcs import DEFAULT_ARCS, ArcScheme, arc_of, arcs_containing
from ghillie.measure.hexes import Hex, center, disc, rotate

coordinates = st.integers(-60, 60)
hexes = st.builds(Hex, coordinates, coordinates)
headings = st.integers(0, 5)
ORIGIN = Hex(0, 0)


def mirror(step: Hex) -> Hex:
    """``step`` reflected across the line up and down the map (a ship's keel at heading A)."""
    return Hex(-step.q, -step.s)


def mirrored_name(name: str) -> str:
    return {"L": "R", "R": "L"}.get(name[0], name[0]) + name[1:] if len(name) == 2 else name


def angle_from_up(step: Hex) -> float:
    """Degrees clockwise from up the map to ``step``, from the drawing centres (floats)."""
    x, y = center(step)
    return math.degrees(math.atan2(x, -y)) % 360


@st.composite
def schemes(draw: st.DrawFn) -> ArcScheme:
    """A random scheme: 1-6 arcs, each a union of runs of 30° sectors, as scenario data."""
    count = draw(st.integers(1, 6))
    cells = draw(st.lists(st.integers(0, count - 1), min_size=12, max_size=12))
    used = sorted(set(cells))
    data: dict[str, list[list[int | str]]] = {f"arc{i}": [] for i in used}
    start = 0
    for i in range(1, 13):
        if i == 12 or cells[i] != cells[start]:
            shift = draw(st.sampled_from([0, 360, -360]))
            data[f"arc{cells[start]}"].append([30 * start + shift, 30 * i + shift])
            start = i
    return ArcScheme.from_data(data)


# --- distance ---------------------------------------------------------------------------------


@pytest.mark.spec("BSG-A07")
@given(hexes, headings, hexes)
def test_the_six_default_arcs_give_every_other_hex_exactly_one_arc(
    ship: Hex, heading: int, target: Hex
) -> None:
    if target == ship:
        with pytest.raises(ValueError, match="own hex"):
            arc_of(ship, heading, target)
        return
    chosen = arc_of(ship, heading, target)
    assert chosen in DEFAULT_ARCS.arcs
    both = DEFAULT_ARCS.arcs_at(ship, heading, target)
    assert both[0] == chosen
    assert 1 <= len(both) <= 2


@pytest.mark.spec("BSG-A07")
@given(hexes, headings, hexes)
def test_the_default_arcs_agree_with_drawn_angles(ship: Hex, heading: int, target: Hex) -> None:
    if target == ship:
        return
    angle = (angle_from_up(target - ship) - 60 * heading) % 360
    on_boundary = abs((angle - 30) / 60 - round((angle - 30) / 60)) < 1e-9
    arcs = DEFAULT_ARCS.arcs_at(ship, heading, target)
    assert (len(arcs) == 2) == on_boundary
    if not on_boundary:
        index = int(((angle + 30) % 360) // 60)
        assert arcs == [["F", "RF", "RR", "R", "LR", "LF"][index]]


@pytest.mark.spec("BSG-A07")
@given(hexes, headings, hexes, st.integers(-6, 6), schemes())
def test_turning_the_ship_turns_its_arcs(
    ship: Hex, heading: int, target: Hex, turns: int, scheme: ArcScheme
) -> None:
    if target == ship:
        return
    turned = ship + rotate(target - ship, turns)
    assert scheme.arc_at(ship, (heading + turns) % 6, turned) == scheme.arc_at(
        ship, heading, target
    )


@pytest.mark.spec("BSG-A07")
@given(hexes, headings, hexes)
def test_a_mirror_image_target_is_in_the_mirrored_arc(ship: Hex, heading: int, target: Hex) -> None:
    if target == ship:
        return
    step = rotate(target - ship, -heading)  # as if the ship faced hexside A
    reflected = ship + rotate(mirror(step), heading)
    assert arc_of(ship, heading, reflected) == mirrored_name(arc_of(ship, heading, target))


@pytest.mark.spec("BSG-A07")
@pytest.mark.parametrize(
    ("target", "boundary", "chosen"),
    [
        (Hex(1, -2), ("F", "RF"), "F"),  # 30°: nearer the bow wins
        (Hex(2, -1), ("RF", "RR"), "RF"),  # 90°
        (Hex(1, 1), ("RR", "R"), "RR"),  # 150°
        (Hex(-1, 2), ("R", "LR"), "LR"),  # 210°
        (Hex(-2, 1), ("LR", "LF"), "LF"),  # 270°
        (Hex(-2, -2), ("LF", "F"), "F"),  # 330°
    ],
)
def test_a_target_on_an_arc_boundary_goes_to_the_arc_nearer_the_bow(
    target: Hex, boundary: tuple[str, str], chosen: str
) -> None:
    for _ in range(3):
        assert arc_of(ORIGIN, 0, target) == chosen
    assert set(DEFAULT_ARCS.arcs_at(ORIGIN, 0, target)) == set(boundary)
    # The same holds whatever the heading, once the target turns with the ship.
    assert arc_of(ORIGIN, 4, rotate(target, 4)) == chosen


def test_dead_ahead_and_dead_astern_boundaries_go_to_starboard() -> None:
    sfb = ArcScheme.from_data(
        {
            "RF": [["A", "B"]],
            "R": [["B", "C"]],
            "RR": [["C", "D"]],
            "LR": [["D", "E"]],
            "L": [["E", "F"]],
            "LF": [["F", "A"]],
        }
    )
    assert sfb.arcs_at(ORIGIN, 0, Hex(0, -3)) == ["RF", "LF"]
    assert sfb.arcs_at(ORIGIN, 0, Hex(0, 3)) == ["RR", "LR"]
    assert sfb.arc_at(ORIGIN, 0, Hex(2, -2)) == "RF"  # on the B row: nearer the bow
    assert sfb.arc_at(ORIGIN, 0, Hex(-2, 0)) == "LF"  # on the F row


def test_arc_data_in_degrees_and_in_hexsides_mean_the_same() -> None:
    by_degrees = ArcScheme.from_data({"front": [[-60, 60]], "side": [[60, 300]]})
    wrapped = ArcScheme.from_data({"front": [[300, 420]], "side": [[60, 120], [120, 300]]})
    by_hexsides = ArcScheme.from_data({"front": [["F", "B"]], "side": [["B", "F"]]})
    assert by_degrees == wrapped == by_hexsides
    whole = ArcScheme.from_data({"all": [[0, 360]]})
    assert arcs_containing(ORIGIN, 2, disc(Hex(5, 5), 2), whole) == ["all"]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"F": [[-30, 30]], "RF": [[0, 330]]}, "arcs 'F' and 'RF' overlap at 0°–30°"),
        ({"F": [[-30, 30], [0, 30]], "X": [[30, 330]]}, "arc 'F' covers 0°–30° twice"),
        ({"F": [[-30, 30]], "RF": [[30, 300]]}, "no arc covers 300°–330°"),
        ({"F": [[0, 45]], "X": [[45, 360]]}, "multiples of 30"),
        ({"F": [[30, -30]]}, "clockwise"),
        ({"F": [[0, 390]]}, "at most 360"),
        ({"F": [["A", "G"]]}, "hexsides are A..F"),
        ({"F": [["A", "A"]]}, "same hexside"),
        ({"F": [["A", 60]]}, "two bearings in degrees or two hexside letters"),
        ({"F": [[True, 360]]}, "two bearings"),
        ({"F": [[0, 180, 360]]}, "a pair"),
        ({"F": []}, "needs a list of sectors"),
        ({"": [[0, 360]]}, "non-empty string"),
        ({}, "at least one arc"),
    ],
)
def test_a_scheme_that_overlaps_leaves_gaps_or_is_malformed_is_refused(
    data: dict[str, list[list[int | str]]], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        ArcScheme.from_data(data)


def test_a_scheme_built_by_hand_is_checked_too() -> None:
    with pytest.raises(ValueError, match="12 sectors"):
        ArcScheme(("F",), ("F",) * 11)
    with pytest.raises(ValueError, match="covers no sector"):
        ArcScheme(("F", "R"), ("F",) * 12)
    with pytest.raises(ValueError, match="not an arc"):
        ArcScheme(("F",), ("F",) * 11 + ("R",))


def test_a_heading_is_0_to_5() -> None:
    with pytest.raises(ValueError, match=r"0\.\.5"):
        arc_of(ORIGIN, 6, Hex(0, -1))


@pytest.mark.spec("BSG-A07")
@given(hexes, headings, hexes, st.integers(0, 4), schemes())
def test_arcs_containing_a_field_is_every_arc_any_of_its_hexes_touches(
    ship: Hex, heading: int, controller: Hex, r: int, scheme: ArcScheme
) -> None:
    field = disc(controller, r)
    found = arcs_containing(ship, heading, field, scheme)
    if ship in field:
        assert found == list(scheme.arcs)
        return
    expected = {a for h in field for a in scheme.arcs_at(ship, heading, h)}
    assert found == [a for a in scheme.arcs if a in expected]
    assert scheme.arc_at(ship, heading, controller) in found


def test_a_large_field_near_the_bow_shows_in_three_arcs() -> None:
    assert arc_of(ORIGIN, 0, Hex(0, -3)) == "F"
    assert arcs_containing(ORIGIN, 0, disc(Hex(0, -3), 2)) == ["F", "RF", "LF"]
