"""Scenario files: TOML or JSON, schema errors that name the key, switches by their names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ghillie import ScenarioError, examples, load_scenario


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


def test_every_switch_is_documented() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "rulesets.md").read_text(encoding="utf-8")
    for name in ("suspicious-places-table", "grid-ambush-table", "ambush-fields"):
        for switch in load_scenario(examples.data(name)).switches.named():
            assert f"`{switch}`" in docs, f"{switch} is missing from docs/rulesets.md"
