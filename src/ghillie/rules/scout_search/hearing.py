"""The die of a search: a d6 that hears the Scout next to the square searched. It is rolled
on every search, next to the Scout or not, so the number of rolls says nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field

from ghillie.dice.check import Check
from ghillie.dice.steps import Die
from ghillie.rules.scout_search.scenario import ScoutSwitches
from ghillie.ruleset import OddsQuery, Params
from ghillie.words import N_

HEARD = "heard"
SILENT = "silent"
LABELS = {
    HEARD: N_("You hear something nearby"),
    SILENT: N_("You hear nothing"),
}


def _judge(values: Mapping[str, int], hear_on: int) -> str:
    return HEARD if values["hear"] >= hear_on else SILENT


def hearing(hear_on: int) -> Check[str]:
    """The d6 of a search whose square is next to the Scout's (``ss.hear_on`` or higher
    hears it). Anywhere else the search hears nothing, whatever the die shows."""
    return Check((("hear", Die(6)),), _judge, (HEARD, SILENT), (hear_on,))


class HearingParams(Params):
    hear_on: int = Field(
        6, ge=1, le=6, description="the lowest face that hears the Scout (ss.hear_on)"
    )


def _check(params: HearingParams, switches: ScoutSwitches) -> Check[Any]:
    return hearing(params.hear_on)


QUERIES = {
    "search": OddsQuery(
        "search",
        "the odds that a search next to the Scout hears it",
        HearingParams,
        _check,
        LABELS,
        title=lambda params, check: (
            f"Hearing the Scout from a square next to it, on {params.hear_on} or more"
        ),
        rules="none (a toy with no RULES-SPEC section)",
    )
}
