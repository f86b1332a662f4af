"""The commands of suspicious-places, as typed models."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Literal

from pydantic import Field

from ghillie.bounds import Bounded
from ghillie.dice.steps import StepDie
from ghillie.measure.tabletop import XY, Cover
from ghillie.measuring import Measured
from ghillie.ruleset import Command
from ghillie.state import Phase

Ref = str  # a piece id (or, for one's own units, the scenario key)
REF = Field(max_length=64)
NOTE = Field("", max_length=500, description="private to the owner")
Face = int


class _Model(Bounded):
    pass


# --- setup ---------------------------------------------------------------------------------


class NewMarker(_Model):
    """One suspicious-place marker. Map mode: ``at``; table mode: the agreed ``cover`` and
    whether it lies in open terrain (SW-R07)."""

    at: XY | None = None
    cover: Cover | None = None
    open: bool | None = None
    group: Ref | None = Field(None, max_length=64, description="sw.pooled_markers=false only")


class PlaceMarkers(Command):
    """SW-R02: lay out suspicious-place markers from the rolled pool."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP})
    type: Literal["place_markers"] = "place_markers"
    markers: tuple[NewMarker, ...] = Field(min_length=1, max_length=72)


class Content(StrEnum):
    MINE = "mine"
    IED = "ied"
    NOTHING = "nothing"


class Hiding(_Model):
    """What one marker hides: one of the side's camouflaged units, a mine, an IED, nothing."""

    marker: Ref = REF
    unit: Ref | None = Field(None, max_length=64)
    content: Content | None = None
    note: str = NOTE


class Hide(Command):
    """SW-R03/R04: record, in secret, what lies under each marker. Markers left out hide
    nothing."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP})
    secret_fields: ClassVar[frozenset[str]] = frozenset({"hidings"})
    type: Literal["hide"] = "hide"
    hidings: tuple[Hiding, ...] = Field(max_length=72)


class PlaceSniper(Command):
    """SW-R33: three sniper markers within 6" of each other; one is true (secret)."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP})
    secret_fields: ClassVar[frozenset[str]] = frozenset({"true_marker", "note"})
    type: Literal["place_sniper"] = "place_sniper"
    sniper: Ref = REF
    markers: tuple[XY, XY, XY] | None = None
    true_marker: int = Field(ge=0, le=2)
    note: str = NOTE


class Ready(Command):
    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SETUP})
    type: Literal["ready"] = "ready"


# --- the turn --------------------------------------------------------------------------------


class Activate(Command):
    """Start a unit's activation: two actions (SW-R10, R18). A camouflaged squad is revealed
    (SW-R06, A14); a hidden sniper is not."""

    type: Literal["activate"] = "activate"
    unit: Ref = REF


class Pass(Command):
    """Activate nothing now; two passes in a row end the turn."""

    type: Literal["pass"] = "pass"


class EndActivation(Command):
    type: Literal["end_activation"] = "end_activation"


class ObserveRolls(_Model):
    """Physical dice rolled by the observer at the table (the range die is never entered)."""

    quality: Face | None = Field(None, ge=1, le=20)
    means: Face | None = Field(None, ge=1, le=20)


class Observe(Command):
    """SW-R10..R14: one action; observe one marker. ``unit`` defaults to the activated unit
    (an officer's squad may act with the officer's actions, SW-R19)."""

    type: Literal["observe"] = "observe"
    marker: Ref = REF
    unit: Ref | None = Field(None, max_length=64)
    means: Literal["eyes", "binoculars", "stereo", "electronic"] | None = None
    measured: Measured | None = None
    rolls: ObserveRolls | None = None


class FireRolls(_Model):
    quality: Face | None = Field(None, ge=1, le=20)
    weapon: Face | None = Field(None, ge=1, le=20)
    # The range die is the target's owner's (SW-R12, A13): ghillie rolls it, and one typed
    # in is refused (not_your_die). Kept in the schema so that a client that sends it is
    # told why, not only that the field is unknown.
    target: Face | None = Field(
        None, ge=1, le=20, description="the target's owner's die: refused, ghillie rolls it"
    )


