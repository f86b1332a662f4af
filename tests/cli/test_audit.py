"""``ghillie demo --record``, ``ghillie audit`` and ``ghillie replay``, as a newcomer uses them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ghillie.cli import app
from ghillie.demo import scripts
from ghillie.fairness.ledger import head_receipt

runner = CliRunner()


@pytest.fixture(params=sorted(scripts()))
def recorded(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["demo", request.param, "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert "Wrote the record" in result.output
    return path


def test_the_demo_record_passes_the_audit(recorded: Path) -> None:
    result = runner.invoke(app, ["audit", str(recorded)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # as read, whatever the terminal's width
    assert "OK" in said
    assert "written under fairness protocol 4" in said
    assert "replaying the game" in said
    # The demo's chains were held by the host, and the audit says what that means.
    assert "not against the host" in said
    # Nor did its sides sign their orders (no seat keys): the host gave each.
    assert "the host gave some orders in a side's name" in said
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
    assert runner.invoke(app, ["audit", str(path)]).exit_code == 2  # no such file
    path.write_text("{not json")
    result = runner.invoke(app, ["audit", str(path)])
    assert result.exit_code == 1
    assert "FAILED record: the record cannot be read: it is not JSON" in result.output
    path.write_text(json.dumps({"format": "something else"}))
    result = runner.invoke(app, ["audit", str(path)])
    assert result.exit_code == 1
    assert "record" in result.output


def _sides(record: dict[str, Any]) -> tuple[str, ...]:
    return tuple(side["id"] for side in record["scenario"]["sides"])


def test_receipts_kept_by_a_page_are_checked(recorded: Path, tmp_path: Path) -> None:
    record = json.loads(recorded.read_text())
    last = record["events"][-1]
    receipts = tmp_path / "receipts.json"
    key = record["events"][0]["fair"]["setup"]["key"]
    head = head_receipt(last["seq"], last["fair"], _sides(record))
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
    heads = [head_receipt(e["seq"], e["fair"], _sides(record)) for e in record["events"]]
    other = tmp_path / "other.json"
    other.write_text(
        json.dumps({**record, "receipts": {"x": {"key": key, "heads": heads, "requests": []}}})
    )
    result = runner.invoke(app, ["audit", str(recorded), "--receipts", str(other), "--json"])
    assert json.loads(result.output)["receipts"] == len(heads)


def test_the_other_sides_record_gives_its_receipts_as_that_sides(
    recorded: Path, tmp_path: Path
) -> None:
    # The demo's chains were held by the host: a page that says it held its own (its anchor
    # kept with its receipts) was given another chain than the record rolls with.
    record = json.loads(recorded.read_text())
    setup = record["events"][0]["fair"]["setup"]
    side = setup["parties"][1]
    kept = {"key": setup["key"], "heads": [], "requests": [], "anchor": side["anchor"]}
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**record, "receipts": {side["party"]: kept}}))
    result = runner.invoke(app, ["audit", str(recorded), "--receipts", str(other)])
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "FAILED receipts: event 0: a side's page gave another chain than the record uses" in said
    assert side["party"] in said


def test_a_record_written_another_way_fails(recorded: Path) -> None:
    record = json.loads(recorded.read_text())
    record["note"] = "harmless"
    recorded.write_text(json.dumps(record))
    result = runner.invoke(app, ["audit", str(recorded)])
    assert result.exit_code == 1
    assert "FAILED record: is not in the form ghillie writes" in result.output


@pytest.mark.parametrize("ruleset", sorted(scripts()))
def test_replay_tells_the_game_with_every_secret_and_no_id(tmp_path: Path, ruleset: str) -> None:
    path = tmp_path / "game.json"
    runner.invoke(app, ["demo", ruleset, "--record", str(path)])
    events = json.loads(path.read_text())["events"]
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Event 0 · The game is created." in out
    assert [int(n) for n in re.findall(r"^Event (\d+) · ", out, re.M)] == [e["seq"] for e in events]
    assert out.count("── Referee read:") == len(events)
    assert "To everyone: " in out or "To " in out  # what each side was told
    # No id: every piece is named as the referee knows it.
    assert not re.search(r"[0-9a-f]{32}", out), re.search(r".*[0-9a-f]{32}.*", out)


def test_replay_shows_every_secret(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    runner.invoke(app, ["demo", "suspicious-places", "--record", str(path)])
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.output
    # Lianra's hidings, secret in play: the order as she gave it and the markers' contents.
    assert "Lianra defenders: Record what the markers hide" in out
    assert "Unit hidden there: Machine-gun position" in out
    assert "Private note: MG nest behind the birches" in out
    assert "marker M1 — face up · soft cover — Hides: Machine-gun position" in out
    assert "(secret)" in out  # secret rolls, with their values
    assert "Lianra defenders · sniper marker S1 — a marker of Sniper Tarn" in out
    assert "Keno army knows marker M2: suspected" in out


def test_replay_as_json_prints_the_recorded_events(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    runner.invoke(app, ["demo", "grid-ambush", "--record", str(path)])
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == json.loads(path.read_text())["events"]


def test_replay_of_something_else_is_named_not_a_traceback(recorded: Path) -> None:
    record = json.loads(recorded.read_text())
    del record["scenario"]
    recorded.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(recorded)])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "not a record ghillie wrote" in " ".join(result.output.split())


def _spliced(recorded: Path, text: str) -> str:
    """The record's text with ``text`` written in before its first key."""
    return recorded.read_text().replace('"format"', text + ', "format"', 1)


