"""The form of a page's receipts (ghillie.fairness.strict.Receipts): what a page keeps since
it checks what it was shown (``shown``) and keeps the anchor it gave (``anchor``), in one
spelling only; receipts of older pages, without either, keep their form."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie.fairness import strict

HEAD = {"seq": 0, "hash": "ab" * 32, "sig": "cd" * 64}
SHOWN = {"seq": 0, "digest": "ef" * 32, "sig": "01" * 64}
OLD = {"key": "12" * 32, "heads": [HEAD], "requests": []}
NEW = {**OLD, "anchor": "34" * 32, "shown": [SHOWN]}


@pytest.mark.parametrize("receipts", [OLD, NEW, {**OLD, "shown": []}])
def test_receipts_a_page_keeps_have_the_form(receipts: dict[str, Any]) -> None:
    assert strict.problem(strict.Receipts, receipts) is None


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
    assert strict.problem(strict.Receipts, receipts) is not None
