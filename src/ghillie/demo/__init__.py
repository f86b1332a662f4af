"""Scripted demo games: what ``ghillie demo <ruleset>`` plays and the golden transcripts record.

Each script is a scenario, fixed dice and ids, and a list of steps (a side, a command, and a
caption for a newcomer). :func:`play` runs a script and yields, after every step, exactly
what each side and a spectator would receive — nothing else.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ghillie import examples
from ghillie.dice.source import ScriptedDice
from ghillie.errors import Refusal
from ghillie.game import Game
from ghillie.ids import SeededIds
from ghillie.state import SPECTATOR, Facts


@dataclass(frozen=True)
class Step:
    side: str
    command: Facts
    caption: str


@dataclass(frozen=True)
class Script:
    ruleset: str
    scenario: str
    steps: tuple[Step, ...]
    dice: tuple[int, ...] | None = None  # fixed rolls, in the order the rules make them
    seed: int = 1


@dataclass(frozen=True)
class Played:
    number: int
    step: Step
    refusal: Refusal | None
    views: dict[str, dict[str, Any]]  # observer -> view after the step


def new_game(script: Script) -> Game:
    """The script's game: fair rolls from chains grown from the script's seed, so the demo
    is the same every time and its record passes the audit."""
    dice = ScriptedDice(script.dice) if script.dice is not None else None
    return Game.create(
        examples.load(script.scenario),
        dice=dice,
        ids=SeededIds(script.seed),
        seed=script.seed,
        game_id="demo",
    )


def play(script: Script, game: Game | None = None) -> Iterator[Played]:
    game = game or new_game(script)
    observers = (*game.state.sides, SPECTATOR)
    yield Played(
        0, Step("", {}, "The game is created."), None, {o: game.view(o) for o in observers}
    )
    for number, step in enumerate(script.steps, start=1):
        refusal = None
        try:
            game.command(step.side, step.command)
        except Refusal as exc:
            refusal = exc
        yield Played(number, step, refusal, {o: game.view(o) for o in observers})


def scripts() -> dict[str, Script]:
    from ghillie.demo.ambush_fields import SCRIPT as FIELDS
    from ghillie.demo.grid_ambush import SCRIPT as GRID
    from ghillie.demo.suspicious_places import SCRIPT as PLACES

    return {s.ruleset: s for s in (FIELDS, GRID, PLACES)}


def transcript(script: Script) -> list[dict[str, Any]]:
    """Every step of a script with what each observer's view became: the golden record.

    Step 0 holds each whole view. Later steps hold, per observer, only the parts of the view
    that changed, with the log given as the entries new since the step before — the whole
    view after any step is the sum of the steps up to it.
    """
    steps: list[dict[str, Any]] = []
    before: dict[str, dict[str, Any]] = {}
    for played in play(script):
        changes = {}
        for observer, view in played.views.items():
            old = before.get(observer, {})
            seen = len(old.get("log", []))
            delta = {k: v for k, v in view.items() if k != "log" and old.get(k) != v}
            delta["log"] = view["log"][seen:]
            changes[observer] = delta
            before[observer] = view
        steps.append(
            {
                "step": played.number,
                "caption": played.step.caption,
                "side": played.step.side or None,
                "command": dict(played.step.command) or None,
                "refused": played.refusal.code if played.refusal else None,
                "views": changes,
            }
        )
    return steps
