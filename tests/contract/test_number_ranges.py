"""Every number refusal names the allowed range (issue 25, "numbers refused without the
limit": Burst 0, "within 5000 m" and a base chance of 150 were all refused "This value
cannot be used here.").

Walks every ruleset's every command's JSON Schema (the one the pages draw forms from) to
each number it asks: each has both its bounds there, and a command that is well formed but
for that number — past either end, or not a number at all — is refused ``malformed_command``
with that field named and a sentence that gives the field's label, both ends and its unit
from the ruleset's words."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from ghillie import engine, forms, registry
from ghillie.errors import Refusal
from ghillie.ranges import Range, words_for
from ghillie.words import speaker

NUMBERS = ("number", "integer")


def _resolve(node: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    while "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    others = [b for b in node.get("anyOf", ()) if b.get("type") != "null"]
    return _resolve(others[0], root) if len(others) == 1 else node


def numbers(
    node: Mapping[str, Any], root: Mapping[str, Any], path: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], Mapping[str, Any]]]:
    """(location, schema) of every number a command asks, a list's first entry standing for
    all of them."""
    node = _resolve(node, root)
    kind = node.get("type")
    if kind in NUMBERS:
        yield path, node
    for name, inner in (node.get("properties") or {}).items():
        yield from numbers(inner, root, (*path, name))
    if kind == "array":
        prefix = node.get("prefixItems")
        if prefix:
            for i, inner in enumerate(prefix):
                yield from numbers(inner, root, (*path, i))
        elif isinstance(node.get("items"), Mapping):
            yield from numbers(node["items"], root, (*path, 0))


def instance(node: Mapping[str, Any], root: Mapping[str, Any]) -> Any:
    """The plainest value the schema takes: required fields only, lists at their shortest."""
    node = _resolve(node, root)
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return node["enum"][0]
    kind = node.get("type")
    if kind in NUMBERS:
        limits = Range.of(node)
        value = limits.low if limits.low is not None else 0
        return value + (1 if limits.low_open else 0)
    if kind == "boolean":
        return False
    if kind == "string":
        return "x" * max(1, node.get("minLength", 1))
    if kind == "array":
        if node.get("prefixItems"):
            return [instance(item, root) for item in node["prefixItems"]]
        return [instance(node["items"], root) for _ in range(node.get("minItems", 0))]
    required = set(node.get("required", ()))
    return {
        name: instance(inner, root)
        for name, inner in (node.get("properties") or {}).items()
        if name in required or "const" in inner
    }


def put(command: dict[str, Any], loc: tuple[str | int, ...], value: Any, root: Any) -> None:
    """Set the value at ``loc``, making the groups and list entries on the way."""
    node: Any = command
    schema = root
    for i, part in enumerate(loc):
        schema = _resolve(schema, root)
        last = i == len(loc) - 1
        if isinstance(part, int):
            inner = (schema.get("prefixItems") or [schema.get("items")])[
                part if schema.get("prefixItems") else 0
            ]
            while len(node) <= part:
                node.append(instance(inner, root))
            if last:
                node[part] = value
            node, schema = node[part], inner
        else:
            inner = schema["properties"][part]
            if last:
                node[part] = value
            elif part not in node or node[part] is None:
                node[part] = instance(inner, root)
            node, schema = node[part], inner


def cases() -> Iterator[Any]:
    for ruleset_id, ruleset in registry.rulesets().items():
        for name, model in ruleset.commands.items():
            schema = model.model_json_schema()
            for loc, node in numbers(schema, schema):
                where = ".".join(str(p) for p in loc)
                yield pytest.param(ruleset_id, name, loc, node, id=f"{ruleset_id}:{name}:{where}")


CASES = list(cases())


def test_every_ruleset_that_asks_numbers_is_walked() -> None:
    # The walk finds the numbers of every ruleset whose commands have any (scout-search's
    # have none): a schema the walk could not read would pass every test below unseen.
    asking = {
        ruleset_id
        for ruleset_id, ruleset in registry.rulesets().items()
        if any(
            '"integer"' in json.dumps(m.model_json_schema())
            or '"number"' in json.dumps(m.model_json_schema())
            for m in ruleset.commands.values()
        )
    }
    assert len(asking) >= 5
    assert {case.values[0] for case in CASES} == asking


def _said(value: float) -> str:
    return speaker("core").text(int(value) if float(value).is_integer() else value)


@pytest.mark.parametrize(("ruleset_id", "command", "loc", "node"), CASES)
def test_every_number_refusal_names_its_range(
    ruleset_id: str, command: str, loc: tuple[str | int, ...], node: Mapping[str, Any]
) -> None:
    ruleset = registry.get(ruleset_id)
    model = ruleset.commands[command]
    schema = model.model_json_schema()
    limits = Range.of(node)
    # The bounds are in the schema the pages check before sending, both ends of them.
    assert limits.low is not None, "a number with no lower bound"
    assert limits.high is not None, "a number with no upper bound"
    ask = words_for(ruleset, command, loc)
    field = ".".join(str(p) for p in loc)
    below = limits.low - (1 if limits.whole else 0.5)
    above = limits.high + (1 if limits.whole else 0.5)
    for wrong in (below, above, "many"):
        raw = instance(schema, schema)
        put(raw, loc, wrong, schema)
        with pytest.raises(Refusal) as refused:
            engine.parse_command(ruleset, raw)
        refusal = refused.value
        assert (refusal.code, refusal.field) == ("malformed_command", field), refusal.detail
        detail = refusal.detail
        assert detail != "This value cannot be used here."
        assert detail.startswith(f"{ask.label}: "), detail
        assert f" {_said(limits.low)}" in detail, detail
        assert f" {_said(limits.high)}" in detail, detail
        if ask.unit:
            assert detail.endswith(f"{_said(limits.high)} {ask.unit}."), detail
        # What the page shows in the reader's language is the same sentence.
        assert refusal.spoken(speaker(ruleset_id)) == detail


@pytest.mark.parametrize(
    ("ruleset_id", "command", "expected"),
    [
        (
            "ambush-fire",
            {
                "type": "ready",
                "orders": [
                    {
                        "unit": "grenadiers",
                        "reaction": "ambush",
                        "trigger": {"within": 5000},
                        "chance": 50,
                    }
                ],
            },
            "Fire at the first enemy within: more than 0, up to 1250 metres.",
        ),
        (
            "ambush-fire",
            {"type": "fire", "unit": "pak", "target": "t34_1", "chance": 150},
            "Base chance to hit: a whole number from 0 to 100 %.",
        ),
        (
            "camouflage",
            {
                "type": "first_skill",
                "piece": "caliban",
                "skill": {"skill": "bs_attack", "target": "x", "attack": {"burst": 0}},
            },
            "Burst: a whole number from 1 to 5.",
        ),
    ],
)
def test_the_play_tests_numbers_are_refused_with_their_range(
    ruleset_id: str, command: dict[str, Any], expected: str
) -> None:
    """The three numbers of the play-test, in the players' words."""
    with pytest.raises(Refusal) as refused:
        engine.parse_command(registry.get(ruleset_id), command)
    assert refused.value.detail == expected


def test_a_range_is_said_in_the_readers_language() -> None:
    """suspicious-places speaks Russian: the sentence, the label and the unit are its."""
    ruleset = registry.get("suspicious-places")
    with pytest.raises(Refusal) as refused:
        engine.parse_command(ruleset, {"type": "suppress", "unit": "x", "markers": 4})
    russian = refused.value.spoken(speaker("suspicious-places", "ru"))
    label = speaker("suspicious-places", "ru").word(
        forms.order(ruleset, "suppress").fields["markers"].label
    )
    assert russian.startswith(f"{label}: целое число от 1 до 3 ")
    assert "markers" not in russian
    assert "whole" not in russian
