"""``ghillie demo <ruleset>``: a short scripted game, step by step, as each side sees it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.panel import Panel

from ghillie.demo import Script, new_game, play, scripts, transcript
from ghillie.state import SPECTATOR, Phase

console = Console()


def demo(
    ruleset: Annotated[str, typer.Argument(help="The ruleset to demonstrate.")],
    side: Annotated[str | None, typer.Option(help="Show only what this side sees.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print every view as JSON.")] = False,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Also write the game's complete record here (try `ghillie audit` on it)."
        ),
    ] = None,
) -> None:
    """Play a scripted game and print, step by step, what each side sees."""
    known = scripts()
    if ruleset not in known:
        raise typer.BadParameter(f"no demo for {ruleset!r}; there are: {', '.join(sorted(known))}")
    if record is not None:
        _write_record(known[ruleset], record)
    if as_json:
        steps = transcript(known[ruleset])
        for step in steps:
            step["views"] = {o: v for o, v in step["views"].items() if side in (None, o)}
        typer.echo(json.dumps(steps, ensure_ascii=False, indent=1))
        return
    seen: dict[str, int] = {}
    for played in play(known[ruleset]):
        observers = [o for o in played.views if side in (None, o)]
        if side is not None and not observers:
            raise typer.BadParameter(f"no side {side!r} in this game")
        title = f"Step {played.number}" + (f" — {played.step.side}" if played.step.side else "")
        # The narrator knows every secret: with --side, only that side's view is shown.
        body = [played.step.caption] if side is None else []
        if played.refusal is not None:
            body.append(f"[red]Refused ({played.refusal.code}): {played.refusal.detail}[/red]")
        for observer in observers:
            lines = _new_lines(played.views[observer], seen.get(observer, -1))
            seen[observer] = played.views[observer]["seq"]
            if lines:
                who = "Spectators see" if observer == SPECTATOR else f"{observer} sees"
                body.append(f"[bold]{who}:[/bold]\n  " + "\n  ".join(lines))
        console.print(Panel("\n".join(body), title=title, title_align="left"))


def _new_lines(view: dict[str, Any], after: int) -> list[str]:
    # What the reader reads of each line (its recorded form keeps the words as data).
    return [
        said["text"] or json.dumps(line, ensure_ascii=False)
        for entry in view["log"]
        if entry["seq"] > after
        for line, said in zip(entry["lines"], entry["said"], strict=True)
        if line.get("event") != "acted"
    ]


def _write_record(script: Script, path: Path) -> None:
    # A worked example from a rule text is shown with the text's own dice; its record must
    # pass the audit, so the recorded game gives the same commands with fair rolls drawn
    # from the parties' chains — a command the new dice make impossible is refused there.
    fair = replace(script, dice=None)
    game = new_game(fair)
    refused = sum(1 for played in play(fair, game) if played.refusal is not None)
    if game.state.phase is not Phase.OVER:
        # A record is of a finished game: the audit reads a log that stops early as cut short.
        game.command(game.state.sides[0], {"type": "end_game"})
    path.write_text(json.dumps(game.record(), ensure_ascii=False, indent=1) + "\n")
    note = ""
    if script.dice is not None:
        note = (
            " The demo shows the rule text's own dice; the recorded game gives the same "
            f"commands with fair rolls from the chains ({refused} of them refused)."
        )
    console.print(f"Wrote the record of {len(game.events())} events to {path}.{note}")
