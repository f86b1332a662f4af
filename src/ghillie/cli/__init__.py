"""The ``ghillie`` command line: the server, new games, rulesets, exact odds, demo games,
audits and replays.

Odds commands are made from each ruleset's odds queries (``Ruleset.odds_queries``): the same
checks the rules roll, with parameters in the rule text's own words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from ghillie import examples, registry
from ghillie.cli.audit import audit, replay
from ghillie.cli.demo import demo
from ghillie.cli.new import new
from ghillie.cli.odds import odds_command
from ghillie.cli.serve import serve

app = typer.Typer(
    name="ghillie",
    help="A neutral referee for hidden units in wargames.",
    no_args_is_help=True,
    add_completion=False,
)
odds_app = typer.Typer(help="Exact odds of every check that involves dice.", no_args_is_help=True)
app.add_typer(odds_app, name="odds")
app.command()(new)
app.command()(demo)
app.command()(audit)
app.command()(replay)
app.command()(serve)


@app.command()
def rulesets(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the registered rulesets and their bundled examples (``ghillie new <example>``)."""
    rows: list[dict[str, Any]] = [
        {
            "id": r.id,
            "title": r.title,
            "summary": r.summary,
            "modes": list(r.map_modes),
            "examples": examples.of(r.id),
            "commands": list(r.commands),
            "odds": list(r.odds_queries),
        }
        for r in registry.rulesets().values()
    ]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    # Names whole, one a line: each is a word to type after 'ghillie new' or 'ghillie odds'.
    # Only the titles wrap, so that the table fits 80 columns.
    table = Table(
        title="Rulesets",
        caption="'ghillie new <example>' creates a game of one on a running server.",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )

    def whole(column: str, names: list[str]) -> None:
        table.add_column(column, min_width=max(map(len, names), default=1), no_wrap=True)

    whole("id", [row["id"] for row in rows])
    table.add_column("title", min_width=10, overflow="fold")
    whole("modes", [m for row in rows for m in row["modes"]])
    whole("examples", [n for row in rows for n in row["examples"]])
    whole("odds", [q for row in rows for q in row["odds"]])
    for row in rows:
        table.add_row(
            row["id"],
            row["title"],
            *("\n".join(row[key]) or "—" for key in ("modes", "examples", "odds")),
        )
    Console().print(table)


def _register_odds() -> None:
    for ruleset in registry.rulesets().values():
        if not ruleset.odds_queries:
            odds_app.command(ruleset.id, help=f"{ruleset.id} rolls no dice.")(_no_dice(ruleset.id))
            continue
        sub = typer.Typer(help=f"Odds for {ruleset.id}: {ruleset.title}", no_args_is_help=True)
        for query in ruleset.odds_queries.values():
            sub.command(query.name, help=query.help)(odds_command(ruleset, query))
        odds_app.add_typer(sub, name=ruleset.id)


def _no_dice(ruleset_id: str) -> Callable[[], None]:
    def command() -> None:
        typer.echo(
            f"{ruleset_id} makes no dice rolls: its rulings are certain, so there are no odds."
        )

    return command


_register_odds()


def main() -> None:
    app()


__all__ = ["app", "main"]
