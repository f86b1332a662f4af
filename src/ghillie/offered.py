"""What a side is offered now: the commands it may give, with the choices its fields may
take and the values its forms start from, and the sides the game waits for. Part of each
view (:mod:`ghillie.view`), built only from what the side can see; the words of every
order are the ruleset's (:mod:`ghillie.forms`)."""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel

from ghillie import engine
from ghillie.forms import Choice, Chooser, models_in, order
from ghillie.ruleset import Command
from ghillie.state import GameState
from ghillie.words import Speaker
from ghillie.words.speak import worded


def waiting_for(state: GameState[Any, Any]) -> list[str]:
    """The sides the game waits for now: those the turn structure lets give a command that
    is not an any-time one. Only the turn structure counts, never what a side holds, so
    every side may be shown it (a side's own secrets decide only its own offers)."""
    found: tuple[str, ...] | None = state.memo.get("waiting_for")
    if found is None:
        commands = state.ruleset.commands
        found = state.memo["waiting_for"] = tuple(
            side
            for side in state.sides
            if any(not commands[n].anytime for n in engine.allowed_commands(state, side))
        )
    return list(found)


def offered(
    state: GameState[Any, Any],
    side: str,
    names: list[str],
    speaker: Speaker,
    spoken: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The commands ``side`` may give now, each with the choices its fields may take and the
    values its form starts from. A command whose required piece field has nothing it could
    name is not offered: there is nothing it could apply to. Everything here is built from
    what the side can see (the choosers' contract), and the tests hold it to that. With
    ``spoken`` (a reader's memo, :func:`ghillie.view.project_update`), choices chosen as
    before are not worded again."""
    ruleset = state.ruleset
    out = []
    for name in names:
        order_ = order(ruleset, name)
        if order_.applies is not None and not order_.applies(state, side):
            continue
        model = ruleset.commands[name]
        choices = {
            path: worded(
                spoken,
                f"choices {name} {path}",
                _chosen(state, side, ask.pieces),
                lambda found: [c.json(speaker) for c in found],
            )
            for path, ask in order_.fields.items()
            if ask.pieces is not None
        }
        if any(not choices[path] for path in choices if _required(model, path)):
            continue
        entry: dict[str, Any] = {"type": name}
        if choices:
            entry["choices"] = choices
        if order_.defaults is not None:
            defaults = dict(order_.defaults(state, side))
            if defaults:
                entry["defaults"] = defaults
        if order_.notes is not None:
            notes = {path: speaker.text(v) for path, v in order_.notes(state, side).items() if v}
            if notes:
                entry["notes"] = notes
        out.append(entry)
    return out


def _chosen(state: GameState[Any, Any], side: str, chooser: Chooser) -> list[Choice]:
    """What ``chooser`` offers ``side`` in this state, worked out once: many orders' fields
    ask the same question (which of my units may act: to observe, to fire, to move)."""
    key = ("choices", chooser, side)
    found: list[Choice] | None = state.memo.get(key)
    if found is None:
        found = state.memo[key] = chooser(state, side)
    return found


@functools.cache  # a command's fields never change: asked for by every view
def _required(model: type[Command] | type[BaseModel], path: str) -> bool:
    """Can the command not be given without naming something in ``path``? True when every
    step of the path is a required field: ``hidings.marker`` when the list of hidings must
    be given and each hiding must name its marker."""
    for name in path.split("."):
        info = model.model_fields.get(name)
        if info is None or not info.is_required():
            return False
        inner = models_in(info.annotation)
        if inner:
            model = inner[0]
    return True
