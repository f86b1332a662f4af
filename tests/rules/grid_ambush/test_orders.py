"""Written ambush orders (RULES-SPEC DWV-R04, test case DWV-T01): "Patrol led by Sgt. Graw
setting up ambush in square D2"."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghillie.rules.grid_ambush.orders import Named, Order, parse_order

GRAW = Named("graw", "Sgt. Graw's patrol", "Sgt. Graw")
MARBO = Named("marbo", "Marbo", "Marbo")
GRAWSON = Named("grawson", "Grawson's lads", "Sgt. Grawson")
COMMAND = Named("command", "Command squad", "Colonel Straken")
ARMY = [GRAW, MARBO, GRAWSON, COMMAND]


@pytest.mark.spec("DWV-T01", "DWV-R04")
def test_dwv_t01_the_diagram_order_parses_to_graws_patrol_in_d2() -> None:
    order = parse_order("Patrol led by Sgt. Graw setting up ambush in square D2", ARMY)
    assert order == Order("graw", "D2")


@pytest.mark.spec("DWV-R04")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sgt. Graw's patrol setting up ambush in square D2", Order("graw", "D2")),
        ("Sgt. Graw setting up ambush in square D2", Order("graw", "D2")),
        ("sgt. graw's PATROL is setting up an ambush in square d2.", Order("graw", "D2")),
        ("  Marbo setting up ambush in square B2  ", Order("marbo", "B2")),
        ("Lone killer led by Marbo setting up ambush in square A1", Order("marbo", "A1")),
        ("Lads led by Sgt. Grawson setting up ambush in square E1", Order("grawson", "E1")),
        ("Squad led by Colonel Straken setting up ambush in square C2", Order("command", "C2")),
        ("Sgt. Graw's patrol setting up ambush in square AB12", Order("graw", "AB12")),
    ],
)
def test_dwv_r04_orders_name_a_unit_by_its_name_or_its_leader(text: str, expected: Order) -> None:
    assert parse_order(text, ARMY) == expected


@pytest.mark.spec("DWV-R04")
@pytest.mark.parametrize(
    "text",
    [
        "",
        "Patrol led by Sgt. Graw",
        "Patrol led by Sgt. Graw hides in D2",
        "Patrol led by Sgt. Graw setting up ambush in square",
        "Patrol led by Sgt. Graw setting up ambush in square D2 and E1",
        "Patrol led by Sgt. Nobody setting up ambush in square D2",
        "setting up ambush in square D2",
        "Patrol setting up ambush in square D2",  # no name, no leader
        "Patrol led by Sgt. Graw and Marbo setting up ambush in square D2",  # two units
        "Patrol led by Graw setting up ambush in square D2",  # not the leader's full name
    ],
)
def test_dwv_r04_an_order_that_does_not_name_exactly_one_unit_and_a_square_is_unreadable(
    text: str,
) -> None:
    assert parse_order(text, ARMY) is None


@pytest.mark.spec("DWV-R04")
def test_dwv_r04_a_leader_is_matched_by_whole_words_only() -> None:
    # "Sgt. Graw" is a prefix of "Sgt. Grawson": his order must not name Graw's patrol.
    assert parse_order(
        "Patrol led by Sgt. Grawson setting up ambush in square D2", [GRAW, GRAWSON]
    ) == Order("grawson", "D2")
    assert parse_order("Patrol led by Sgt. Grawson setting up ambush in square D2", [GRAW]) is None


@pytest.mark.spec("DWV-R04")
def test_dwv_r04_two_units_with_the_same_leader_make_the_order_ambiguous() -> None:
    twin = Named("twin", "Second patrol", "Sgt. Graw")
    assert (
        parse_order("Patrol led by Sgt. Graw setting up ambush in square D2", [GRAW, twin]) is None
    )
    assert parse_order("Second patrol setting up ambush in square D2", [GRAW, twin]) == Order(
        "twin", "D2"
    )


@pytest.mark.spec("DWV-R04")
@given(
    column=st.text(alphabet=string.ascii_letters, min_size=1, max_size=2), row=st.integers(0, 99)
)
def test_dwv_r04_the_square_is_read_as_written_in_capitals(column: str, row: int) -> None:
    text = f"Patrol led by Sgt. Graw setting up ambush in square {column}{row}"
    assert parse_order(text, ARMY) == Order("graw", f"{column.upper()}{row}")
