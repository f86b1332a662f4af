"""``ghillie audit`` and ``ghillie replay``: a finished game's record, checked and told."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from ghillie.events import effect_to_json, event_from_json
from ghillie.fairness.audit import Finding, Report
from ghillie.fairness.audit import audit as run_audit
from ghillie.fairness.record import FORMAT
from ghillie.state import Level
from ghillie.words import Speaker, speaker

console = Console()


class Unreadable(Exception):
    """A file whose text is not a record ghillie could have written: named, never a
    traceback (an integer of 5,000 digits, lists nested 100,000 deep, a key twice)."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # One key once: a reader that keeps the first of two keys (several do) would read
    # another game id, another value, another opening than the audit did.
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise Unreadable(f"the key {json.dumps(key)[:80]} is written twice in one object")
        out[key] = value
    return out


def _parse(text: str) -> Any:
    """The JSON of a record, or :class:`Unreadable` saying why not."""
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except json.JSONDecodeError as exc:
        raise Unreadable(f"it is not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise Unreadable("it is nested too deeply") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):
            raise Unreadable("an integer in it has more digits than Python reads (4,300)") from None
        raise Unreadable(f"a value in it cannot be read ({str(exc)[:80]})") from None


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise Unreadable("it is not UTF-8 text") from None
    except OSError as exc:
        console.print(f"[red]Cannot read {path}: {type(exc).__name__}[/red]")
        raise typer.Exit(2) from None


def _read(path: Path) -> Any:
    try:
        return _parse(_text(path))
    except Unreadable as exc:
        console.print(f"Cannot read {path}: {exc}", style="red", markup=False)
        raise typer.Exit(2) from None


def audit(
    record: Annotated[Path, typer.Argument(help="The game record (downloaded when it ended).")],
    receipts: Annotated[
        list[Path] | None,
        typer.Option(
            help="Receipts a side's page kept, or the other side's record, which carries "
            "them (repeatable)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    unfinished: Annotated[
        bool, typer.Option(help="Check a game still being played (the log may end anywhere).")
    ] = False,
) -> None:
    """Check a game record: hash chain, receipts, every roll, every commitment, and a full
    replay through the rules. Exits 1 and names the first problem if anything is wrong."""
    data: Any = None
    try:
        data = _parse(_text(record))
    except Unreadable as exc:
        findings = [Finding("record", None, f"the record cannot be read: {exc}")]
    else:
        findings = []
    kept: list[Any] = []
    kept_by: list[tuple[str, Any]] = []
    for path in receipts or []:
        try:
            other = _parse(_text(path))
        except Unreadable as exc:
            findings.append(Finding("receipts", None, f"{path.name} cannot be read: {exc}"))
            continue
        # The other side's downloaded record carries that side's receipts: take them, with
        # the side each belongs to.
        if isinstance(other, dict) and other.get("format") == FORMAT:
            own = other.get("receipts") or {}
            kept_by.extend(own.items() if isinstance(own, dict) else [("", own)])
        else:
            kept.append(other)
    report = Report(findings=findings) if findings else None
    if report is None:
        report = run_audit(data, kept, finished=not unfinished, kept_by=kept_by)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "ok": report.ok,
                    "game": report.game,
                    "ruleset": report.ruleset,
                    "events": report.events,
                    "rolls": report.rolls,
                    "openings": report.openings,
                    "receipts": report.receipts,
                    "host_held": report.held,
                    "findings": [str(f) for f in report.findings],
                }
            )
        )
    elif report.ok:
        console.print(
            f"[green]OK[/green] {report.ruleset} game {report.game}: the hash chain is intact "
            f"({report.events} events, every head signed); {report.receipts} receipt(s) lie on "
            f"it; {report.rolls} roll(s) recompute exactly from every party's chain; "
            f"{report.openings} opening(s) shown at reveals and every published root open to "
            "the revealed secrets; replaying the game through the rules reproduces every "
            "announced result."
        )
        if report.held:
            console.print(
                "[yellow]Note:[/yellow] the host held the roll chains of "
                + ", ".join(report.held)
                + ": their rolls are protected against a player, not against the host."
            )
    else:
        console.print("[red]FAILED[/red] ", end="")
        console.print(str(report.findings[0]), markup=False, highlight=False)
    if not report.ok:
        raise typer.Exit(1)


def replay(
    record: Annotated[Path, typer.Argument(help="The game record.")],
) -> None:
    """Print the game event by event with every secret shown: where everyone really was."""
    data = _read(record)
    words = speaker(str(data.get("ruleset", "")))
    names: dict[str, str] = {}
    for raw in data["events"]:
        event = event_from_json(raw)
        who = event.side or "setup"
        console.rule(f"[bold]{event.seq}[/bold] {who}")
        if event.command:
            _out(f"command: {json.dumps(event.command, ensure_ascii=False)}")
        for roll in event.rolls:
            how = "entered" if roll.entered else ("secret" if roll.secret else "open")
            _out(f"roll {roll.label}: {roll.die} → {roll.value} ({how})")
        for effect in event.effects:
            data_ = effect_to_json(effect)
            if data_["op"] == "place":
                piece = data_["piece"]
                names[piece["id"]] = str(
                    piece["public"].get("name") or piece["public"].get("label") or piece["kind"]
                )
            _out(_describe(data_, names))
        for side, lines in event.told.items():
            for line in lines:
                if line.get("event") != "acted":
                    _out(f"  {side} told: {_said(words, line)}")


def _out(text: str) -> None:
    # Game data is printed as it is: never read as rich markup.
    console.print(text, markup=False, highlight=False)


def _said(words: Speaker, line: Mapping[str, Any]) -> str:
    """A told line in English words; its JSON if it has none, or if a record's sentence
    cannot be spoken (a record is read as it is, never trusted)."""
    if "text" not in line:
        return _json(line)
    try:
        return words.text(line["text"])
    except Exception:
        return _json(line["text"])


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _describe(effect: dict[str, Any], names: dict[str, str]) -> str:
    op = effect["op"]
    if op == "place":
        piece = effect["piece"]
        secret = (
            f" secretly {json.dumps(piece['secret'], ensure_ascii=False)}"
            if piece["secret"]
            else ""
        )
        return f"+ {piece['owner']} {piece['kind']} {names.get(piece['id'], '')}{secret}"
    if op == "update":
        name = names.get(effect["id"], effect["id"][:8])
        parts = []
        if effect["public"]:
            parts.append(f"now {json.dumps(effect['public'], ensure_ascii=False)}")
        if effect["secret"]:
            parts.append(f"secretly {json.dumps(effect['secret'], ensure_ascii=False)}")
        if effect["unset"]:
            parts.append(f"drops {', '.join(effect['unset'])}")
        return f"~ {name}: " + "; ".join(parts)
    if op == "remove":
        return f"- {names.get(effect['id'], effect['id'][:8])} removed"
    if op == "know":
        level = Level(effect["level"]).name.lower()
        facts = f" {_json(effect['facts'])}" if effect["facts"] else ""
        return f"? {effect['side']} now has {names.get(effect['id'], '?')} {level}{facts}"
    if op == "phase":
        return f"phase: {effect['phase']}"
    if op == "open":
        shown = names.get(effect["id"], "?")
        return (
            f"= {effect['side']} is shown the commitment to {shown}'s {', '.join(effect['keys'])}"
        )
    return f"board: {effect['name']} {json.dumps(effect['data'], ensure_ascii=False)}"
