"""A piece may be named by its id or by its public handle (a unit's key, a marker's label)
alike, in every command of every ruleset (ghillie.lookup): the same command with either
name is ruled the same way. A ruleset that looked a piece up by id alone once accepted a
live reaction naming its unit by key and then failed on it (a 500 over HTTP).

Seeded games of every bundled scenario are walked; at each step the command about to be
given is tried as drawn (pieces by id) and with every piece the side can see named by its
handle instead, with the very same dice, and both must come to the same ruling."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from ghillie import Game, Refusal, clock
from ghillie.dice.source import SeededDice
from ghillie.events import effect_to_json, roll_to_json
from ghillie.fairness.referee import trial
from ghillie.lookup import HANDLES

from .harness import SCENARIOS, SECRET_TEXT_FIELDS, first_difference, seeded_walk, strings

SEEDS = range(3)
STEPS = 120


def _names(game: Game, side: str) -> dict[str, str]:
    """Each piece ``side`` can see that has a handle naming it alone, id to handle: a public
    key or label, or the scenario key of one of its own pieces (a hidden ship's key is its
    owner's alone)."""
    state = game.state
    handles: dict[str, str] = {}
    for piece in state.pieces.values():
        if not state.can_see(side, piece.id):
            continue
        public = [piece.public.get(h) for h in HANDLES]
        own = [piece.secret.get("key")] if piece.owner == side else []
        name = next((n for n in (*public, *own) if isinstance(n, str)), None)
        if name is not None:
            handles[piece.id] = name
    counts = Counter(handles.values())
    return {ref: name for ref, name in handles.items() if counts[name] == 1}


def _ruling(game: Game, side: str, command: dict[str, Any], names: dict[str, str], now: str) -> Any:
    """The ruling on ``command`` at ``now``, with every handle in ``names`` read as its id."""
    try:
        event, _ = trial(game.ledger, game.state, side, command, game.ids, game.dice, now=now)
    except Refusal as refused:
        return ["refused", refused.code, refused.field]
    outcome: Any = {
        "effects": [effect_to_json(e) for e in event.effects],
        "rolls": [roll_to_json(r) for r in event.rolls],
        "told": event.told,
    }
    for ref, name in names.items():
        outcome = _rename(outcome, name, ref)
    return outcome


def _rename(value: Any, old: str, new: str) -> Any:
    """``value`` with the name ``old`` read as ``new`` wherever it may name a piece: not in
    the free text a player writes (a note may say "sniper")."""
    if isinstance(value, dict):
        return {k: v if k in SECRET_TEXT_FIELDS else _rename(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, old, new) for v in value]
    return new if value == old else value


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_a_piece_named_by_its_handle_is_ruled_as_when_named_by_its_id(scenario: str) -> None:
    renamed = 0
    for seed in SEEDS:
        walk = seeded_walk(scenario, seed, STEPS, dice=SeededDice(seed))
        for game, side, command in walk:
            names = _names(game, side)
            given = set(strings(command))
            by_id = {ref: name for ref, name in names.items() if ref in given}
            by_handle = {ref: name for ref, name in names.items() if name in given}
            if not by_id and not by_handle:
                continue
            # Each piece named the other way: ids by handle, handles by id.
            named = command
            for ref, name in by_id.items():
                named = _rename(named, ref, name)
            for ref, name in by_handle.items():
                named = _rename(named, name, ref)
            renamed += 1
            # Both rulings read with every such name as its id: the record keeps a command
            # as it was given, and a key there is no different ruling.
            both = by_id | by_handle
            now = clock.now()  # both at one host time: a window's end is read against it
            as_given = _ruling(game, side, command, both, now)
            by_name = _ruling(game, side, named, both, now)
            assert by_name == as_given, (
                f"{scenario} seed {seed} step {game.state.seq}: {side} {command} ruled "
                f"otherwise with {named}: {first_difference(by_name, as_given)}"
            )
    assert renamed, f"no command of {scenario} named a piece that has a handle"
