"""``ghillie new``: a game created on a running server from the command line."""

from __future__ import annotations

import io
import json
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ghillie import examples
from ghillie.cli import app
from ghillie.server.lan import terminal_qr
from tests.server.test_browser import serving

runner = CliRunner()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    command = [sys.executable, "-m", "ghillie.cli", "serve"]
    with serving(tmp_path_factory.mktemp("server"), command) as base:
        yield base


def view(url: str) -> dict[str, object]:
    base, rest = url.split("/play/", 1)
    game, token = rest.split("#", 1)
    request = urllib.request.Request(
        f"{base}/api/games/{game}/view", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return dict(json.load(answer))


def test_new_creates_a_game_from_an_example_with_a_link_per_side(server: str) -> None:
    result = runner.invoke(app, ["new", "ambush-fields", "--server", server, "--json"])
    assert result.exit_code == 0, result.output
    links = {link["observer"]: link["url"] for link in json.loads(result.output)["links"]}
    assert set(links) == {"cylons", "colonials", "referee", "spectator"}
    assert view(links["colonials"])["you"] == "colonials"
    # The default: each side's page holds its own dice chain, so the game waits for them.
    assert view(links["cylons"])["seq"] == -1
    table = runner.invoke(
        app, ["new", "ambush-fields-table", "--server", server, "--chains", "host"]
    )
    assert table.exit_code == 0, table.output
    assert "Twin veils" in table.output
    assert "Colonial fleet" in table.output


@pytest.mark.spec("BSG-R03")
def test_new_refuses_a_scenario_that_breaks_the_rules_with_the_reason(tmp_path: Path) -> None:
    text = examples.file("ambush-fields").read_text()
    # A patrol boat's field is limited to +1 (BSG-R03): the veil is rating 2.
    broken = text.replace('controller = "basestar"', 'controller = "picket"')
    scenario = tmp_path / "broken.toml"
    scenario.write_text(broken)
    result = runner.invoke(app, ["new", str(scenario), "--server", "http://127.0.0.1:9"])
    assert result.exit_code == 2
    assert "BSG-R03" in result.output
    assert "Picket boat" in result.output


def test_new_says_when_no_server_answers(tmp_path: Path) -> None:
    result = runner.invoke(app, ["new", "ambush-fields", "--server", "http://127.0.0.1:9"])
    assert result.exit_code == 1
    assert "ghillie serve" in result.output


def test_new_names_the_examples_when_the_scenario_is_neither(tmp_path: Path) -> None:
    result = runner.invoke(app, ["new", "no-such-thing", "--server", "http://127.0.0.1:9"])
    assert result.exit_code == 2
    assert "ambush-fields-table" in result.output


@pytest.mark.parametrize(
    ("suffix", "text"),
    [
        (".toml", 'ruleset = "grid-ambush"\na = ' + "[" * 5000 + "]" * 5000),
        (".json", '{"ruleset": "grid-ambush", "a": ' + "[" * 5000 + "]" * 5000 + "}"),
        (".json", '{"ruleset": "grid-ambush", "a": ' + "[" * 100 + "]" * 100 + "}"),
    ],
    ids=["toml", "json-past-the-parser", "json-past-the-limit"],
)
def test_new_refuses_a_deeply_nested_scenario_file_with_a_clear_message(
    tmp_path: Path, suffix: str, text: str
) -> None:
    path = tmp_path / f"deep{suffix}"
    path.write_text(text, encoding="utf-8")
    # Refused before anything is sent: no server answers at this address.
    result = runner.invoke(app, ["new", str(path), "--server", "http://127.0.0.1:9"])
    assert result.exit_code == 2, result.output
    assert "nests deeper than 32 levels" in " ".join(result.output.split())


@pytest.mark.parametrize("columns", ["80", "120"])
def test_new_prints_each_link_whole_with_its_qr_code_whatever_the_width(
    server: str, columns: str
) -> None:
    result = runner.invoke(
        app, ["new", "ambush-fields-table", "--server", server], env={"COLUMNS": columns}
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    urls = [line for line in lines if "/play/" in line]
    assert len(urls) == 3
    assert all(url.startswith(f"{server}/play/") and "…" not in url for url in urls)
    sides = [(side.id, side.name) for side in examples.load("ambush-fields-table").sides]
    for (side, name), url in zip([*sides, ("referee", "Referee")], urls, strict=True):
        # Each link is the whole link: it opens its side's game.
        assert view(url)["you"] == side
        # Under its side's name and warning, then the link alone, then its QR code.
        heading = lines[lines.index(url) - 1]
        if side == "referee":
            assert heading.startswith("Referee: sees every secret")
        else:
            assert heading.startswith(f"{name}: private"), heading
            assert heading.endswith(f"to the player of {name} only.")
        assert terminal_qr(url) in result.output
    # The table screen's link, between the sides' and the referee's, says what it is for.
    (table,) = [line for line in lines if "/table/" in line]
    assert table.startswith(f"{server}/table/")
    assert lines.index(urls[-2]) < lines.index(table) < lines.index(urls[-1])
    heading = lines[lines.index(table) - 1]
    assert heading.startswith("Table screen: shows no secrets"), heading
    assert terminal_qr(table) in result.output


@pytest.mark.parametrize("columns", ["80", "120"])
def test_new_links_are_the_links_the_server_answers_as_json(
    server: str, columns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One answer shown both ways: the --json one, and the words and QR codes.
    answered = runner.invoke(app, ["new", "grid-ambush", "--server", server, "--json"])
    created = json.loads(answered.output)
    body = json.dumps(created).encode()

    class Answer(io.BytesIO):
        def __enter__(self) -> Answer:
            return self

    monkeypatch.setattr(urllib.request, "urlopen", lambda *a, **k: Answer(body))
    shown = runner.invoke(app, ["new", "grid-ambush", "--server", server], env={"COLUMNS": columns})
    assert shown.exit_code == 0, shown.output
    for link in created["links"]:
        assert link["url"] in shown.output  # one unbroken substring
        assert link["name"] in shown.output
    plain = runner.invoke(
        app, ["new", "grid-ambush", "--server", server, "--no-qr"], env={"COLUMNS": columns}
    )
    assert plain.exit_code == 0, plain.output
    assert all(link["url"] in plain.output for link in created["links"])
    assert "█" not in plain.output
