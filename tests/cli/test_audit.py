"""``ghillie demo --record``, ``ghillie audit`` and ``ghillie replay``, as a newcomer uses them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ghillie.cli import app

runner = CliRunner()


@pytest.fixture(params=["grid-ambush", "suspicious-places"])
def recorded(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["demo", request.param, "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert "Wrote the record" in result.output
    return path


def test_the_demo_record_passes_the_audit(recorded: Path) -> None:
    result = runner.invoke(app, ["audit", str(recorded)])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output
    assert "replaying the game" in result.output
    # The demo's chains were held by the host, and the audit says what that means.
    assert "not against the host" in result.output
    report = json.loads(runner.invoke(app, ["audit", str(recorded), "--json"]).output)
    assert report["ok"]
    assert report["events"] == len(json.loads(recorded.read_text())["events"])


def test_a_record_edited_by_hand_fails_and_the_first_problem_is_named(recorded: Path) -> None:
    record = json.loads(recorded.read_text())
    told = record["events"][-2]["told"]
    side = next(iter(told))
    told[side] = [{"event": "acted", "by": "nobody"}]
    recorded.write_text(json.dumps(record))
    result = runner.invoke(app, ["audit", str(recorded)])
    assert result.exit_code == 1
    assert "FAILED chain: event" in result.output


def test_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_text("{not json")
    assert runner.invoke(app, ["audit", str(path)]).exit_code == 2
    path.write_text(json.dumps({"format": "something else"}))
    result = runner.invoke(app, ["audit", str(path)])
    assert result.exit_code == 1
    assert "record" in result.output


def test_receipts_kept_by_a_page_are_checked(recorded: Path, tmp_path: Path) -> None:
    record = json.loads(recorded.read_text())
    last = record["events"][-1]
    receipts = tmp_path / "receipts.json"
    key = record["events"][0]["fair"]["setup"]["key"]
    head = {"seq": last["seq"], "hash": last["fair"]["hash"], "sig": last["fair"]["sig"]}
    receipts.write_text(json.dumps({"key": key, "heads": [head], "requests": []}))
    result = runner.invoke(app, ["audit", str(recorded), "--receipts", str(receipts), "--json"])
    assert json.loads(result.output)["receipts"] == 1
    # Receipts that do not verify, or that name no key (kept by an older page), are not
    # skipped: the audit fails and says why.
    for kept, words in [
        ({"key": key, "heads": [{**head, "sig": "00" * 64}], "requests": []}, "did not sign"),
        ({"heads": [head], "requests": []}, "do not say which host key"),
        ({"key": "11" * 32, "heads": [head], "requests": []}, "another host key"),
    ]:
        receipts.write_text(json.dumps(kept))
        result = runner.invoke(app, ["audit", str(recorded), "--receipts", str(receipts)])
        assert result.exit_code == 1
        assert "FAILED receipts" in result.output
        assert words in result.output


def test_the_other_sides_record_gives_its_receipts(recorded: Path, tmp_path: Path) -> None:
    record = json.loads(recorded.read_text())
    key = record["events"][0]["fair"]["setup"]["key"]
    heads = [
        {"seq": e["seq"], "hash": e["fair"]["hash"], "sig": e["fair"]["sig"]}
        for e in record["events"]
    ]
    other = tmp_path / "other.json"
    other.write_text(
        json.dumps({**record, "receipts": {"x": {"key": key, "heads": heads, "requests": []}}})
    )
    result = runner.invoke(app, ["audit", str(recorded), "--receipts", str(other), "--json"])
    assert json.loads(result.output)["receipts"] == len(heads)


def test_a_record_written_another_way_fails(recorded: Path) -> None:
    record = json.loads(recorded.read_text())
    record["note"] = "harmless"
    recorded.write_text(json.dumps(record))
    result = runner.invoke(app, ["audit", str(recorded)])
    assert result.exit_code == 1
    assert "FAILED record: is not in the form ghillie writes" in result.output


def test_replay_shows_every_secret(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    runner.invoke(app, ["demo", "suspicious-places", "--record", str(path)])
    result = runner.invoke(app, ["replay", str(path)], terminal_width=200)
    assert result.exit_code == 0, result.output
    # The machine gun's hiding note is Lianra's secret in play; the replay shows it.
    assert "MG nest" in result.output or "secretly" in result.output
    assert "(secret)" in result.output  # secret rolls are shown with their values
