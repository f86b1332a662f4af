"""The rules a sentence or an order applies, as a player reads them: each rule's own name
and one short line of its text, in the reader's language (the § tooltip).

Each ruleset keeps its rules' names and lines in ``rules/<ruleset>/rulebook.py``, written
from RULES-SPEC by ``scripts/rulebook`` and translated in its catalogue like any other word;
a spec id is never shown: an id a rulebook lacks is left out.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from functools import cache

from ghillie.words.speak import Speaker


@cache
def rulebook(domain: str) -> Mapping[str, tuple[str, str]]:
    """A ruleset's rules by id: (name, line), in English."""
    try:
        module = importlib.import_module(f"ghillie.rules.{domain.replace('-', '_')}.rulebook")
    except ModuleNotFoundError:
        return {}
    rules: Mapping[str, tuple[str, str]] = module.RULES
    return rules


def rule_lines(ids: Iterable[str], words: Speaker) -> list[str]:
    """One line per rule: "Camouflaged State: a camouflaged trooper is shown as a marker…"."""
    book = rulebook(words.domain)
    out = []
    for rule in ids:
        found = book.get(rule)
        if found is not None:
            out.append(f"{words.word(found[0])}: {words.word(found[1])}")
    return out
