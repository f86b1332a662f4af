"""Possessives of names (issue 26, item 8): "Nomads' page", never "Nomads's page". One helper
(ghillie.words.possessive) gives every ``{name}'s`` of an English sentence its form; the
pages' ``t`` does the same (tests/server/test_browser_possessive.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghillie.words import say, speaker
from ghillie.words.possessive import possessive

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Nomads", "Nomads'"),
        ("Soviets", "Soviets'"),
        ("Lianra defenders", "Lianra defenders'"),
        ("PanOceania", "PanOceania's"),
        ("Lieutenant Orlov", "Lieutenant Orlov's"),
        ("KENO ARMS", "KENO ARMS'"),
        ("", "'s"),
    ],
)
def test_a_possessive_takes_an_apostrophe_alone_after_a_final_s(name: str, said: str) -> None:
    assert possessive(name) == said


def test_a_sentence_gives_each_name_that_takes_s_its_possessive() -> None:
    english = speaker("camouflage")
    sentence = "{a}'s Critical {a_dice} and {b}'s Critical {b_dice} cancel each other."
    said = english.text(say(sentence, a="Nomads", a_dice="3", b="Fusilier", b_dice="5"))
    assert said == "Nomads' Critical 3 and Fusilier's Critical 5 cancel each other."
    # A template without 's, and one whose name is not followed by it, are as they were.
    assert english.text(say("{side} is ready.", side="Nomads")) == "Nomads is ready."
    assert english.text(say("{side}'ll go first.", side="Nomads")) == "Nomads'll go first."


def test_no_demo_transcript_writes_s_apostrophe_s() -> None:
    transcripts = sorted(GOLDEN.glob("*.txt"))
    assert transcripts
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in transcripts
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "s's" in line
    ]
    assert found == []