class Fire(Command):
    """One action: fire at a marker (SW-R15..R17) or at a unit on the table (general rules,
    SW-R21 lone figures, SW-R30..R32 snipers)."""

    type: Literal["fire"] = "fire"
    target: Ref = REF
    unit: Ref | None = Field(None, max_length=64)
    weapon: StepDie | None = Field(None, description="the weapon die, d4 to d12")
    measured: Measured | None = None
    rolls: FireRolls | None = None


class Move(Command):
    """One action. Map mode: the unit's new centre; ghillie then removes enemy markers in the
    open in sight (SW-R07) and markers the unit now stands over (SW-R08). Table mode: name
    the markers the move exposed."""

    type: Literal["move"] = "move"
    unit: Ref | None = Field(None, max_length=64)
    to: XY | None = None
    exposes: tuple[Ref, ...] = Field((), max_length=72)


class CovertMoveRolls(_Model):
    quality: Face | None = Field(None, ge=1, le=20)
    leadership: Face | None = Field(None, ge=1, le=20)


class CovertMove(Command):
    """SW-R36: a hidden sniper tries to slip to another of its markers, or rolls and stays
    to bluff (``to`` omitted). Secret: the opponent never learns which."""

    secret_fields: ClassVar[frozenset[str]] = frozenset({"to"})
    type: Literal["covert_move"] = "covert_move"
    to: Ref | None = Field(None, max_length=64)
    rolls: CovertMoveRolls | None = None


class Rehide(Command):
    """SW-R37: a revealed sniper that passed its reaction test at threat +2 hides again."""

    secret_fields: ClassVar[frozenset[str]] = frozenset({"note"})
    type: Literal["rehide"] = "rehide"
    passed_reaction_test: bool
    markers: tuple[XY, XY] | None = None  # map mode: the two false markers
    note: str = NOTE


class OtherAction(Command):
    """One action the host rules decide (take cover, reload, ...): ghillie counts it."""

    type: Literal["other_action"] = "other_action"
    unit: Ref | None = Field(None, max_length=64)
    what: str = Field("", max_length=80)


# --- bookkeeping of host-game results ---------------------------------------------------------


class Suppress(Command):
    """Record suppression the host rules give a unit on the table; from a sniper's fire it is
    doubled, to at most 3 (SW-R31)."""

    type: Literal["suppress"] = "suppress"
    anytime: ClassVar[bool] = True
    unit: Ref = REF
    markers: int = Field(1, ge=1, le=3)
    by_sniper: bool = False


class MoraleResult(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    FAILED_TWO_STEPS = "failed_two_steps"


class Morale(Command):
    """SW-R22: the result of a lone figure's morale test under the host rules."""

    type: Literal["morale"] = "morale"
    anytime: ClassVar[bool] = True
    unit: Ref = REF
    result: MoraleResult


class RemovePanic(Command):
    """SW-R22: a lone figure tries to remove panic; failing, it leaves the table."""

    type: Literal["remove_panic"] = "remove_panic"
    anytime: ClassVar[bool] = True
    unit: Ref = REF
    passed: bool


class Join(Command):
    """SW-R19: a lone figure joins a squad (at will)."""

    type: Literal["join"] = "join"
    anytime: ClassVar[bool] = True
    unit: Ref = REF
    squad: Ref = REF


class Leave(Command):
    """SW-R19: a lone figure leaves its squad (map mode: where it stands now)."""

    type: Literal["leave"] = "leave"
    anytime: ClassVar[bool] = True
    unit: Ref = REF
    at: XY | None = None


class EndGame(Command):
    type: Literal["end_game"] = "end_game"
    anytime: ClassVar[bool] = True


# Commands that spend one of the activated unit's actions.
ACTIONS = frozenset({"observe", "fire", "move", "covert_move", "rehide", "other_action"})
# Bookkeeping of host-game results: either side, at any time in play, no action spent.
BOOKKEEPING = frozenset({"suppress", "morale", "remove_panic", "join", "leave", "end_game"})
