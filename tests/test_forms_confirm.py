"""Orders that cannot be taken back are asked about before they are sent (issue 26, item 8):
ending a side's phase, step, turn or activation, passing, and ending the game. The ruleset's
words carry the question (``Order.confirm``); the pages ask it (confirm.js,
tests/server/test_browser_confirm.py)."""

from __future__ import annotations

from ghillie import forms, registry
from ghillie.words import speaker

# The commands of every ruleset that end something for a side, for good.
ENDS = {"end_phase", "end_step", "end_turn", "end_activation", "pass", "end_game"}


def test_every_order_that_ends_a_phase_step_turn_or_game_asks_first() -> None:
    found = []
    for ruleset in registry.rulesets().values():
        for name in sorted(set(ruleset.commands) & ENDS):
            said = forms.describe(ruleset, speaker(ruleset.id))[name]
            found.append(name)
            assert "?" in said.get("confirm", ""), (ruleset.id, name)
    # Every ruleset ends something: the check reaches each of them.
    assert {"end_phase", "end_step", "end_turn", "end_activation", "pass"} <= set(found)
