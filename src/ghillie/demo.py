"""Scripted demo games: what ``ghillie demo <ruleset>`` plays and the golden transcripts record.

Each script is a scenario, fixed dice and ids, and a list of steps (a side, a command, and a
caption for a newcomer). :func:`play` runs a script and yields, after every step, exactly
what each side and a spectator would receive — nothing else; :func:`story` tells it as
text, the referee's view too (:mod:`ghillie.story`).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ghillie import examples, registry
from ghillie.dice.source import ScriptedDice
from ghillie.errors import Refusal
from ghillie.game import Game
from ghillie.ids import SeededIds
from ghillie.state import REFEREE, SPECTATOR, Facts
from ghillie.story import Teller, Told, text


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


def play(script: Script, game: Game | None = None, *, referee: bool = False) -> Iterator[Played]:
    """Each step and the views after it: every side's and the spectators', and with
    ``referee`` the referee's too (last)."""
    game = game or new_game(script)
    observers = (*game.state.sides, SPECTATOR, *((REFEREE,) if referee else ()))
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
    """Each registered ruleset's demo script, by ruleset id: ``SCRIPT`` in the ``demo.py``
    of its folder (a ruleset with none has no demo)."""
    found = {}
    for ruleset in registry.rulesets().values():
        name = f"{registry.package(ruleset)}.demo"
        if importlib.util.find_spec(name) is not None:
            found[ruleset.id] = importlib.import_module(name).SCRIPT
    return found


def transcript(script: Script) -> list[dict[str, Any]]:
    """Every step of a script with what each observer's view became, as JSON (``ghillie
    demo --json``; the golden transcripts tell the same as text, :func:`golden`).

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


def story(script: Script) -> list[Told]:
    """Every step of a script as each side, the spectators and the referee read it: the
    golden transcript (``tests/golden/<ruleset>.txt``) and, in each step's ``proof``, the
    proof material beside it (``<ruleset>.proof.json``)."""
    teller: Teller | None = None
    out = []
    for played in play(script, referee=True):
        if teller is None:
            sides = played.views[REFEREE]["sides"]
            teller = Teller(script.ruleset, {s["id"]: s["name"] for s in sides})
        out.append(
            teller.step(
                played.number,
                played.step.side or None,
                played.step.command or None,
                played.views,
                caption=played.step.caption,
                refusal=played.refusal,
            )
        )
    return out


def golden(script: Script) -> tuple[str, list[dict[str, Any]]]:
    """The golden transcript of a script, ``(text, proof)``: the story each side, the
    spectators and the referee read after each step (``<ruleset>.txt``), and per step and
    observer the proof material of each new log entry (``<ruleset>.proof.json``)."""
    told = story(script)
    title = examples.load(script.scenario).title
    head = [
        f"{script.ruleset}: {title}",
        "The demo script as each side, the spectators and the referee read it after each step.",
        f"Written by scripts/golden; the proof material is in {script.ruleset}.proof.json.",
    ]
    proof = [{"step": t.number, "proof": t.proof} for t in told]
    return text(told, head), proof
