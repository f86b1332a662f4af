"""Every registered ruleset speaks the game: its orders and every field of them in players'
words (tests/rules/words_check.py), one ruleset at a time."""

from __future__ import annotations

import pytest

from ghillie import registry
from tests.rules.words_check import check_words


@pytest.mark.parametrize("ruleset", sorted(registry.rulesets()))
def test_every_ruleset_has_every_command_and_field_in_players_words(ruleset: str) -> None:
    check_words(ruleset)
