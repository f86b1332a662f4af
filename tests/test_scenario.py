"""Scenario files: TOML or JSON, schema errors that name the key, switches by their names."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from ghillie import ScenarioError, examples, load_scenario, registry
from ghillie.scenario import Switches


def test_every_bundled_example_loads_and_starts() -> None:
    from ghillie import Game

    for name in examples.names():
        game = Game.create(examples.load(name), seed=0)
        assert game.state.phase.value == "setup"


def test_switches_may_be_written_nested_or_dotted() -> None:
    data = examples.data("suspicious-places-table")
    dotted = load_scenario({**data, "switches": {"sw.overflow": "cap_d12"}})
    nested = load_scenario({**data, "switches": {"sw": {"overflow": "cap_d12"}}})
    assert dotted.switches == nested.switches
    assert dotted.switches.named()["sw.overflow"] == "cap_d12"


def test_every_switch_has_its_rules_spec_name_and_default() -> None:
    sw = load_scenario(examples.data("suspicious-places-table")).switches.named()
    dwv = load_scenario(examples.data("grid-ambush-table")).switches.named()
    assert all(name.startswith("sw.") for name in sw)
    assert all(name.startswith("dwv.") for name in dwv)
    assert sw["sw.overflow"] == "d12_plus"
    assert dwv["dwv.dz_overlap"] == "any"


def test_a_bad_switch_value_is_named_in_the_error() -> None:
    data = {**examples.data("suspicious-places-table"), "switches": {"sw.overflow": "d100"}}
    with pytest.raises(ScenarioError, match=r"sw\.overflow"):
        load_scenario(data)


def test_an_unknown_switch_is_refused() -> None:
    data = {**examples.data("grid-ambush-table"), "switches": {"dwv.fog": True}}
    with pytest.raises(ScenarioError, match=r"dwv\.fog"):
        load_scenario(data)


def test_an_unknown_ruleset_is_named() -> None:
    with pytest.raises(ScenarioError, match=r"unknown ruleset 'chess'"):
        load_scenario({"ruleset": "chess"})


def test_side_ids_must_differ_and_avoid_observer_names() -> None:
    data = examples.data("grid-ambush-table")
    with pytest.raises(ScenarioError, match="side ids must differ"):
        load_scenario({**data, "sides": [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}]})
    with pytest.raises(ScenarioError, match="referee"):
        load_scenario({**data, "sides": [{"id": "referee", "name": "A"}, {"id": "b", "name": "B"}]})


def test_scenario_files_in_toml_and_json(tmp_path: Path) -> None:
    data = examples.data("grid-ambush-table")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert load_scenario(path).title == data["title"]
    broken = tmp_path / "broken.toml"
    broken.write_text("ruleset = ")
    with pytest.raises(ScenarioError, match=r"broken\.toml"):
        load_scenario(broken)
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(tmp_path / "missing.toml")


def test_every_ruleset_ships_its_main_example_and_only_its_own() -> None:
    """`ghillie new <ruleset id>` plays the ruleset's main example; an example in a ruleset's
    folder is a game of that ruleset (the start page lists it under it)."""
    for ruleset in registry.rulesets():
        shipped = examples.of(ruleset)
        assert ruleset in shipped, f"{ruleset} ships no example named {ruleset}.toml"
        for name in shipped:
            assert examples.data(name)["ruleset"] == ruleset, f"{name} is not a {ruleset} game"


def test_every_switch_is_documented() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "rulesets.md").read_text(encoding="utf-8")
    for name in examples.names():
        for switch in load_scenario(examples.data(name)).switches.named():
            assert f"`{switch}`" in docs, f"{switch} is missing from docs/rulesets.md"


DICE = "d4, d6, d8, d10 or d12"


def _with_unit(field: str, value: object, key: str = "mg") -> dict[str, object]:
    data = examples.data("suspicious-places-table")
    units = [{**u, field: value} if u["key"] == key else u for u in data["units"]]
    return {**data, "units": units}


@pytest.mark.spec("SW-R13", "SW-R36", "SW-A11")
@pytest.mark.parametrize(
    ("field", "value", "key", "said"),
    [
        ("quality", "d9", "mg", f"units.1.quality: d9 is not a die in this game: use {DICE}"),
        ("weapon", "d7", "mg", f"units.1.weapon: d7 is not a die in this game: use {DICE}"),
        ("quality", "d12+1", "mg", f"units.1.quality: d12+1 is not a die in this game: use {DICE}"),
        ("leadership", "d7", "sniper", "units.2.leadership: d7 is not a leadership in this game"),
        ("leadership", 13, "sniper", "units.2.leadership: a leadership number runs from 1 to 12"),
        ("leadership", 0, "sniper", "units.2.leadership: a leadership number runs from 1 to 12"),
    ],
)
def test_a_scenario_with_a_die_the_game_does_not_have_is_refused(
    field: str, value: object, key: str, said: str
) -> None:
    with pytest.raises(ScenarioError) as refused:
        load_scenario(_with_unit(field, value, key))
    assert said in str(refused.value)


@pytest.mark.spec("SW-A04")
def test_a_scenario_may_set_any_of_the_games_dice_for_markers_but_no_other() -> None:
    data = examples.data("suspicious-places-table")
    scenario = load_scenario({**data, "switches": {"sw.markers_per_unit": "d4"}})
    assert scenario.switches.named()["sw.markers_per_unit"] == "d4"
    with pytest.raises(ScenarioError, match=rf"sw\.markers_per_unit: d7 is not a die .*{DICE}"):
        load_scenario({**data, "switches": {"sw.markers_per_unit": "d7"}})


def test_a_scenarios_dice_are_read_as_the_rule_text_writes_them() -> None:
    scenario = load_scenario(_with_unit("quality", "к10"))
    assert next(u for u in scenario.units if u.key == "mg").quality == "d10"
    sniper = load_scenario(_with_unit("leadership", 4, "sniper"))
    assert next(u for u in sniper.units if u.key == "sniper").leadership == 4


def _switches(ruleset: Any) -> type[Switches]:
    annotation = ruleset.scenario_model.model_fields["switches"].annotation
    assert isinstance(annotation, type)
    assert issubclass(annotation, Switches)
    return annotation


@pytest.mark.parametrize("ruleset_id", sorted(registry.rulesets()))
def test_every_switch_a_scenario_may_set_is_read_by_its_ruleset(ruleset_id: str) -> None:
    """A switch a scenario may set either acts or is refused at creation: one the rules
    never read would be accepted and silently ignored (``measured.line_of_sight = false``
    once was, in camouflage). Unknown switches are refused (above); this keeps every known
    one read by its ruleset's code beyond the line that declares it, or checked where it
    is declared (a value the rules do not offer is refused there)."""
    ruleset = registry.get(ruleset_id)
    package = Path(inspect.getfile(type(ruleset))).parent
    read = {
        node.attr
        for path in package.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
    }
    switches = _switches(ruleset)
    checked = {
        name
        for validator in switches.__pydantic_decorators__.field_validators.values()
        for name in validator.info.fields
    }
    unread = sorted(
        field.alias or name
        for name, field in switches.model_fields.items()
        if name not in read | checked
    )
    assert not unread, f"{ruleset_id} declares switches its rules never read: {unread}"
