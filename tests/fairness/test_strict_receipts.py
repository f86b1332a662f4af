"""The form of a page's receipts (ghillie.fairness.strict): since protocol 4 a page keeps each
head with every side's digest of what it was shown (``shown``), each request with the digest
of the order it is for, and the anchor and seat key it gave, in one spelling only; the
receipts of protocol 3 (heads alone, signed views apart) keep their own form."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie.fairness import strict

HEAD = {"seq": 0, "hash": "ab" * 32, "sig": "cd" * 64}
SHOWN = {"seq": 0, "digest": "ef" * 32, "sig": "01" * 64}
OLD = {"key": "12" * 32, "heads": [HEAD], "requests": []}
NEW = {**OLD, "anchor": "34" * 32, "shown": [SHOWN]}
ASKED = {"game": "g", "k": 0, "side": None, "commitment": "", "prev": "", "sig": ""}
V4 = {
    "key": "12" * 32,
    "heads": [{**HEAD, "shown": ["ef" * 32, "01" * 32]}],
    "requests": [{**ASKED, "order": ""}],
    "anchor": "34" * 32,
    "seat": "56" * 32,
}


@pytest.mark.parametrize("receipts", [OLD, NEW, {**OLD, "shown": []}])
def test_receipts_a_page_kept_under_protocol_3_have_their_form(receipts: dict[str, Any]) -> None:
    assert strict.problem(strict.ReceiptsV3, receipts) is None
    assert strict.problem(strict.Receipts, receipts) is not None


@pytest.mark.parametrize("receipts", [V4, {**V4, "anchor": None, "seat": None}])
def test_receipts_a_page_keeps_have_the_form(receipts: dict[str, Any]) -> None:
    assert strict.problem(strict.Receipts, receipts) is None


@pytest.mark.parametrize(
    "receipts",
    [
        {**V4, "shown": [SHOWN]},  # no views apart: they are signed with the heads
        {**V4, "heads": [HEAD]},
        {**V4, "requests": [ASKED]},
        {**V4, "seat": "56" * 31},
        {**V4, "heads": [{**HEAD, "shown": "ef" * 32}]},
    ],
)
def test_receipts_of_protocol_4_written_another_way_have_not(receipts: dict[str, Any]) -> None:
    assert strict.problem(strict.Receipts, receipts) is not None


@pytest.mark.parametrize(
    "receipts",
    [
        {**NEW, "anchor": "34" * 31},
        {**NEW, "anchor": ("34" * 32).upper().replace("3", "A")},
        {**NEW, "shown": [{**SHOWN, "digest": SHOWN["digest"].upper()}]},
        {**NEW, "shown": [{**SHOWN, "seq": True}]},
        {**NEW, "shown": [{**SHOWN, "seq": 0.0}]},
        {**NEW, "shown": [{**SHOWN, "note": "harmless"}]},
        {**NEW, "shown": [{k: v for k, v in SHOWN.items() if k != "sig"}]},
        {**NEW, "shown": SHOWN},
    ],
)
def test_receipts_written_another_way_have_not(receipts: dict[str, Any]) -> None:
    assert strict.problem(strict.ReceiptsV3, receipts) is not None
