"""A toy ruleset for reaction windows with a time limit, registered only for the tests that
use it (``registered``): the first side steps, and each step asks the other side whether it
fires, within ``limit`` seconds; hold fire is the default."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Literal

import pytest
from pydantic import Field

from ghillie import registry
from ghillie.forms import Order
from ghillie.ruleset import Command, Reaction, Rule, Ruleset
from ghillie.ruling import Ruling
from ghillie.scenario import Scenario
from ghillie.state import GameState, Phase, Window
from ghillie.words import N_, say

WATCH = "watch"


class TimedScenario(Scenario):
    ruleset: Literal["timed"] = "timed"
    limit: int = Field(1, ge=1)


class Step(Command):
    type: Literal["step"] = "step"


class Shoot(Command):
    type: Literal["shoot"] = "shoot"
    fire: bool = False


class EndGame(Command):
    anytime: ClassVar[bool] = True
    type: Literal["end_game"] = "end_game"


Rules = Ruling[TimedScenario, None]


def step(ruling: Rules, side: str, command: Step) -> None:
    other = ruling.state.others(side)
    ruling.tell_public({"text": say("A step.")})
    ruling.open_window(WATCH, asks=other, limit=ruling.scenario.limit)


def shoot(ruling: Rules, side: str, command: Shoot) -> None:
    """The answer: the window records it, and ``close`` goes on once all have answered."""


def end_game(ruling: Rules, side: str, command: EndGame) -> None:
    ruling.set_phase(Phase.OVER)


class Timed(Ruleset[TimedScenario, None]):
    id = "timed"
    title = "Timed prompts"
    summary = "Each step asks the other side, within a time limit."
    map_modes = ("table",)
    scenario_model = TimedScenario
    rules: ClassVar[Mapping[type[Command], Rule]] = {Step: step, Shoot: shoot, EndGame: end_game}
    orders: ClassVar[Mapping[str, Order]] = {
        "step": Order(N_("Step")),
        "shoot": Order(N_("Fire or hold")),
        "end_game": Order(N_("End the game")),
    }
    reactions: ClassVar[Mapping[str, Reaction]] = {
        WATCH: Reaction(
            "shoot",
            N_("{side} are deciding whether to fire."),
            default={"fire": False},
            timed_out=N_("Time ran out: {side} hold fire."),
        )
    }

    def new_board(self, scenario: TimedScenario) -> None:
        return None

    def setup(self, ruling: Rules, scenario: TimedScenario) -> None:
        ruling.set_phase(Phase.PLAY)

    def secret_facts(self, scenario: TimedScenario) -> int:
        return 0

    def may_act(
        self, state: GameState[TimedScenario, None], side: str, command: type[Command]
    ) -> bool:
        return command is EndGame or (command is Step and side == state.sides[0])

    def close(self, ruling: Rules, window: Window) -> None:
        for side, answer in window.answers.items():
            name = ruling.state.scenario.side_name(side)
            said = "{side} fire." if answer["fire"] else "{side} hold fire."
            ruling.tell_public({"text": say(said, side=name)})


def scenario(limit: int = 1) -> dict[str, Any]:
    return {
        "ruleset": "timed",
        "title": "Timed prompts",
        "sides": [{"id": "blue", "name": "Blue"}, {"id": "red", "name": "Red"}],
        "limit": limit,
    }


@pytest.fixture
def registered() -> Iterator[None]:
    rulesets = registry.rulesets()
    rulesets["timed"] = Timed()
    yield
    del rulesets["timed"]
