"""A number field's allowed range, in the players' words (issue 25: "Burst 0", "within
5000 m" and a base chance of 150 were all refused "This value cannot be used here.").

Every number a command takes is bounded in its model (pydantic's ``ge``, ``le``, ``gt``,
``lt``), and so in the command's JSON Schema, which the pages draw their forms from and check
before sending. The engine refuses a number past them, or a value that is not a number where
one is asked, with a sentence made here from that same schema: the field's label, its range
and its unit, from the ruleset's words for it ("Fire at the first enemy within: more than 0,
up to 1250 metres."). One place for every ruleset; the words come from the command's shape
alone, never from the value sent or the game's state, so the refusal reads the same whoever
it touches.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ghillie import forms
from ghillie.bounds import MAGNITUDE
from ghillie.errors import MALFORMED_COMMAND, Refusal
from ghillie.words import N_, Say, say, speaker

if TYPE_CHECKING:
    from ghillie.ruleset import Ruleset

NUMBERS = ("number", "integer")


@dataclass(frozen=True)
class Range:
    """A number field's bounds: each end None (unbounded), inclusive or not (``open``)."""

    whole: bool  # an integer field
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False

    @classmethod
    def of(cls, node: Mapping[str, Any]) -> Range:
        whole = node.get("type") == "integer"
        low, low_open = _end(node, "minimum", "exclusiveMinimum")
        high, high_open = _end(node, "maximum", "exclusiveMaximum")
        if whole:  # an integer above 0 is an integer from 1: said so
            if low is not None and low_open:
                low, low_open = math.floor(low) + 1, False
            if high is not None and high_open:
                high, high_open = math.ceil(high) - 1, False
        return cls(whole, low, high, low_open, high_open)


def _end(node: Mapping[str, Any], closed: str, open_: str) -> tuple[float | None, bool]:
    if isinstance(node.get(closed), int | float):
        return node[closed], False
    if isinstance(node.get(open_), int | float):
        return node[open_], True
    return None, False


@cache
def schema_of(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema()


def number_at(schema: Mapping[str, Any], loc: Sequence[str | int]) -> Mapping[str, Any] | None:
    """The schema of the number at ``loc`` (a validation error's location: field names and
    list positions) in a command's JSON Schema, or None if no number is asked there."""
    node: Mapping[str, Any] | None = _resolve(schema, schema)
    for part in loc:
        if node is None:
            return None
        node = _resolve(_step(node, part), schema)
    return node if node is not None and node.get("type") in NUMBERS else None


def _step(node: Mapping[str, Any], part: str | int) -> Mapping[str, Any] | None:
    if isinstance(part, int) or (isinstance(part, str) and part.isdigit()):
        index = int(part)
        prefix = node.get("prefixItems")
        if isinstance(prefix, list):
            return prefix[index] if index < len(prefix) else None
        items = node.get("items")
        return items if isinstance(items, Mapping) else None
    inner = (node.get("properties") or {}).get(part)
    if inner is None and isinstance(node.get("additionalProperties"), Mapping):
        inner = node["additionalProperties"]
    return inner


def _resolve(node: Mapping[str, Any] | None, root: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Follow ``$ref``s, and a nullable field's one other branch (``X | None``)."""
    for _ in range(32):
        if node is None:
            return None
        ref = node.get("$ref")
        if isinstance(ref, str):
            node = (root.get("$defs") or {}).get(ref.rsplit("/", 1)[-1])
            continue
        branches = node.get("anyOf")
        if isinstance(branches, list):
            others = [b for b in branches if b.get("type") != "null"]
            node = others[0] if len(others) == 1 else None
            continue
        return node
    return None


# The sentences, by (whole number, which ends are bounded and how). ``{field}`` is the
# field's label; the last number named carries the unit ("100 %", "1250 metres").
_BOTH = {
    (True, False, False): N_("{field}: a whole number from {low} to {high}."),
    (False, False, False): N_("{field}: from {low} to {high}."),
    (False, True, False): N_("{field}: more than {low}, up to {high}."),
    (False, False, True): N_("{field}: from {low} to less than {high}."),
    (False, True, True): N_("{field}: more than {low} and less than {high}."),
}


def sentence(limits: Range, label: Say, unit: str = "") -> Say:
    """The allowed range of a number field in words: "Burst: a whole number from 1 to 5."."""

    def amount(value: float) -> Any:
        return say("{n} {unit}", n=_number(value), unit=Say(unit)) if unit else _number(value)

    low, high = limits.low, limits.high
    if low is not None and high is not None:
        key = (limits.whole, limits.low_open, limits.high_open)
        return Say(_BOTH[key], {"field": label, "low": _number(low), "high": amount(high)})
    if low is not None:
        if limits.whole:
            return say("{field}: a whole number, at least {low}.", field=label, low=amount(low))
        if limits.low_open:
            return say("{field}: more than {low}.", field=label, low=amount(low))
        return say("{field}: at least {low}.", field=label, low=amount(low))
    if high is not None:
        if limits.whole:
            return say("{field}: a whole number, at most {high}.", field=label, high=amount(high))
        if limits.high_open:
            return say("{field}: less than {high}.", field=label, high=amount(high))
        return say("{field}: at most {high}.", field=label, high=amount(high))
    if limits.whole:
        return say("{field}: a whole number.", field=label)
    return say("{field}: a number.", field=label)


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _words_path(loc: Sequence[str | int]) -> str:
    """``orders.0.trigger.within`` → ``orders.trigger.within``, as a ruleset's words name
    fields (list positions left out)."""
    return ".".join(str(p) for p in loc if not (isinstance(p, int) or str(p).isdigit()))


def words_for(ruleset: Ruleset[Any, Any], command: str, loc: Sequence[str | int]) -> forms.Ask:
    """What the ruleset's words say of the field at ``loc`` (a point's number: its place's)."""
    asks = forms.order(ruleset, command).fields
    path = _words_path(loc)
    while path:
        if path in asks:
            return asks[path]
        path = path.rpartition(".")[0]
    names = [str(p) for p in loc if not (isinstance(p, int) or str(p).isdigit())]
    return forms.Ask((names[-1] if names else command).replace("_", " ").capitalize())


def refusal(
    ruleset: Ruleset[Any, Any], model: type[BaseModel], loc: Sequence[str | int]
) -> Refusal | None:
    """The refusal of a value at ``loc`` where the command asks a number that the value is
    not, or is past: ``malformed_command``, the field named, and its range in words. None if
    no number is asked there."""
    node = number_at(schema_of(model), loc)
    if node is None:
        return None
    limits = Range.of(node)
    # The net under the schema (ghillie.bounds): a field that forgot its bounds still has these.
    if limits.low is None:
        limits = Range(limits.whole, -MAGNITUDE, limits.high, False, limits.high_open)
    if limits.high is None:
        limits = Range(limits.whole, limits.low, MAGNITUDE, limits.low_open, False)
    command = str(model.model_fields["type"].default)
    ask = words_for(ruleset, command, loc)
    said = sentence(limits, Say(ask.label), ask.unit)
    detail = speaker(ruleset.id).text(said)
    field = ".".join(str(p) for p in loc) or None
    return Refusal(MALFORMED_COMMAND, detail, field=field, said=said)
