"""Golden transcripts: the story each side, the spectators and the referee read after every
step of a scripted game (``tests/golden/<ruleset>.txt``), and its proof material — hashes,
roots, signatures, openings — in a file of its own (``<ruleset>.proof.json``).

A change to what anyone reads shows up here as a failing comparison with a readable diff;
if the change is intended, run scripts/golden and review the diff of tests/golden/*.txt.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

import pytest

from ghillie import registry
from ghillie.demo import golden, scripts, story, transcript
from ghillie.state import REFEREE

GOLDEN = Path(__file__).parent / "golden"
HEX_ID = re.compile(r"[0-9a-f]{32}")
SHOWN = 120  # diff lines shown on a failure
HUNK = re.compile(r"^@@ -\S+ \+(\d+)")


def _where(lines: list[str], number: int) -> str:
    """The step and the reader of line ``number`` (from 1) of a transcript."""
    step = reader = ""
    for line in lines[: max(number, 1)]:
        if line.startswith(("Step ", "Event ")):
            step, reader = line.split(" · ")[0], ""
        elif line.startswith("── "):
            reader = line.removeprefix("── ").removesuffix(" read:")
    return f"({', '.join(p for p in (step, reader) if p)})" if step else ""


def _diff(want: str, got: str, name: str) -> str:
    """A unified diff whose every hunk says which step and whose part of it it is in."""
    now = got.splitlines()
    lines = list(
        difflib.unified_diff(want.splitlines(), now, f"golden/{name}", "now", lineterm="", n=2)
    )
    for i, line in enumerate(lines):
        found = HUNK.match(line)
        if found:
            lines[i] = f"{line} {_where(now, int(found.group(1)) + 2)}"
    more = f"\n… and {len(lines) - SHOWN} more lines" if len(lines) > SHOWN else ""
    return "\n".join(lines[:SHOWN]) + more


def test_every_registered_ruleset_has_a_golden_transcript() -> None:
    assert set(scripts()) == set(registry.rulesets())
    assert {p.stem for p in GOLDEN.glob("*.txt")} == set(registry.rulesets())
    assert {p.name for p in GOLDEN.glob("*.json")} == {
        f"{r}.proof.json" for r in registry.rulesets()
    }


@pytest.fixture(scope="module", params=sorted(scripts()))
def told(request: pytest.FixtureRequest) -> tuple[str, str, list[dict[str, object]]]:
    text, proof = golden(scripts()[request.param])
    return request.param, text, proof


def test_transcript_matches_golden(told: tuple[str, str, list[dict[str, object]]]) -> None:
    ruleset, text, _ = told
    want = (GOLDEN / f"{ruleset}.txt").read_text(encoding="utf-8")
    if text != want:
        pytest.fail(
            f"what is read in the {ruleset} demo differs from its golden transcript; if that "
            f"is intended, run scripts/golden and review the diff:\n"
            + _diff(want, text, f"{ruleset}.txt"),
            pytrace=False,
        )


def test_proof_material_matches_golden(told: tuple[str, str, list[dict[str, object]]]) -> None:
    ruleset, _, proof = told
    want = json.loads((GOLDEN / f"{ruleset}.proof.json").read_text(encoding="utf-8"))
    got = json.loads(json.dumps(proof, ensure_ascii=False))
    assert len(got) == len(want), f"the {ruleset} demo has another number of steps"
    for old, new in zip(want, got, strict=True):
        if old != new:
            pytest.fail(
                f"the proof material of step {old['step']} of the {ruleset} demo differs "
                "(scripts/golden):\n"
                + _diff(
                    json.dumps(old, indent=1, sort_keys=True),
                    json.dumps(new, indent=1, sort_keys=True),
                    f"{ruleset}.proof.json",
                ),
                pytrace=False,
            )


def test_no_piece_id_is_ever_printed(told: tuple[str, str, list[dict[str, object]]]) -> None:
    ruleset, text, _ = told
    for n, line in enumerate(text.splitlines(), start=1):
        assert not HEX_ID.search(line), f"{ruleset}.txt line {n} prints an id: {line}"
    on_file = (GOLDEN / f"{ruleset}.txt").read_text(encoding="utf-8")
    assert not HEX_ID.search(on_file)


def test_the_transcript_tells_every_observer_every_step(
    told: tuple[str, str, list[dict[str, object]]],
) -> None:
    ruleset, text, proof = told
    steps = story(scripts()[ruleset])
    assert [s.number for s in steps] == list(range(len(scripts()[ruleset].steps) + 1))
    for step in steps:
        assert list(step.parts)[-1] == REFEREE
        assert f"Step {step.number} · " in text
    # Every side is shown the signed head of the game's first event: its first receipt.
    first = proof[0]["proof"]
    assert isinstance(first, dict)
    assert all(entries[0]["seq"] == 0 for entries in first.values())


@pytest.mark.parametrize("ruleset", sorted(scripts()))
def test_no_side_reads_the_other_sides_notes(ruleset: str) -> None:
    """The scripts write private notes with their secrets; only the owner (and the
    referee) ever reads them — in the views, and in the story told of them."""
    steps = transcript(scripts()[ruleset])
    notes = {(step["side"], note) for step in steps for note in _notes(step["command"] or {})}
    assert notes, "the demo script records at least one secret with a note"
    for step in steps:
        for observer, delta in step["views"].items():
            text = json.dumps(delta, ensure_ascii=False)
            for owner, note in notes:
                if observer != owner:
                    assert note not in text, f"{observer} saw {owner}'s note at step {step['step']}"
    for told in story(scripts()[ruleset]):
        for observer, part in told.parts.items():
            read = "\n".join(part)
            for owner, note in notes:
                if observer not in (owner, REFEREE):
                    assert note not in read, f"{observer} read {owner}'s note at {told.number}"


def _notes(value: object) -> list[str]:
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == "note" and v] + [
            n for v in value.values() for n in _notes(v)
        ]
    if isinstance(value, list):
        return [n for v in value for n in _notes(v)]
    return []
