"""Golden per-side transcripts: each side's view after every step of a scripted game.

A change to what any side sees shows up here as a failing comparison; if the change is
intended, run scripts/golden and review the diff of tests/golden/*.json.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ghillie import registry
from ghillie.demo import scripts, transcript

GOLDEN = Path(__file__).parent / "golden"


def test_every_registered_ruleset_has_a_golden_transcript() -> None:
    assert set(scripts()) == set(registry.rulesets())
    assert {p.stem for p in GOLDEN.glob("*.json")} == set(registry.rulesets())


@pytest.mark.parametrize("ruleset", sorted(scripts()))
def test_transcript_matches_golden(ruleset: str) -> None:
    expected = json.loads((GOLDEN / f"{ruleset}.json").read_text())
    actual = json.loads(
        json.dumps(transcript(scripts()[ruleset]), ensure_ascii=False, sort_keys=True)
    )
    for want, got in zip(expected, actual, strict=True):
        assert got == want, (
            f"step {want['step']} of the {ruleset} transcript differs (scripts/golden)"
        )


@pytest.mark.parametrize("ruleset", sorted(scripts()))
def test_no_side_sees_the_other_sides_notes_in_the_transcript(ruleset: str) -> None:
    """The scripts write private notes with their secrets; only the owner ever sees them."""
    steps = transcript(scripts()[ruleset])
    notes = {(step["side"], note) for step in steps for note in _notes(step["command"] or {})}
    assert notes, "the demo script records at least one secret with a note"
    for step in steps:
        for observer, delta in step["views"].items():
            text = json.dumps(delta, ensure_ascii=False)
            for owner, note in notes:
                if observer != owner:
                    assert note not in text, f"{observer} saw {owner}'s note at step {step['step']}"


def _notes(value: object) -> list[str]:
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == "note" and v] + [
            n for v in value.values() for n in _notes(v)
        ]
    if isinstance(value, list):
        return [n for v in value for n in _notes(v)]
    return []
