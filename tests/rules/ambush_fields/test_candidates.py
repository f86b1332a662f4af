"""The commands ambush-fields offers a side (``candidates``) play a game as a player would.

The contract tests' random games are only as deep as these candidates let them be: a game
that ends in the first turn, or whose fields drop at once, checks hardly anything. So:
random play is mostly accepted, runs for turns with the fields up, finds fields and uses
the scouts on them; a side that has ended the phase waits; own ships are named both ways.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from ghillie import Game, Refusal, examples, registry
from ghillie.rules.ambush_fields.board import FieldState, Step
from ghillie.rules.ambush_fields.candidates import DROP_FROM, END_GAME_FROM
from ghillie.state import Facts, Phase

EXAMPLES = ("ambush-fields", "ambush-fields-table")
SEEDS = range(6)
STEPS = 200
# Refusals a sensible command may still meet: none is a malformed or unknown command.
EXPECTED_REFUSALS = {"no_points_left", "out_of_range", "not_now", "not_a_scout"}


@dataclass
class Moment:
    game: Game
    side: str
    options: list[Facts]
    turn: int
    done: bool  # the side had ended the current phase


@dataclass
class Played:
    accepted: Counter[str] = field(default_factory=Counter)
    refused: Counter[tuple[str, str]] = field(default_factory=Counter)


def play(
    name: str, seed: int, steps: int = STEPS, played: Played | None = None
) -> Iterator[Moment]:
    """A random game: at each step a random side gives one of its candidates at random."""
    game = Game.create(examples.load(name), seed=seed)
    ruleset = game.state.ruleset
    rng = random.Random(seed)
    played = played if played is not None else Played()
    for _ in range(steps):
        if game.state.phase is Phase.OVER:
            return
        side = rng.choice(game.state.sides)
        options = ruleset.candidates(game.state, side)
        board = game.state.board
        yield Moment(game, side, options, board.turn, side in board.done)
        if not options:
            continue
        command = rng.choice(options)
        try:
            game.command(side, command)
        except Refusal as refusal:
            played.refused[(command["type"], refusal.code)] += 1
        else:
            played.accepted[command["type"]] += 1


def _refusal(step: Moment, command: Facts) -> str | None:
    try:
        step.game.trial(step.side, command)
    except Refusal as refusal:
        return refusal.code
    return None


def _fields_up(game: Game) -> bool:
    return any(p.kind == "field" and p.secret["active"] for p in game.state.pieces.values())


@pytest.mark.parametrize("name", EXAMPLES)
def test_random_play_is_mostly_accepted_and_refused_only_for_game_reasons(name: str) -> None:
    played = Played()
    for seed in SEEDS:
        for step in play(name, seed, played=played):
            # Every candidate, not only the one given: each is well formed and, if refused,
            # refused for a reason of the game.
            for command in step.options:
                code = _refusal(step, command)
                assert code is None or code in EXPECTED_REFUSALS, (command, code)
    accepted, refused = sum(played.accepted.values()), sum(played.refused.values())
    assert accepted + refused > 300
    assert accepted / (accepted + refused) >= 0.8, played.refused
    # The game moves through its whole turn, not only its first phases.
    for kind in ("plot", "scan", "fire", "assign_ew", "end_phase"):
        assert played.accepted[kind], f"no {kind} was accepted in {name}"


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_game_runs_for_turns_with_its_fields_up(name: str, seed: int) -> None:
    deepest, hidden_late = 0, False
    for step in play(name, seed):
        deepest = max(deepest, step.turn)
        hidden_late = hidden_late or (step.turn >= 3 and _fields_up(step.game))
    assert deepest >= 3
    assert hidden_late, "every field was down before the third turn"


@pytest.mark.parametrize("name", EXAMPLES)
def test_scans_find_fields_and_the_scouts_work_on_them(name: str) -> None:
    played = Played()
    found: dict[FieldState, set[tuple[int, str, str]]] = defaultdict(set)
    for seed in SEEDS:
        for step in play(name, seed, played=played):
            for side, known in step.game.state.board.fields.items():
                for field_id, state in known.items():
                    found[state].add((seed, side, field_id))
    located, partial = len(found[FieldState.LOCATED]), len(found[FieldState.PARTIAL])
    assert located >= 2, "scans hardly ever locate a field"
    assert located + partial >= 4
    for kind in ("identify", "mass_identify"):
        assert played.accepted[kind], f"no {kind} was accepted in {name}"


@pytest.mark.parametrize("name", EXAMPLES)
def test_carriers_launch_and_recover_and_ships_leave_the_board_and_come_back(name: str) -> None:
    played = Played()
    told: Counter[str] = Counter()
    for seed in SEEDS:
        game = None
        for step in play(name, seed, played=played):
            game = step.game
        assert game is not None
        for event in game.events():
            told.update(line.get("event", "") for line in event.told.get("cylons", ()))
            told.update(line.get("event", "") for line in event.told.get("colonials", ()))
    assert played.accepted["launch"] >= 10
    assert played.accepted["recover"] >= 3
    assert told["left_board"] >= 3, "ships hardly ever leave the board"
    assert told["entered_board"] >= 2, "ships that left hardly ever come back"


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_side_done_with_the_phase_waits(name: str) -> None:
    """Nothing to give but, rarely and late, ending the game; and the one still acting
    is never offered the end of the game."""
    waiting = offered_end = 0
    for seed in SEEDS:
        for step in play(name, seed):
            types = [c["type"] for c in step.options]
            if step.done:
                waiting += 1
                assert types in ([], ["end_game"]), types
                if types:
                    offered_end += 1
                    assert step.turn >= END_GAME_FROM
            else:
                assert "end_game" not in types
    assert waiting > 100
    assert offered_end / waiting < 0.15


@pytest.mark.parametrize("name", EXAMPLES)
def test_fields_are_not_dropped_early_nor_every_turn(name: str) -> None:
    initiative_late = offered = 0
    for seed in SEEDS:
        for step in play(name, seed):
            drop = any(c["type"] == "drop_field" for c in step.options)
            assert not drop or step.turn >= DROP_FROM
            late = step.game.state.board.step is Step.INITIATIVE and step.turn >= DROP_FROM
            if late and step.side == "cylons" and not step.done:
                initiative_late += 1
                offered += drop
    assert initiative_late
    assert offered / initiative_late <= 0.5


def _own_refs(command: Facts) -> list[str]:
    if command["type"] in ("plot", "deploy"):
        return [m["ship"] for m in command.get("moves", command.get("ships", []))]
    if command["type"] == "scan":
        return list(command["ships"])
    return [command[k] for k in ("ship", "scout") if k in command]


@pytest.mark.parametrize("name", EXAMPLES)
def test_own_ships_are_named_by_key_and_by_id(name: str) -> None:
    """Both are accepted; naming by id lets the error oracle put an unseen piece there."""
    by_id = by_key = 0
    for step in play(name, 0):
        keys = {
            p.secret["key"]
            for p in step.game.state.pieces.values()
            if p.owner == step.side and p.kind == "ship"
        }
        for command in step.options:
            for ref in _own_refs(command):
                by_id += ref in step.game.state.pieces
                by_key += ref in keys
    assert by_id >= 20
    assert by_key >= 20


def _public(command: Facts) -> dict[str, Any]:
    model = registry.get("ambush-fields").commands[command["type"]]
    return {k: v for k, v in command.items() if k not in model.secret_fields}


@pytest.mark.parametrize("name", EXAMPLES)
def test_secret_commands_of_a_kind_differ_only_in_their_secret_fields(name: str) -> None:
    """The two-worlds tests give world B another candidate with the same public part."""
    variants = 0
    for seed in SEEDS:
        for step in play(name, seed):
            for kind in ("plot", "scan", "deploy"):
                same = [c for c in step.options if c["type"] == kind]
                assert len({repr(_public(c)) for c in same}) <= 1
                variants += len(same) > 1
    assert variants > 50
