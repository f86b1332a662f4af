"""``ghillie audit`` and ``ghillie replay``: a finished game's record, checked and told."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from ghillie.events import event_from_json
from ghillie.fairness.audit import Finding, Report
from ghillie.fairness.audit import audit as run_audit
from ghillie.fairness.record import FORMAT
from ghillie.game import load_scenario
from ghillie.story import tell_record
from ghillie.words.possessive import possessive

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


def typed_by_side(
    typed: Iterable[tuple[int, str, Sequence[int]]], names: Mapping[str, str]
) -> list[str]:
    """Dice typed in, one line per side that typed any: at which events, and what they
    showed ("Nomads: event 7 (5, 11); event 12 (17)")."""
    by: dict[str, list[str]] = {}
    for seq, side, faces in typed:
        by.setdefault(side, []).append(f"event {seq} ({', '.join(map(str, faces))})")
    return [f"{names.get(side, side)}: {'; '.join(events)}" for side, events in by.items()]


def events_by_side(
    pairs: Iterable[tuple[int, str]], names: Mapping[str, str], most: int = 12
) -> list[str]:
    """Events, one line per side ("Soviets: events 19, 23"), at most ``most`` of them named
    ("… and 40 more")."""
    by: dict[str, list[int]] = {}
    for seq, side in pairs:
        by.setdefault(side, []).append(seq)
    lines = []
    for side, seqs in by.items():
        named = ", ".join(map(str, seqs[:most]))
        more = f" and {len(seqs) - most} more" if len(seqs) > most else ""
        word = "event" if len(seqs) == 1 else "events"
        lines.append(f"{names.get(side, side)}: {word} {named}{more}")
    return lines


def _notes(report: Report, names: Mapping[str, str]) -> list[tuple[str, list[str]]]:
    """What a passed audit rests on besides the proof, in players' words: the chains the host
    held, the rolls drawn without a side's page, the orders the host gave in a side's name,
    the seats that changed device or key, the dice typed in. Each note comes with its lines
    by side (none for some)."""

    def name(side: str) -> str:
        return names.get(side, side)

    notes: list[tuple[str, list[str]]] = []
    if report.held:
        notes.append(
            (
                f"the host held the roll chains of {', '.join(map(name, report.held))}: their "
                "rolls are protected against a player, not against the host.",
                [],
            )
        )
    for side, k in report.new_chains:
        notes.append(
            (
                f"from event {k} on, {possessive(name(side))} rolls use a new dice chain "
                "(its seat moved to another device, or its device was lost); every roll before "
                "that event uses the chain it gave at the start.",
                [],
            )
        )
    if report.missing:
        notes.append(
            (
                "some rolls were drawn without the share of a side's page (it did not give it "
                "in time): the host and the other sides could have known each such roll in "
                "advance. Every other roll is safe from them. Drawn without:",
                events_by_side(report.missing, names),
            )
        )
    if report.host_acted:
        lines = [
            events_by_side([(seq, side) for seq in seqs], names)[0]
            + ("" if report.signed.get(side) else " (every order it gave)")
            for side, seqs in report.host_acted.items()
        ]
        notes.append(
            (
                "the host gave some orders in a side's name, that side having no key to sign "
                "them with (it was played without one, over the API or the command line): "
                "they rest on the host's word, not on the side's. Given by the host:",
                lines,
            )
        )
    for side, k in report.new_keys:
        notes.append(
            (
                f"from event {k} on, {possessive(name(side))} orders are signed with a new key "
                "(its seat moved to another device, or was taken over); every order before "
                "that event was signed with the key before.",
                [],
            )
        )
    if report.typed:
        notes.append(
            (
                "some dice were typed in, rolled at the table: they rest on the word of the "
                "side that typed them, not on every party's chain.",
                typed_by_side(report.typed, names),
            )
        )
    return notes


def _side_names(record: Any) -> dict[str, str]:
    """The sides' names in a record's scenario (an id stands for a name it cannot give)."""
    try:
        return {str(s["id"]): str(s["name"]) for s in record["scenario"]["sides"]}
    except (KeyError, TypeError):
        return {}


def _typed(record: Mapping[str, Any]) -> list[tuple[int, str, tuple[int, ...]]]:
    """Every event's typed dice, by typer, as the audit's report lists them."""
    out = []
    for raw in record["events"]:
        event = event_from_json(raw)
        for side in dict.fromkeys(r.by for r in event.rolls if r.by is not None):
            out.append((event.seq, side, tuple(r.face for r in event.rolls if r.by == side)))
    return out


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
                    "version": report.version,
                    "game": report.game,
                    "ruleset": report.ruleset,
                    "events": report.events,
                    "rolls": report.rolls,
                    "openings": report.openings,
                    "receipts": report.receipts,
                    "host_held": report.held,
                    "new_chains": [{"side": s, "from": k} for s, k in report.new_chains],
                    "typed": [
                        {"event": k, "by": side, "dice": list(faces)}
                        for k, side, faces in report.typed
                    ],
                    "missing": [{"event": k, "side": side} for k, side in report.missing],
                    "host_acted": report.host_acted,
                    "new_keys": [{"side": s, "from": k} for s, k in report.new_keys],
                    "signed": report.signed,
                    "findings": [str(f) for f in report.findings],
                }
            )
        )
    elif report.ok:
        console.print(
            f"[green]OK[/green] {report.ruleset} game {report.game}, written under fairness "
            f"protocol {report.version}: the hash chain is intact "
            f"({report.events} events, every head signed); {report.receipts} receipt(s) lie on "
            f"it; {report.rolls} roll(s) recompute exactly from every party's chain; "
            f"{report.openings} opening(s) shown at reveals and every published root open to "
            "the revealed secrets; replaying the game through the rules reproduces every "
            "announced result."
        )
        for note, lines in _notes(report, _side_names(data)):
            console.print(f"[yellow]Note:[/yellow] {escape(note)}", highlight=False)
            for line in lines:
                console.print(f"  {line}", markup=False, highlight=False)
    else:
        console.print("[red]FAILED[/red] ", end="")
        console.print(str(report.findings[0]), markup=False, highlight=False)
    if not report.ok:
        raise typer.Exit(1)


def replay(
    record: Annotated[Path, typer.Argument(help="The game record.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the recorded events as they are, ids and all.")
    ] = False,
) -> None:
    """Print the game event by event with every secret shown: where everyone really was, every
    roll, and what each side was told — the referee's view after each event, pieces named."""
    data = _read(record)
    if as_json:
        typer.echo(json.dumps(data.get("events"), ensure_ascii=False, indent=1))
        return
    try:
        title = load_scenario(data["scenario"]).title
        typer.echo(f"{data['ruleset']} game {data['game']}: {title}")
        typer.echo(
            "Every secret shown: the referee's view after each event, with what each side was told."
        )
        for told in tell_record(data):
            typer.echo("\n" + "═" * 78)
            typer.echo("\n".join(told.lines()))
        typed = typed_by_side(_typed(data), _side_names(data))
        typer.echo("\n" + "═" * 78)
        if typed:
            typer.echo("Dice typed in, rolled at the table (each rests on its typer's word):")
            typer.echo("\n".join(f"  {line}" for line in typed))
        else:
            typer.echo("No die was typed in: ghillie drew every roll from every party's chain.")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        console.print(
            f"Cannot replay {record}: it is not a record ghillie wrote ({type(exc).__name__}: "
            f"{str(exc)[:80]}); `ghillie audit` names what is wrong with it.",
            style="red",
            markup=False,
        )
        raise typer.Exit(2) from None
