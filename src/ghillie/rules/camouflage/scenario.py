"""The camouflage scenario: two sides, their troopers' public profiles, the table.

A trooper's profile holds what the Camouflaged State text leans on, as the army list gives
it (RULES-SPEC §5.6): WIP, BS, PH, ARM, Silhouette, Camouflage, Mimetism, Multispectral
Visor level, Sensor, Impetuous, Fireteam. A camouflaged weapon or piece of equipment (a
mine) is listed as equipment. Every DEFAULT of RULES-SPEC §5.3 is a switch here, named as
RULES-SPEC suggests. Which marker hides which trooper is never in a scenario: its owner
records it at deployment.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from functools import cached_property
from typing import Literal

from pydantic import Field, model_validator

from ghillie.measure.tabletop import XY, Tabletop
from ghillie.scenario import SIDE_ID, Scenario, Strict, Switches, TerrainSpec, tabletop

from .checks import MOD_CAP, BandEdge, CriticalClash

KEY = r"^[a-z][a-z0-9_]{0,39}$"


class LockoutEnds(StrEnum):
    NEXT_PLAYER_TURN = "next_player_turn"  # DEFAULT (INF-A05): whichever player's it is
    OWN_TURN = "own_turn"  # the failed trooper's own next Active Turn


class CamouflageSwitches(Switches):
    # INF-A01: Cover applies to Discover (true for N4; still to be checked for N5).
    discover_applies_cover: bool = Field(True, alias="inf.discover_applies_cover")
    # INF-A11: a distance on a band edge belongs to the nearer band (0-8" includes 8").
    band_edge: BandEdge = Field(BandEdge.NEARER, alias="inf.band_edge")
    # INF-A05: when a Discover lock-out ends.
    lockout_ends: LockoutEnds = Field(LockoutEnds.NEXT_PLAYER_TURN, alias="inf.lockout_ends")
    # INF-A12: a trooper that goes back into the state is shown as the marker that replaced
    # that model (its opponent watched it happen); false: an unknown marker.
    recamo_keeps_identity: bool = Field(True, alias="inf.recamo_keeps_identity")
    # Beyond RULES-SPEC (the base game): Criticals on both sides of a Face to Face Roll
    # cancel each other (the N5.1.1 wiki's reading), or both stand.
    critical_clash: CriticalClash = Field(CriticalClash.CANCEL, alias="inf.critical_clash")
    # The +-12 limit on the MODs of a roll (N4; the N5 wiki says so too; §5.1 "to verify").
    # 0: no limit.
    mod_cap: int = Field(MOD_CAP, ge=0, le=40, alias="inf.mod_cap")


class TrooperSpec(Strict):
    """A trooper, or a camouflaged weapon or piece of equipment, and its public profile."""

    key: str = Field(pattern=KEY)
    side: str = Field(pattern=SIDE_ID)
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["trooper", "equipment"] = "trooper"
    wip: int = Field(13, ge=1, le=20)
    bs: int = Field(11, ge=1, le=20)
    ph: int = Field(10, ge=1, le=20)
    arm: int = Field(1, ge=0, le=13)
    wounds: int = Field(1, ge=1, le=6)
    silhouette: int = Field(2, ge=1, le=8)
    camouflage: bool = False  # the Camouflage Special Skill (or the item's own)
    mimetism: Literal[0, -3, -6] = 0  # INF-R04: shown on its marker
    msv: int = Field(0, ge=0, le=3)  # Multispectral Visor level
    sensor: bool = False
    impetuous: bool = False
    fireteam: str = ""  # the Fireteam it starts in, if any
    weapons: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()  # other special skills, as the army list writes them
    at: XY | None = None  # map mode: where it is deployed, if it is deployed as a model
    # Its owner deploys it as a model though it has Camouflage (the army list says so):
    # the state is automatic, not compulsory (an interpretation; docs/rulesets.md).
    as_model: bool = False

    @property
    def camouflaged(self) -> bool:
        """Does it begin the game as a marker (INF-R01)? An Impetuous trooper's state is
        cancelled as soon as it would begin (INF-R13 f), so it deploys as a model."""
        impetuous = self.kind == "trooper" and self.impetuous
        return self.camouflage and not impetuous and not self.as_model


class CamouflageScenario(Scenario):
    ruleset: Literal["camouflage"] = "camouflage"
    first: str = Field(pattern=SIDE_ID)  # the side whose Player Turn comes first
    rounds: int = Field(3, ge=1, le=10)  # the game ends after this many game rounds
    width: float = Field(48, gt=0, le=120)  # the table, in inches
    depth: float = Field(48, gt=0, le=120)
    terrain: tuple[TerrainSpec, ...] = ()
    troopers: tuple[TrooperSpec, ...] = Field(min_length=1)
    switches: CamouflageSwitches = Field(default_factory=CamouflageSwitches)

    @model_validator(mode="after")
    def _the_rules_allow_it(self) -> CamouflageScenario:
        sides = {s.id for s in self.sides}
        if self.first not in sides:
            raise ValueError(f"first: {self.first!r} is not one of the sides")
        keys = Counter(t.key for t in self.troopers)
        if any(n > 1 for n in keys.values()):
            raise ValueError("trooper keys must be unique")
        for t in self.troopers:
            if t.side not in sides:
                raise ValueError(f"trooper {t.key}: {t.side!r} is not one of the sides")
            if t.kind == "equipment" and t.as_model:
                raise ValueError(f"{t.name}: a camouflaged item is always deployed as a marker")
            if t.kind == "equipment":
                if not t.camouflage:
                    raise ValueError(
                        f"{t.name}: a weapon or piece of equipment is listed only when it is "
                        "camouflaged"
                    )
                if t.silhouette != 2:
                    raise ValueError(
                        f"{t.name}: the marker of a camouflaged weapon or piece of equipment "
                        "has Silhouette 2 (INF-R06)"
                    )
            if t.camouflaged and t.fireteam:
                raise ValueError(
                    f"{t.name}: a trooper in Camouflaged State cannot be part of a Fireteam "
                    "(INF-R08)"
                )
            if self.mode.value == "map" and not t.camouflaged and t.at is None:
                raise ValueError(f"{t.name}: give the position it is deployed at on the map")
            if t.at is not None and not (0 <= t.at[0] <= self.width and 0 <= t.at[1] <= self.depth):
                raise ValueError(f"{t.name}: its position is off the table")
        return self

    @cached_property
    def table(self) -> Tabletop:
        return tabletop(self.width, self.depth, self.terrain)

    def trooper(self, key: str) -> TrooperSpec:
        return next(t for t in self.troopers if t.key == key)
