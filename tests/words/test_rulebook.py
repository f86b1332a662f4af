"""The § beside a log line or an order names the rules it applies, with a line of each, in
the reader's language, and never a spec id (issue 26, item 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ghillie import registry
from ghillie.words import speaker
from ghillie.words.catalog import languages
from ghillie.words.rulebook import rule_lines, rulebook

SPEC_ID = re.compile(r"\b[A-Z]{2,4}-[A-Z]{1,2}\d+")
RULES = Path(__file__).resolve().parents[2] / "src" / "ghillie" / "rules"
RULESETS = sorted(registry.rulesets())


def named_in_code(ruleset: str) -> set[str]:
    """Every spec id the ruleset's code names in a string (rules=("SW-R02", …))."""
    folder = RULES / ruleset.replace("-", "_")
    return {
        found
        for source in folder.glob("*.py")
        if source.name != "rulebook.py"
        for found in re.findall(r'"([A-Z]+-[RATS]\d+)"', source.read_text(encoding="utf-8"))
    }


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_rule_the_code_names_has_a_name_and_a_short_line(ruleset: str) -> None:
    book = rulebook(ruleset)
    missing = sorted(named_in_code(ruleset) - set(book))
    assert missing == [], f"run scripts/rulebook: {ruleset}'s rulebook lacks {missing}"
    for rule, (name, line) in book.items():
        assert name, rule
        assert line, rule
        assert not SPEC_ID.search(f"{name} {line}"), (rule, name, line)
        assert len(f"{name}: {line}") <= 125, (rule, name, line)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_tooltip_lines_name_each_rule_in_every_language_the_ruleset_speaks(
    ruleset: str,
) -> None:
    ids = sorted(rulebook(ruleset))
    english = rule_lines(ids, speaker(ruleset, "en"))
    assert len(english) == len(ids)
    for lang in languages(ruleset):
        lines = rule_lines([*ids, "XX-R99"], speaker(ruleset, lang))
        assert len(lines) == len(ids)  # an id no rulebook has is left out, never shown
        for line in lines:
            assert not SPEC_ID.search(line), line
            assert re.match(r"^[^:]+: .+", line), line
        if lang != "en":
            untranslated = [line for line in lines if line in english]
            assert untranslated == [], untranslated


def test_a_suspicious_places_rule_reads_in_russian() -> None:
    assert rule_lines(["SW-R33"], speaker("suspicious-places", "ru")) == [
        "Скрытая расстановка снайпера: Фигура снайпера не выставляется."
    ]
    assert rule_lines(["SW-R33"], speaker("suspicious-places", "en")) == [
        "Sniper stealth setup: The sniper figure is not placed."
    ]
