"""Dice: step dice, the sources rolls are drawn from, and checks with exact odds."""

from ghillie.dice.check import Check, odds
from ghillie.dice.source import DiceSource, RandomDice, ScriptedDice, SeededDice
from ghillie.dice.steps import Die, Overflow, step_die, step_of

__all__ = [
    "Check",
    "DiceSource",
    "Die",
    "Overflow",
    "RandomDice",
    "ScriptedDice",
    "SeededDice",
    "odds",
    "step_die",
    "step_of",
]
