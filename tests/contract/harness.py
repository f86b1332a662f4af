"""Shared pieces of the contract suite: canaries, what a side receives, JSON junk."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from ghillie import Game, Refusal, examples, registry
from ghillie.state import SPECTATOR, Phase

# Every bundled example, by ruleset: the contract runs over all of them.
SCENARIOS = {name: examples.data(name)["ruleset"] for name in examples.names()}
# Steps checked across the run, reported in the terminal summary (see tests/conftest.py).
STATS: Counter[str] = Counter()

SECRET_TEXT_FIELDS = ("note",)


def with_canary(command: dict[str, Any], token: str) -> tuple[dict[str, Any], bool]:
    """A copy of ``command`` whose free-text secret fields all carry ``token``."""
    command = copy.deepcopy(command)
    found = False

    def walk(value: Any) -> None:
        nonlocal found
        if isinstance(value, dict):
            for key in list(value):
                if key in SECRET_TEXT_FIELDS:
                    value[key] = f"{value[key]} {token}".strip()
                    found = True
                else:
                    walk(value[key])
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(command)
    return command, found


def received(game: Game, observer: str) -> str:
    """Everything ``observer`` can receive, as one text to search."""
    return json.dumps(game.view(observer), ensure_ascii=False, sort_keys=True)


# Where a view carries proof material: byte strings made from secrets and fresh salts (the
# heads and their signatures, the roots, an opening's salt, blinding value and leaves, a
# roll request's commitment and the head it follows), which differ between two worlds by
# construction: that is what a hiding commitment is.
PROOF_KEYS = frozenset(
    ("hash", "sig", "shown", "roots", "salt", "blind", "leaves", "commitment", "prev")
)


# A piece id (ghillie.ids): 128 random bits as 32 hex digits.
PIECE_ID = re.compile(r"[0-9a-f]{32}")


def comparable(view: dict[str, Any], *, ids: bool = False) -> dict[str, Any]:
    """A view in which every proof string is replaced by the place where that string first
    appeared in the whole view (``#n``, counting every string), for comparing two worlds.

    Nothing is masked: two worlds compare equal only if the side receives the same pattern
    of repeats in both — every string that repeats in one repeating at the same places in
    the other, proof material or not. (A Merkle tree whose inner nodes persisted from event
    to event failed this: an opening's path repeated the nodes of an earlier one exactly
    when the owner's other secrets had not changed in between, issue 10.) Everything else a
    side receives — the opened values and the roll contributions too — must be identical.

    With ``ids``, piece ids are compared by their pattern too: an id is random, so all a
    side can tell of two is whether they are the same. Two worlds in which one side wrote
    more secret pieces (standing orders) draw their later ids differently from one seed:
    the other side's own later pieces then have other ids, in the same pattern."""
    first: dict[str, int] = {}

    def walk(value: Any, proof: bool) -> Any:
        # Keys in sorted order, as json.dumps(sort_keys=True) writes them, so that both
        # worlds number their strings in the same order.
        if isinstance(value, dict):
            return {k: walk(value[k], proof or k in PROOF_KEYS) for k in sorted(value)}
        if isinstance(value, list):
            return [walk(v, proof) for v in value]
        if isinstance(value, str):
            label = f"#{first.setdefault(value, len(first))}"
            return label if proof or (ids and PIECE_ID.fullmatch(value)) else value
        return value

    out: dict[str, Any] = walk(view, False)
    return out


def first_difference(a: Any, b: Any, path: str = "view") -> str:
    """Where two views first differ, as a path into them, for a failure message."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {a!r} != {b!r}"


def seeded_walk(
    scenario: str, seed: int, steps: int, **create: Any
) -> Iterator[tuple[Game, str, dict[str, Any]]]:
    """A seeded game of ``scenario``: at each step, the game and the command some side will
    give next, drawn from what the sides could sensibly give (``Ruleset.candidates``). The
    caller may look before it is given; a refused one is passed over."""
    game = Game.create(examples.load(scenario), seed=seed, **create)
    ruleset = game.state.ruleset
    pick = random.Random(seed)
    for _ in range(steps):
        state = game.state
        if state.phase is Phase.OVER:
            return
        moves = [
            (side, command)
            for side in state.sides
            for command in ruleset.candidates(state, side)
            # Ending the game at once would leave the rest unexplored: rarely.
            if command["type"] != "end_game" or pick.random() < 0.02
        ]
        if not moves:
            return
        side, command = pick.choice(moves)
        yield game, side, command
        with contextlib.suppress(Refusal):
            game.command(side, command)


def observers(game: Game) -> tuple[str, ...]:
    return (*game.state.sides, SPECTATOR)


def unseen_piece_ids(game: Game, side: str) -> list[str]:
    """Ids of pieces that exist but that ``side`` neither owns nor knows of."""
    state = game.state
    return [pid for pid in state.pieces if not state.can_see(side, pid)]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def junk_commands(ruleset_id: str) -> st.SearchStrategy[Any]:
    """Commands as a careless or hostile client might send them: known types with wrong or
    random fields, unknown types, and things that are not commands at all."""
    names = sorted(registry.get(ruleset_id).commands)
    field_names = sorted(
        {f for model in registry.get(ruleset_id).commands.values() for f in model.model_fields}
        - {"type"}
    )
    typed = st.fixed_dictionaries(
        {"type": st.sampled_from([*names, "teleport", ""])},
        optional=dict.fromkeys(field_names, json_values),
    )
    return typed | json_values


def strings(value: Any) -> list[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def substitute(value: Any, old: str, new: str) -> Any:
    """A copy of a JSON value with every string equal to ``old`` replaced by ``new``."""
    if value == old:
        return new
    if isinstance(value, dict):
        return {k: substitute(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, old, new) for v in value]
    return value
