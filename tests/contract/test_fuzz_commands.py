"""Every field bounded (issue 24): a fuzz of every ruleset's commands gets only answers and
refusals, never a crash, and a refusal changes nothing.

Commands are drawn from each command's own JSON Schema (the one the pages draw their forms
from, served at ``/api/rulesets``), both as it allows and as it does not, by schemathesis's
generator; and from what a side could sensibly give now (``Ruleset.candidates``: commands
that name real pieces, so they reach the rules). Either may then have a few of its values
made extreme (4 MiB of text, 1e308, NaN, a lone surrogate), of the wrong kind (a list of
ten thousand, nesting two hundred deep) or swapped for a real piece's handle. They are given
to every bundled scenario's game at three stages (as created, after 15 and after 40 random
sensible commands), with the odds a form asks for, and an accepted one to a copy whose
views are then built; a sweep gives every sensible command with each of its values past the
bounds in turn; and a sample is sent over HTTP, where no answer may be a 500.

Findings 6 and 7 of issue 24 in their generic form: a string of any length was taken (8
standing orders of 4 MiB made a 33.5 MB view) and a point of 1e308 inches became infinite
metres (a 500). ``--run-slow`` runs the fuzz much longer.

(hypothesis-jsonschema would draw from the schemas too, but its last release, 0.23.1, calls
a Hypothesis internal (``cu.many(...).more()``) that Hypothesis 6.170 no longer has: every
object schema fails. schemathesis, already the API's fuzzer here, has a maintained
generator of its own.)"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import orjson
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from ghillie import Game, Refusal, examples, registry
from ghillie.bounds import MAGNITUDE, TEXT
from ghillie.ruleset import Ruleset
from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.server.odds import odds_for
from ghillie.state import REFEREE, SPECTATOR
from ghillie.store import MemoryStore

from .harness import SCENARIOS, STATS

# --- the commands' schemas ------------------------------------------------------------------

NOT_YET_IN_SCHEMA: set[tuple[str, str, str]] = set()


def unbounded(schema: Mapping[str, Any], root: Mapping[str, Any], path: str = "") -> Iterator[str]:
    """Every place in a command's JSON Schema where a client could send a value of any size:
    a string with no ``maxLength``, a number with no ``minimum`` or ``maximum``, a list with
    no ``maxItems``, a table that takes any key."""
    if "$ref" in schema:
        yield from unbounded(root["$defs"][schema["$ref"].rsplit("/", 1)[-1]], root, path)
        return
    for branch in schema.get("anyOf", ()):
        yield from unbounded(branch, root, path)
    if "enum" in schema or "const" in schema:
        return
    kind = schema.get("type")
    if kind == "string" and not 0 < schema.get("maxLength", TEXT + 1) <= TEXT:
        yield f"{path}: a string of any length"
    if kind in ("number", "integer"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", -MAGNITUDE - 1))
        high = schema.get("maximum", schema.get("exclusiveMaximum", MAGNITUDE + 1))
        if low < -MAGNITUDE or high > MAGNITUDE:
            yield f"{path}: a number of any size"
    if kind == "array":
        if "maxItems" not in schema:
            yield f"{path}: a list of any length"
        for i, item in enumerate(schema.get("prefixItems", ())):
            yield from unbounded(item, root, f"{path}.{i}")
        if isinstance(schema.get("items"), Mapping):
            yield from unbounded(schema["items"], root, f"{path}.*")
    if kind == "object":
        if schema.get("additionalProperties") not in (None, False):
            yield f"{path}: a table of any keys"
        for name, field in schema.get("properties", {}).items():
            yield from unbounded(field, root, f"{path}.{name}" if path else name)


@pytest.mark.parametrize("ruleset_id", sorted(registry.rulesets()))
def test_every_field_of_every_command_is_bounded_in_its_schema(ruleset_id: str) -> None:
    """What the pages draw a form from says how long each text and list may be and how large
    each number, so a page refuses before sending (and the server refuses the same)."""
    ruleset = registry.get(ruleset_id)
    schemas = {name: model.model_json_schema() for name, model in ruleset.commands.items()}
    found = [
        f"{name}: {place}"
        for name, schema in schemas.items()
        for place in unbounded(schema, schema)
        if (ruleset_id, name, place.split(":")[0]) not in NOT_YET_IN_SCHEMA
    ]
    assert not found, "\n".join(found)


# Bounded otherwise: a command by its ruleset's schema (above) and the 4 MiB of any request;
# a scenario by ``--max-scenario`` and its own bounds (tests/test_scenario_bounds.py).
BOUNDED_ELSEWHERE = {
    ("/api/games", "scenario_data"),
    ("/api/games", "scenario_toml"),
    ("/api/games/{game_id}/commands", "command"),
    ("/api/games/{game_id}/odds", "command"),
}


def test_every_field_of_every_api_request_is_bounded() -> None:
    api = create_app(MemoryStore()).openapi()
    root = {"$defs": api["components"]["schemas"]}
    found = []
    for path, operations in api["paths"].items():
        for operation in operations.values():
            content = operation.get("requestBody", {}).get("content", {})
            schema = content.get("application/json", {}).get("schema")
            if schema is None:
                continue
            schema = json.loads(json.dumps(schema).replace("#/components/schemas/", "#/$defs/"))
            found += [
                f"{path}: {place}"
                for place in unbounded(schema, root)
                if (path, place.split(":")[0]) not in BOUNDED_ELSEWHERE
            ]
    assert not found, "\n".join(found)


def _openapi(ruleset: Ruleset[Any, Any]) -> dict[str, Any]:
    """An OpenAPI document with one operation per command, whose body is that command: how
    schemathesis takes a schema to draw from."""

    def moved(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: v.replace("#/$defs/", "#/components/schemas/") if k == "$ref" else moved(v)
                for k, v in value.items()
            }
        return [moved(v) for v in value] if isinstance(value, list) else value

    paths, parts = {}, {}
    for name, model in ruleset.commands.items():
        schema = model.model_json_schema()
        parts.update({k: moved(v) for k, v in schema.pop("$defs", {}).items()})
        body = {"content": {"application/json": {"schema": moved(schema)}}, "required": True}
        paths[f"/{name}"] = {
            "post": {
                "operationId": name,
                "requestBody": body,
                "responses": {"200": {"description": "ruled"}},
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {"title": ruleset.id, "version": "1"},
        "paths": paths,
        "components": {"schemas": parts},
    }


@cache
def from_schemas(ruleset_id: str) -> st.SearchStrategy[tuple[str, Any]]:
    """Commands drawn from the ruleset's command schemas, valid by them and not, each with
    the name of the command it was drawn for."""
    ruleset = registry.get(ruleset_id)
    found = schemathesis.openapi.from_dict(_openapi(ruleset)).get_all_operations()
    drawn = []
    for result in found:
        operation = result.ok()
        name = operation.path.strip("/")
        for mode in GenerationMode:
            drawn.append(
                operation.as_strategy(generation_mode=mode).map(
                    lambda case, name=name: (name, _json(case.body))
                )
            )
    return st.one_of(drawn)


def _json(value: Any) -> Any:
    """A body as JSON data (a negative case may hold bytes)."""
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value if isinstance(value, str | int | float | None) else repr(value)


# --- hostile values --------------------------------------------------------------------------

HUGE = "x" * (4 << 20)  # finding 6: 4 MiB of text in one field


def _deep(levels: int) -> Any:
    value: Any = []
    for _ in range(levels):
        value = [value]
    return value


# Values of the same kind as the one they replace, but extreme: they pass a careless check
# of the kind and reach the rules.
EXTREME_NUMBERS: tuple[Any, ...] = (
    1e308,  # finding 7: finite as sent, infinite once scaled
    -1e308,
    MAGNITUDE + 1,
    -MAGNITUDE - 1,
    1e7,
    float("nan"),
    float("inf"),
    float("-inf"),
    2**64,
    -1,
    0,
    5e-324,
)
EXTREME_TEXTS: tuple[Any, ...] = (HUGE, "y" * (TEXT + 1), "", " ", "\ud800", "\x00", "ü" * TEXT)
# Values of the wrong kind, or shapes no command has.
WRONG: tuple[Any, ...] = (None, True, "3", 3, {}, {"x": 1}, [], [0.0] * 10_000, _deep(200))


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value inside a command (``type`` aside)."""
    if path and path != ("type",):
        yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _places(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _places(inner, (*path, i))


def _put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _put(value[head], rest, new)}
    out = list(value)
    out[head] = _put(value[head], rest, new)
    return out


