"""A ruleset speaks the game: every command has its words and every field says what it asks,
in players' words. One check for any ruleset, by its id (``check_words("grid-ambush")``);
tests/rules/test_words.py runs it over every registered ruleset.

Players' words carry no RULES-SPEC ids (those go in an order's ``rules``, a tooltip), no
code markup (double backticks, ``null``) and no field names (``in_square``): a player at
a table never reads any of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ghillie import forms, registry
from ghillie.forms import Order

SPEC_ID = re.compile(r"\b[A-Z]{2,4}-[A-Z]\d{2}\b")
# A word with an underscore: a field or command name, a switch, a value as the code spells it.
SNAKE = re.compile(r"\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b")
NULL = re.compile(r"\bnull\b", re.IGNORECASE)


def texts(name: str, order: Order) -> Iterator[tuple[str, str]]:
    """Every string a player reads in one order, with where it is."""
    yield f"{name}: title", order.title
    yield f"{name}: help", order.help
    yield f"{name}: confirm", order.confirm
    for path, ask in order.fields.items():
        where = f"{name}.{path}"
        yield f"{where}: label", ask.label
        yield f"{where}: help", ask.help
        yield f"{where}: unit", ask.unit
        yield f"{where}: item", ask.item
        for value, words in ask.options:
            yield f"{where}: option {value!r}", words


def _piece_around(order: Order, path: str, name: str) -> bool:
    """Is ``name`` a piece field of the group of ``path`` or of a group around it (where the
    pages look for it: inputs.js ``nearest``)?"""
    group = path.rpartition(".")[0]
    while True:
        ask = order.fields.get(f"{group}.{name}" if group else name)
        if ask is not None and ask.pieces is not None:
            return True
        if not group:
            return False
        group = group.rpartition(".")[0]


def problems(ruleset_id: str) -> list[str]:
    """What is wrong with a ruleset's words, one line each (empty when nothing is)."""
    ruleset = registry.get(ruleset_id)
    found: list[str] = []
    for name, model in ruleset.commands.items():
        order = ruleset.orders.get(name)
        if order is None:
            found.append(f"{name}: no Order")
            continue
        paths = forms.paths(model)
        for path in sorted(paths - set(order.fields)):
            found.append(f"{name}.{path}: no Ask")
        for path in sorted(set(order.fields) - paths):
            # A tuple's places ("markers.0") are asked one by one; anything else is stale.
            parent, _, last = path.rpartition(".")
            if not (last.isdigit() and parent in paths):
                found.append(f"{name}.{path}: an Ask for no field")
        for path, ask in order.fields.items():
            if ask.where and (ask.kind or "place") != "place":
                found.append(f"{name}.{path}: a place's 'where' on a {ask.kind}")
            if ask.starts and not _piece_around(order, path, ask.starts):
                found.append(f"{name}.{path}: starts at {ask.starts!r}, no piece field near it")
        for rule in order.rules:
            if not SPEC_ID.fullmatch(rule):
                found.append(f"{name}: {rule!r} is not a RULES-SPEC id")
        for where, text in texts(name, order):
            if SPEC_ID.search(text):
                found.append(f"{where}: a RULES-SPEC id in {text!r} (put it in rules=)")
            if "``" in text:
                found.append(f"{where}: code markup in {text!r}")
            if NULL.search(text):
                found.append(f"{where}: 'null' in {text!r}")
            if SNAKE.search(text):
                found.append(f"{where}: a field name in {text!r}")
        if not order.title.strip():
            found.append(f"{name}: an empty title")
    for name in sorted(set(ruleset.orders) - set(ruleset.commands)):
        found.append(f"{name}: an Order for no command")
    prefixes = {rule.split("-")[0] for order in ruleset.orders.values() for rule in order.rules}
    if len(prefixes) > 1:
        found.append(f"the orders cite the rules of several texts: {sorted(prefixes)}")
    return found


def check_words(ruleset_id: str) -> None:
    found = problems(ruleset_id)
    assert not found, f"{ruleset_id}'s words:\n" + "\n".join(found)
