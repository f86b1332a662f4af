"""No refusal names a spec id, in any language (issue 26, item 3): "Place every marker you
rolled first (SW-A04)." was what a player read.

Two ways: every refusal detail the code writes (the catalogues' extractor finds each
``Refusal(code, detail)``), with its translations; and every refusal random games of every
bundled scenario give, when each side tries every command any side could give now and
each with its pieces swapped for others, spoken in every language its ruleset speaks.
"""

from __future__ import annotations

import contextlib
import random
import re
from typing import Any

import pytest

from ghillie import Game, Refusal, examples, registry
from ghillie.words import speaker
from ghillie.words.catalog import languages
from ghillie.words.extract import domains, extract, load

from .harness import strings, substitute

SPEC_ID = re.compile(r"\b[A-Z]{2,4}-[A-Z]{1,2}\d+")


@pytest.mark.parametrize("domain", domains())
def test_no_refusal_the_code_writes_names_a_spec_id(domain: str) -> None:
    found = []
    catalogue = load(domain, "ru")
    for message in extract(domain):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        translated = catalogue.get(ids[0]) if catalogue is not None else None
        forms = translated.string if translated is not None else ()
        texts = [*ids, *(forms if isinstance(forms, tuple) else (forms,))]
        found += [f"{message.locations[0]}: {t!r}" for t in texts if t and SPEC_ID.search(t)]
    assert found == []


def _refusals(game: Game, side: str, command: dict[str, Any]) -> Refusal | None:
    try:
        game.trial(side, command)
    except Refusal as refusal:
        return refusal
    return None


@pytest.mark.parametrize("name", examples.names())
def test_no_refusal_a_game_gives_names_a_spec_id_in_any_language(name: str) -> None:
    scenario = examples.load(name)
    ruleset = registry.get(scenario.ruleset)
    words = [speaker(ruleset.id, lang) for lang in languages(ruleset.id)]
    refused: set[tuple[str, str]] = set()
    for seed in range(2):
        game = Game.create(scenario, seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            every = [c for s in game.state.sides for c in ruleset.candidates(game.state, s)]
            pieces = sorted(game.state.pieces)
            for side in game.state.sides:
                for command in every:
                    tries = [command]
                    named = [v for v in strings(command) if v in game.state.pieces]
                    tries += [substitute(command, n, rng.choice(pieces)) for n in named[:2]]
                    for attempt in tries:
                        refusal = _refusals(game, side, attempt)
                        if refusal is not None:
                            for speaking in words:
                                refused.add((refusal.code, refusal.spoken(speaking)))
            side = rng.choice(game.state.sides)
            options = [c for c in ruleset.candidates(game.state, side) if c["type"] != "end_game"]
            if options:
                with contextlib.suppress(Refusal):
                    game.command(side, rng.choice(options))
    assert refused, "the games gave no refusal to look at"
    assert [r for r in refused if SPEC_ID.search(r[1])] == []