def _spoiled(data: st.DataObject, command: Any, handles: list[str]) -> Any:
    """``command`` as it is, or with a few of its values made extreme, of the wrong kind,
    or replaced by a real piece's handle (so that a command drawn from a schema names a
    piece and reaches the rules)."""
    for _ in range(data.draw(st.integers(0, 3), label="changes")):
        places = list(_places(command))  # anew: a change may have dropped some
        if not places:
            break
        where = data.draw(st.sampled_from(places), label="where")
        old = _get(command, where)
        if isinstance(old, bool) or not isinstance(old, int | float | str):
            pool = WRONG
        elif isinstance(old, str):
            pool = EXTREME_TEXTS + tuple(handles)
        else:
            pool = EXTREME_NUMBERS
        new = data.draw(st.sampled_from(pool) | st.sampled_from(WRONG), label="value")
        command = _put(command, where, new)
    return command


# --- games at a few stages -------------------------------------------------------------------

# A game as created, and after so many random sensible commands.
STAGES = {"fresh": 0, "begun": 15, "played": 40}


@cache
def stage(scenario: str, when: str) -> Game:
    """A game of ``scenario`` at stage ``when`` (STAGES)."""
    game = Game.create(examples.load(scenario), seed=7)
    ruleset = game.state.ruleset
    rng = random.Random(7)
    for _ in range(STAGES[when]):
        side = rng.choice(game.state.sides)
        options = [c for c in ruleset.candidates(game.state, side) if c["type"] != "end_game"]
        if options:
            with contextlib.suppress(Refusal):
                game.command(side, rng.choice(options))
    return game


