"""Scenarios: the public setup of a game, read from TOML (or JSON) and checked by a schema.

A scenario names its ruleset, the sides, the measurement mode, the units and the table, and
sets rule switches. Each ruleset extends :class:`Scenario`; every DEFAULT of RULES-SPEC is a
field of the ruleset's :class:`Switches` with the DEFAULT as its default, written in the file
either as ``"sw.overflow" = "d12_plus"`` under ``[switches]`` or as ``[switches.sw]``.
Secrets are never part of a scenario: they are recorded during setup, by their owners.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ghillie.bounds import DESCRIPTION, ENTRIES, MAGNITUDE, TEXT, first_out_of_bounds
from ghillie.errors import ScenarioError
from ghillie.measure.tabletop import XY, Cover, Tabletop, Terrain

SIDE_ID = r"^[a-z][a-z0-9_-]{0,31}$"


class Mode(StrEnum):
    """How ghillie learns ranges, cover and positions (DESIGN.md, Measure)."""

    TABLE = "table"  # players measure on the real table and enter the values
    MAP = "map"  # ghillie computes them from positions on its own map


class Strict(BaseModel):
    """The base of every part of a scenario: no key it does not declare, every string at
    most ``bounds.TEXT`` characters unless its field says fewer, no NaN or infinity
    (ghillie.bounds)."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        populate_by_name=True,
        str_max_length=TEXT,
        allow_inf_nan=False,
    )


class SideSpec(Strict):
    id: str = Field(pattern=SIDE_ID)
    name: str = Field(min_length=1, max_length=80)


class Switches(Strict):
    """Rule switches; subclasses name each field by its RULES-SPEC switch (``sw.overflow``)."""

    @model_validator(mode="before")
    @classmethod
    def _flatten(cls, data: Any) -> Any:
        # [switches.sw] overflow = "x"  and  "sw.overflow" = "x"  mean the same. A switch
        # whose value is itself a table (a data list) stops the walk at its own name.
        if not isinstance(data, Mapping):
            return data
        names = {field.alias or name for name, field in cls.model_fields.items()}
        flat: dict[str, Any] = {}

        def walk(prefix: str, value: Any) -> None:
            if prefix in names or not isinstance(value, Mapping):
                flat[prefix] = value
                return
            for key, inner in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), inner)

        walk("", data)
        return flat

    def named(self) -> dict[str, Any]:
        """Every switch by its RULES-SPEC name, with its value."""
        return self.model_dump(mode="json", by_alias=True)


class TerrainSpec(Strict):
    """One terrain feature of a scenario's table: a wood, a building, a ravine, jungle."""

    name: str
    kind: str
    outline: tuple[XY, ...] = Field(min_length=3)
    cover: Cover = Cover.NONE
    blocks_sight: bool = False

    @model_validator(mode="after")
    def _a_simple_polygon(self) -> TerrainSpec:
        _ = self.terrain().shape  # raises on an outline that is not a simple polygon
        return self

    def terrain(self) -> Terrain:
        return Terrain(self.name, self.kind, self.outline, self.cover, self.blocks_sight)


def tabletop(width: float, depth: float, terrain: Sequence[TerrainSpec]) -> Tabletop:
    return Tabletop(width, depth, [t.terrain() for t in terrain])


class Scenario(Strict):
    ruleset: str
    title: str = Field(min_length=1, max_length=120)
    description: str = Field("", max_length=DESCRIPTION)
    sides: tuple[SideSpec, SideSpec]
    mode: Mode = Mode.TABLE
    # May a side type in dice it rolled at the table (its own only: ruling.py)? Left out,
    # yes at a real table and no on a map, where nobody need roll a real die. A scenario
    # that leaves it out is recorded without it, as every scenario was before it.
    typed_dice: bool | None = Field(None, exclude_if=lambda v: v is None)
    switches: Switches = Field(default_factory=Switches)

    @model_validator(mode="after")
    def _distinct_sides(self) -> Scenario:
        ids = [s.id for s in self.sides]
        if len(set(ids)) != len(ids):
            raise ValueError("side ids must differ")
        if {"referee", "spectator"} & set(ids):
            raise ValueError("'referee' and 'spectator' are not side ids")
        return self

    @cached_property
    def header_view(self) -> dict[str, Any]:
        """What every view says of the scenario itself; made once, not per view."""
        return {
            "title": self.title,
            "sides": [{"id": s.id, "name": s.name} for s in self.sides],
            "mode": self.mode.value,
            "typed_dice": self.takes_typed_dice,
            "switches": self.switches.named(),
        }

    @property
    def takes_typed_dice(self) -> bool:
        """Does this game take dice typed in (``typed_dice``, by default at a real table)?"""
        return self.typed_dice if self.typed_dice is not None else self.mode is Mode.TABLE

    def side_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sides)

    def side_name(self, side: str) -> str:
        return self._side_names[side]

    @cached_property
    def _side_names(self) -> dict[str, str]:
        return {s.id: s.name for s in self.sides}


MAX_DEPTH = 32  # a scenario nests 4–6 deep (a terrain outline's points); this is generous


def check_depth(data: Any, limit: int = MAX_DEPTH) -> None:
    """ScenarioError if ``data`` nests deeper than ``limit``: validators and canonical JSON
    recurse, and a scenario thousands deep would exhaust Python's stack (a RecursionError,
    not a refusal). Iterative, so it cannot itself overflow."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, Mapping):
            children: Any = value.values()
        elif isinstance(value, list | tuple):
            children = value
        else:
            continue
        if depth >= limit:
            raise ScenarioError(f"the scenario nests deeper than {limit} levels")
        stack.extend((child, depth + 1) for child in children)


def loads_toml(text: str) -> dict[str, Any]:
    """TOML text as data; ScenarioError if it is not valid TOML or nests too deeply."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"the scenario file is not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise ScenarioError(f"the scenario nests deeper than {MAX_DEPTH} levels") from None


def read_scenario_file(path: str | Path) -> dict[str, Any]:
    """Read a scenario file (``.toml`` or ``.json``) into plain data."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read {path}: {exc.strerror}") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ScenarioError(f"{path}: {exc}") from None
    except RecursionError:  # both parsers recurse once per nested array or table
        raise ScenarioError(f"{path}: the scenario nests deeper than {MAX_DEPTH} levels") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario is a table of keys")
    return data


def check_bounds(data: Any) -> None:
    """ScenarioError naming the first value past the bounds every scenario keeps, whatever
    its ruleset's own fields say (ghillie.bounds): a number not finite or larger than
    ``MAGNITUDE``, a string longer than ``DESCRIPTION`` characters, a list of more than
    ``ENTRIES``. (The ruleset's model then holds each field to its own, narrower bound.)"""
    bad = first_out_of_bounds(data, text=DESCRIPTION, entries=ENTRIES)
    if bad is not None:
        raise ScenarioError(
            f"{bad or 'scenario'}: past the bounds of any scenario (numbers at most "
            f"{MAGNITUDE:,} in size, strings of at most {DESCRIPTION:,} characters, lists of "
            f"at most {ENTRIES:,} entries)"
        )


def parse_scenario(model: type[Scenario], data: Mapping[str, Any]) -> Scenario:
    """Validate scenario data; a :class:`ScenarioError` names every offending key."""
    check_depth(data)
    check_bounds(data)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'scenario'}: {err['msg']}"
            for err in exc.errors(include_input=False, include_url=False)
        )
        raise ScenarioError(f"invalid {model.__name__} scenario: {problems}") from None
