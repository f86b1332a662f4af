"""Red team, issue 24: the one head signature covers every side's salted digest of what it was
shown. Held (guard): a side is given its own salt for every event and never another side's,
so the other sides' digests it holds cannot be recomputed from a guess at their lines (the
salts come from the host's roster key, revealed only in the record)."""

from __future__ import annotations

import json
import re

import pytest

from tests.registered import ruleset_ids

from ..fairness.games import play_random

HEX = re.compile(r"[0-9a-f]{64}")


@pytest.mark.parametrize("scenario", ruleset_ids())  # each ruleset's main example
def test_a_side_holds_its_own_salts_and_no_other_sides(scenario: str) -> None:
    game = play_random(scenario, 3, steps=40)
    record = game.record()
    for side in game.state.sides:
        shown = [e["fair"]["shown"] for e in record["events"]]
        mine = {s[side]["salt"] for s in shown}
        others = {s[o]["salt"] for s in shown for o in s if o != side}
        seen = set(HEX.findall(json.dumps(game.view(side))))
        assert mine <= seen  # to compute its own digest of each entry
        assert not others & seen, side