def fork(game: Game) -> Game:
    """A game of its own with the same log, to give an accepted command to."""
    store = MemoryStore()
    first, *rest = game.events()
    store.create(game.id, game.store.header(game.id), first)
    if rest:
        store.append(game.id, first.seq, rest)
    return Game.load(store, game.id)


def handles(game: Game) -> list[str]:
    """Every piece id and public handle in the game, and every side."""
    found = {*game.state.sides, *game.state.pieces}
    for piece in game.state.pieces.values():
        found.update(str(piece.public[h]) for h in ("key", "label") if h in piece.public)
    return sorted(found)


def command_for(data: st.DataObject, game: Game) -> tuple[str, Any]:
    """A side, and a command for it to give now: drawn from a schema or one it could
    sensibly give, and then perhaps spoiled."""
    ruleset = game.state.ruleset
    candidates = [(s, c) for s in game.state.sides for c in ruleset.candidates(game.state, s)]
    if candidates and data.draw(st.booleans(), label="a sensible command"):
        side, command = data.draw(st.sampled_from(candidates), label="candidate")
    else:
        side = data.draw(st.sampled_from(game.state.sides), label="side")
        name, command = data.draw(from_schemas(game.state.ruleset.id), label="from its schema")
        # A case drawn against the schema may drop or spoil ``type``; most are given it
        # back, to reach the command's own fields.
        if isinstance(command, dict) and data.draw(st.integers(0, 4), label="typed"):
            command = {**command, "type": name}
    return side, _spoiled(data, command, handles(game))


# A view after one accepted command: every bundled game's views are tens of KB; one
# command's text may add at most its bounded strings (60 notes of 500 characters...).
MOST_VIEW_BYTES = 1 << 20


def rule(game: Game, side: str, command: Any) -> str:
    """Give ``command`` as ``side`` and check the answer: accepted, or refused with a
    Refusal that changed nothing; the odds a form shows ask the same. Returns how."""
    with contextlib.suppress(Refusal):
        odds_for(game.state, side, command)
    trial: Refusal | None = None
    try:
        game.trial(side, command)
    except Refusal as refused_in_trial:
        trial = refused_in_trial
    if trial is not None:
        before, log = game.state, len(game.events())
        with pytest.raises(Refusal) as refused:
            game.command(side, command)
        assert refused.value.as_dict() == trial.as_dict()
        assert game.state == before, "a refused command changed the state"
        assert len(game.events()) == log, "a refused command changed the log"
        return refused.value.code
    # Accepted: give it for real, to a copy, and build what everyone then receives.
    copy = fork(game)
    copy.command(side, command)
    for observer in (*copy.state.sides, REFEREE, SPECTATOR):
        size = len(orjson.dumps(copy.view(observer)))
        assert size < MOST_VIEW_BYTES, f"{observer}'s view is {size:,} bytes"
    return "accepted"


def fuzz(scenario: str, data: st.DataObject) -> None:
    game = stage(scenario, data.draw(st.sampled_from(sorted(STAGES)), label="stage"))
    side, command = command_for(data, game)
    answer = rule(game, side, command)
    STATS["fuzzed commands " + ("accepted" if answer == "accepted" else "refused")] += 1


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_command_is_answered_or_refused(scenario: str, data: st.DataObject) -> None:
    fuzz(scenario, data)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_command_is_answered_or_refused_long(scenario: str, data: st.DataObject) -> None:
    fuzz(scenario, data)


# --- what the fuzz found, each kept as a plain example ---------------------------------------


def _real(scenario: str, kind: str) -> tuple[Game, str, dict[str, Any]]:
    """A game of ``scenario`` at a stage where some side could give a ``kind`` command now,
    that side and that command."""
    for when in STAGES:
        game = stage(scenario, when)
        ruleset = game.state.ruleset
        for side in game.state.sides:
            for command in ruleset.candidates(game.state, side):
                if command["type"] == kind:
                    return game, side, command
    raise AssertionError(f"no {kind} in {scenario}")


