"""The commands of a camouflage game: deployment, the two halves of an Order, AROs, the
rolls, and what the base game makes happen to a trooper (Impetuous, Retreat!)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import AfterValidator, Field

from ghillie.bounds import Bounded, Ref
from ghillie.measure.tabletop import XY
from ghillie.measuring import Measured
from ghillie.ruleset import Command
from ghillie.state import Phase

from .skills import SkillName

PLAY = frozenset({Phase.PLAY})


class Part(Bounded):
    pass


class MarkerAt(Part):
    piece: Ref  # the trooper or item this marker stands for (the owner's secret)
    at: XY | None = None  # map mode: where the marker is placed
    note: str = Field("", max_length=200)  # the owner's private note on it


class Deploy(Command):
    """Record what each Camouflaged Marker is, and where it stands (INF-R01, R03)."""

    type: Literal["deploy"] = "deploy"
    phases = frozenset({Phase.SETUP})
    secret_fields = frozenset({"markers"})
    markers: list[MarkerAt] = Field(default_factory=list, max_length=40)


class Attack(Part):
    """The attack's numbers from the weapon's profile, as the army list gives them."""

    weapon: str = Field("", max_length=60)
    burst: int = Field(1, ge=1, le=5)
    range_mod: int = Field(0, ge=-12, le=12)  # the weapon's range MOD at this distance
    mods: int = Field(0, ge=-12, le=12)  # any other MODs the base game applies
    ps: int = Field(5, ge=0, le=13)  # the weapon's PS, for the target's saving roll


def _an_order_skill(name: SkillName) -> SkillName:
    if name is SkillName.DELAY:
        raise ValueError("a delay is an ARO, not a skill of an Order")
    return name


class Declared(Part):
    skill: Annotated[SkillName, AfterValidator(_an_order_skill)]
    target: Ref | None = None  # the enemy trooper or marker a Discover or an Attack names
    to: XY | None = None  # map mode: where a move ends
    measured: Measured | None = None  # table mode: range and cover to the target
    attack: Attack | None = None
    contact: Ref | None = None  # the enemy piece this move ends in Silhouette contact with
    caught: list[Ref] = Field(default_factory=list, max_length=10)  # markers under a template
    # Sensor at a real table: the enemy markers inside the trooper's Zone of Control (8").
    zone: list[Ref] = Field(default_factory=list, max_length=20)
    unseen: bool = False  # going back into the state: no enemy model or marker sees it
    # ... and, at a real table, it is outside every enemy Sensor's Zone of Control (§5.1)
    outside_sensor: bool = False


class FirstSkill(Command):
    """Activate a trooper (or one's own marker) and declare the first skill of its Order."""

    type: Literal["first_skill"] = "first_skill"
    phases = PLAY
    piece: Ref
    skill: Declared


class SecondSkill(Command):
    type: Literal["second_skill"] = "second_skill"
    phases = PLAY
    skill: Declared


class AroDeclared(Part):
    piece: Ref  # the reactive trooper, or its marker
    aro: SkillName
    at: XY | None = None  # map mode: the point of the active trooper's route it answers
    measured: Measured | None = None  # table mode: range and cover at that point
    attack: Attack | None = None
    caught: list[Ref] = Field(default_factory=list, max_length=10)  # markers under a template
    # After the second skill of a marker's Order: the trooper had no line of fire to it
    # during the first skill, so it had no ARO to declare or delay then (the base game).
    gained_lof: bool = False


class Aros(Command):
    """The reactive side's AROs (an answer to the reaction window): each trooper that has
    line of fire declares one, a delay, or nothing (it is left out)."""

    type: Literal["aros"] = "aros"
    phases = PLAY
    aros: list[AroDeclared] = Field(default_factory=list, max_length=20)


class Rolls(Part):
    # d20s, in the order listed. Bounded loosely: a face no d20 shows (0, 21) is the rules'
    # to refuse (bad_roll), with the die it names.
    dice: list[Annotated[int, Field(ge=0, le=99)]] = Field(default_factory=list, max_length=40)


class Rolled(Command):
    """A command that rolls d20s, which the players may roll at the table and type in, in
    the order the resolution draws them ("die 1", "die 2", ...)."""

    phases = PLAY
    rolls: Rolls | None = None

    def entered_rolls(self) -> dict[str, int]:
        return {f"die {i}": v for i, v in enumerate(self.rolls.dice, 1)} if self.rolls else {}


class ResolveOrder(Rolled):
    """Roll everything the Order and its AROs call for, and apply it."""

    type: Literal["resolve_order"] = "resolve_order"


class SavingRolls(Rolled):
    type: Literal["saving_rolls"] = "saving_rolls"


class Face(Command):
    """Turn a model that has just replaced its marker (an answer to the reaction window)."""

    type: Literal["face"] = "face"
    anytime: ClassVar[bool] = True
    phases = PLAY
    piece: Ref
    facing: int = Field(ge=0, le=359)  # degrees, clockwise from the top edge of the table


class EndTurn(Command):
    type: Literal["end_turn"] = "end_turn"
    phases = PLAY


class Impetuous(Command):
    """A trooper is or becomes Impetuous (Frenzy or any other effect): INF-R13 (f)."""

    type: Literal["impetuous"] = "impetuous"
    anytime: ClassVar[bool] = True
    phases = PLAY
    piece: Ref


class Retreat(Command):
    """The side's army enters the Retreat! State: INF-R13 (f)."""

    type: Literal["retreat"] = "retreat"
    anytime: ClassVar[bool] = True
    phases = PLAY


class Fireteam(Command):
    """Troopers form or join a Fireteam, or leave theirs (``team`` left empty): INF-R08."""

    type: Literal["fireteam"] = "fireteam"
    phases = PLAY
    team: str = Field("", max_length=40)
    members: list[Ref] = Field(min_length=1, max_length=5)


class EndGame(Command):
    type: Literal["end_game"] = "end_game"
    anytime: ClassVar[bool] = True
    phases = PLAY
