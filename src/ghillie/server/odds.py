"""Odds for a command a side is about to give: the check its ruleset would roll."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghillie import engine
from ghillie.dice.check import percent
from ghillie.dice.steps import Die
from ghillie.errors import BAD_DIE, Refusal
from ghillie.state import GameState
from ghillie.words import Speaker, say


def odds_for(
    state: GameState[Any, Any], side: str, raw: Mapping[str, Any], words: Speaker | None = None
) -> dict[str, Any]:
    """``{"check", "dice", "outcomes"}`` for the command; empty if it rolls no dice;
    ``{"refused": {code, detail, field}}`` with the very refusal the command would get now,
    so a form can say what to fix before it is sent. The check is built only from what
    ``side`` may know.

    A command naming a die the game does not have is no half-written form: its Refusal
    (``bad_die``) is raised, and answered as a problem, as the command itself would be.

    With ``words``, the dice, the outcomes and a refusal are in the reader's language."""
    ruleset = state.ruleset
    try:
        command = engine.parse_command(ruleset, raw)
        # Odds only for a command the side may give now, built from what it knows: never
        # from the other side's trooper acting now (a hidden profile).
        engine.check_may_act(state, side, type(command))
        check = ruleset.odds(state, side, command)
    except Refusal as refusal:
        if refusal.code == BAD_DIE:
            raise
        refused = refusal.as_dict()
        if words is not None:
            refused["detail"] = refusal.spoken(words)
        return {"refused": refused}
    if check is None:
        return {}
    labels: Mapping[str, str] = ruleset.odds_labels(command)
    word = words.word if words is not None else str
    return {
        "check": command.type,
        "dice": {word(label): _die(die, words) for label, die in check.dice},
        "outcomes": [
            {
                "outcome": str(outcome),
                "label": word(labels.get(str(outcome), str(outcome))),
                "probability": str(p),
                "percent": percent(p),
            }
            for outcome, p in check.odds().items()
        ],
    }


def _die(die: Die, words: Speaker | None) -> str:
    """A die as the reader's rules write it: d8, or к8 in a Russian rule text."""
    if words is None:
        return str(die)
    if die.plus:
        return words.text(say("d{faces}+{plus}", faces=str(die.faces), plus=str(die.plus)))
    return words.text(say("d{faces}", faces=str(die.faces)))