@pytest.mark.parametrize("far", [1e308, -1e308, 1e7])
def test_a_move_past_any_table_is_refused_not_a_crash(far: float) -> None:
    """Finding 7: a move to 1e308 inches became infinite metres and a 500."""
    game, side, move = _real("ambush-fire", "move")
    move["units"][0]["path"] = [[far, 1.0]]
    with pytest.raises(Refusal) as refused:
        game.command(side, move)
    assert refused.value.code == "malformed_command"
    assert refused.value.field == "units.0.path.0.0"


def test_a_standing_orders_4_mib_target_class_is_refused() -> None:
    """Finding 6 as it was found: 8 standing orders whose target class was 4 MiB of text
    made a 33.5 MB view. The bound is the generic one (no ruleset checks it)."""
    game, side, ready = _real("ambush-fire", "ready")
    order = {"unit": "pak", "reaction": "ambush", "chance": 40, "trigger": {"within": 150}}
    ready = {**ready, "orders": [{**order, "trigger": {"within": 150, "target_class": HUGE}}]}
    with pytest.raises(Refusal) as refused:
        game.command(side, ready)
    assert refused.value.code == "malformed_command"
    assert refused.value.field == "orders.0.trigger.target_class"


# Past the bounds of any command (ghillie.bounds): always refused, whatever the field.
# (The fuzz above draws many more.)
PAST_BOUNDS_TEXTS = (HUGE, "\ud800")
PAST_BOUNDS_NUMBERS = (1e308, -MAGNITUDE - 1, float("nan"))


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_sensible_command_with_a_value_past_the_bounds_is_refused(scenario: str) -> None:
    """Findings 6 and 7 swept: at every stage, every command a side could sensibly give,
    with each of its texts and numbers in turn replaced by one past the bounds (4 MiB of
    text, 1e308, NaN...), is refused (and changes nothing), in every ruleset; with nothing
    there, it is answered or refused, never a crash."""
    swept = 0
    for when in STAGES:
        game = stage(scenario, when)
        ruleset = game.state.ruleset
        for side in game.state.sides:
            for command in ruleset.candidates(game.state, side):
                for place in _places(command):
                    old = _get(command, place)
                    if isinstance(old, str):
                        past: tuple[Any, ...] = PAST_BOUNDS_TEXTS
                    elif isinstance(old, int | float) and not isinstance(old, bool):
                        past = PAST_BOUNDS_NUMBERS
                    else:
                        past = ()
                    for value in past:
                        answer = rule(game, side, _put(command, place, value))
                        assert answer != "accepted", (
                            f"{when}: {command['type']} took {value!r:.20} at {place}"
                        )
                        swept += 1
                    rule(game, side, _put(command, place, None))
                    swept += 1
    assert swept, f"no sensible command in {scenario}"
    STATS["values past the bounds swept"] += swept


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


# --- over HTTP -------------------------------------------------------------------------------


@cache
def server() -> tuple[TestClient, dict[str, tuple[str, dict[str, dict[str, str]]]]]:
    """One app, with one game per bundled scenario, and each side's headers for it."""
    hub = Hub(MemoryStore())
    client = TestClient(create_app(hub.store, hub=hub), raise_server_exceptions=False)
    games = {}
    for scenario in sorted(SCENARIOS):
        made = client.post("/api/games", json={"scenario": scenario})
        assert made.status_code == 201, made.text
        sides = {
            link["observer"]: {"Authorization": f"Bearer {link['url'].split('#', 1)[1]}"}
            for link in made.json()["links"]
        }
        games[scenario] = (made.json()["game_id"], sides)
    return client, games


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_over_http_no_command_is_a_server_error(scenario: str, data: st.DataObject) -> None:
    client, games = server()
    game_id, sides = games[scenario]
    side, command = command_for(data, stage(scenario, "fresh"))
    # Python's JSON writes what strict JSON cannot (NaN, Infinity, a lone surrogate escaped,
    # integers of any size), and the server's parser reads it: the most hostile wire.
    command_id = f"fuzz-{data.draw(st.integers(0, 2**32), label='command id')}"
    for path, body in (
        ("commands", {"command_id": command_id, "command": command}),
        ("odds", {"command": command}),
    ):
        answer = client.post(
            f"/api/games/{game_id}/{path}",
            content=json.dumps(body),
            headers={**sides[side], "content-type": "application/json"},
        )
        assert answer.status_code < 500, answer.text
        STATS[f"HTTP {path} {answer.status_code}"] += 1