@pytest.mark.parametrize(
    ("what", "text", "words"),
    [
        ("an integer of 5,000 digits", '"x": ' + "9" * 5000, "more digits than Python"),
        ("lists nested 100,000 deep", '"x": ' + "[" * 100_000 + "]" * 100_000, "too deeply"),
        ("a key written twice", '"game": "another"', 'the key "game" is written twice'),
    ],
)
def test_a_record_that_cannot_be_read_is_named_not_a_traceback(
    recorded: Path, what: str, text: str, words: str
) -> None:
    recorded.write_text(_spliced(recorded, text))
    result = runner.invoke(app, ["audit", str(recorded)])
    assert result.exit_code == 1, (what, result.output)
    assert isinstance(result.exception, SystemExit), (what, result.exception)
    said = " ".join(result.output.split())
    assert "FAILED record: the record cannot be read: " in said, what
    assert words in said, what
    report = json.loads(runner.invoke(app, ["audit", str(recorded), "--json"]).output)
    assert not report["ok"]
    assert words in report["findings"][0]
    # The same in a file of receipts.
    good = recorded.parent / "good.json"
    runner.invoke(app, ["demo", "grid-ambush", "--record", str(good)])
    result = runner.invoke(app, ["audit", str(good), "--receipts", str(recorded)])
    assert result.exit_code == 1, (what, result.output)
    said = " ".join(result.output.split())
    assert "FAILED receipts: game.json cannot be read: " in said, what
    assert words in said, what


def test_a_deeply_nested_command_is_a_finding(recorded: Path) -> None:
    record = json.loads(recorded.read_text())
    # Deep enough that hashing the event overflows the stack (reading it may, too, by the
    # stack the reader is called from): either way a named finding.
    record["events"][1]["command"]["x"] = "deep"
    text = json.dumps(record).replace('"x": "deep"', '"x": ' + "[" * 990 + "]" * 990, 1)
    recorded.write_text(text)
    result = runner.invoke(app, ["audit", str(recorded)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "it is nested too deeply" in " ".join(result.output.split())


# --- typed dice (issue 24, finding 5) -------------------------------------------------------


def _demo(tmp_path: Path, ruleset: str) -> Path:
    path = tmp_path / f"{ruleset}.json"
    result = runner.invoke(app, ["demo", ruleset, "--record", str(path)])
    assert result.exit_code == 0, result.output
    return path


def test_the_audit_passes_a_record_with_typed_dice_and_lists_them_by_side(
    tmp_path: Path,
) -> None:
    # The camouflage demo: the Nomads type in the Caliban's two dice of a Face to Face Roll
    # (event 7; ghillie rolls the Fusilier's), PanOceania two Discovers' dice (events 15
    # and 20, after the Fireteam the demo forms).
    path = _demo(tmp_path, "camouflage")
    result = runner.invoke(app, ["audit", str(path)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "some dice were typed in, rolled at the table" in said
    assert "Nomads: event 7 (5, 11)" in result.output
    assert "PanOceania: event 15 (17); event 20 (4)" in result.output
    report = json.loads(runner.invoke(app, ["audit", str(path), "--json"]).output)
    assert report["ok"]
    assert report["typed"] == [
        {"event": 7, "by": "nomads", "dice": [5, 11]},
        {"event": 15, "by": "panoceania", "dice": [17]},
        {"event": 20, "by": "panoceania", "dice": [4]},
    ]


def test_the_audit_of_a_record_without_typed_dice_says_nothing_of_them(tmp_path: Path) -> None:
    path = _demo(tmp_path, "grid-ambush")
    result = runner.invoke(app, ["audit", str(path)])
    assert result.exit_code == 0, result.output
    assert "typed" not in result.output
    assert json.loads(runner.invoke(app, ["audit", str(path), "--json"]).output)["typed"] == []


def test_replay_says_who_typed_each_die_and_lists_them_by_side(tmp_path: Path) -> None:
    path = _demo(tmp_path, "camouflage")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Roll die 1: d20 showed 5 (typed in by Nomads)" in out
    assert "Roll die 2: d20 showed 11 (typed in by Nomads)" in out
    assert "Roll die 3: d20 showed 10\n" in out  # the Fusilier's: ghillie's own
    assert "To everyone: Nomads typed in 2 dice rolled at the table: 5, 11." in out
    assert "(entered)" not in out
    tail = out.rsplit("═" * 78, 1)[1]
    assert "Dice typed in, rolled at the table" in tail
    assert "  Nomads: event 7 (5, 11)\n  PanOceania: event 15 (17); event 20 (4)" in tail


def test_replay_of_a_record_written_before_typers_were_named(tmp_path: Path) -> None:
    """An entered roll of an older record has no ``by``: the side that gave the command
    typed it, as no other could."""
    path = _demo(tmp_path, "camouflage")
    record = json.loads(path.read_text())
    for event in record["events"]:
        for roll in event["rolls"]:
            roll.pop("by", None)
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Roll die 1: d20 showed 5 (typed in by Nomads)" in result.output
    assert "  Nomads: event 7 (5, 11)" in result.output


def test_replay_of_a_game_without_typed_dice_says_so(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(_demo(tmp_path, "grid-ambush"))])
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith(
        "No die was typed in: ghillie drew every roll from every party's chain."
    )
