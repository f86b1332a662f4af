"""Written ambush orders, as the rule text writes them (RULES-SPEC DWV-R04, DWV-T01):

    "Patrol led by Sgt. Graw setting up ambush in square D2"

An order names its unit by the unit's name or its leader's name, and a grid square.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_ORDER = re.compile(
    r"^\s*(?P<who>.+?)\s+(?:is\s+)?setting\s+up\s+(?:an\s+)?ambush\s+in\s+square\s+"
    r"(?P<ref>[A-Za-z]{1,2}\d{1,2})\s*\.?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Named:
    """A unit an order may name."""

    key: str
    name: str
    leader: str


@dataclass(frozen=True)
class Order:
    key: str
    square: str


def _words(text: str) -> tuple[str, ...]:
    text = re.sub(r"'s\b", "", text.casefold())
    return tuple(re.findall(r"[\w.]+", text))


def _after_by(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words after the last "by" ("patrol led by sgt. graw" → sgt. graw)."""
    at = len(words) - 1 - words[::-1].index("by") if "by" in words else -1
    return words[at + 1 :]


def _names(who: tuple[str, ...], unit: Named) -> bool:
    """Does the order's subject name this unit: its name, its leader, or "... led by" its
    leader? Whole names only, so "Sgt. Graw" never names Sgt. Grawson's squad."""
    leader = _words(unit.leader)
    return who == _words(unit.name) or (bool(leader) and leader in (who, _after_by(who)))


def parse_order(text: str, units: Sequence[Named]) -> Order | None:
    """The unit and square an order names, or None if it does not name exactly one unit.

    >>> graw = Named("graw", "Sgt. Graw's patrol", "Sgt. Graw")
    >>> parse_order("Patrol led by Sgt. Graw setting up ambush in square D2", [graw])
    Order(key='graw', square='D2')
    """
    match = _ORDER.match(text)
    if not match:
        return None
    who = _words(match.group("who"))
    found = [u for u in units if _names(who, u)]
    if len(found) != 1:
        return None
    return Order(found[0].key, match.group("ref").upper())
