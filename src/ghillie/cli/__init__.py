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
from rich.markup import escape
from rich.table import Table

from ghillie import examples, registry
from ghillie.cli.audit import audit, replay
from ghillie.cli.demo import demo
from ghillie.cli.new import new
from ghillie.cli.odds import odds_command
from ghillie.server.limits import Limits

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

console = Console()


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


@app.command()
def serve(
    host: Annotated[
        str | None,
        typer.Option(
            help="Address to listen on: 127.0.0.1 (this computer only) unless given; "
            "0.0.0.0 is every interface, as with --lan.",
            show_default=False,
        ),
    ] = None,
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    lan: Annotated[
        bool,
        typer.Option(
            "--lan",
            help="Let phones on this network play: listen on every interface and build every "
            "link and QR code from this computer's network address (printed, with a QR code).",
        ),
    ] = False,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address players open, such as https://ghillie.example.org/ behind a "
            "reverse proxy: every link and QR code is built from it.",
            show_default=False,
        ),
    ] = None,
    db: Annotated[str, typer.Option(help="SQLite file, or a postgresql://… URL.")] = "ghillie.db",
    create_burst: Annotated[
        int, typer.Option(help="Games one client address may create at once...")
    ] = Limits.create_burst,
    create_per_minute: Annotated[
        float, typer.Option(help="...and per minute after that.")
    ] = Limits.create_per_minute,
    create_burst_all: Annotated[
        int, typer.Option(help="Games all clients together may create at once...")
    ] = Limits.create_burst_all,
    create_per_minute_all: Annotated[
        float, typer.Option(help="...and per minute after that.")
    ] = Limits.create_per_minute_all,
    max_games: Annotated[
        int, typer.Option(help="Games kept in memory; idle ones beyond it reload when asked.")
    ] = Limits.max_games,
    idle_seconds: Annotated[
        float, typer.Option(help="Seconds unused after which an idle game leaves memory.")
    ] = Limits.idle_seconds,
    max_scenario: Annotated[
        int, typer.Option(help="Bytes a game creation request (its scenario) may have.")
    ] = Limits.max_scenario,
    header_seconds: Annotated[
        float, typer.Option(help="Seconds a client has to send a request's headers.")
    ] = Limits.header_seconds,
    body_seconds: Annotated[
        float, typer.Option(help="Seconds a client then has to send the request's body.")
    ] = Limits.body_seconds,
    max_connections: Annotated[
        int, typer.Option(help="Connections and requests at once; beyond, 503.")
    ] = Limits.max_connections,
) -> None:
    """Start the referee server: a private link per side, live on each player's phone."""
    from ghillie.server.lan import ALL_INTERFACES, checked_public_url
    from ghillie.server.run import run

    if lan and host is not None and host not in ALL_INTERFACES:
        console.print(
            f"[red]--lan listens on every interface: leave out --host {escape(host)}.[/red]",
            highlight=False,
        )
        raise typer.Exit(2)
    if public_url is not None:
        try:
            public_url = checked_public_url(public_url)
        except ValueError as exc:
            console.print(f"[red]--public-url:[/red] {escape(str(exc))}", highlight=False)
            raise typer.Exit(2) from None

    limits = Limits(
        create_burst=create_burst,
        create_per_minute=create_per_minute,
        create_burst_all=create_burst_all,
        create_per_minute_all=create_per_minute_all,
        max_games=max_games,
        idle_seconds=idle_seconds,
        max_scenario=max_scenario,
        header_seconds=header_seconds,
        body_seconds=body_seconds,
        max_connections=max_connections,
    )
    listen = "0.0.0.0" if lan and host is None else host or "127.0.0.1"
    raise typer.Exit(run(listen, port, db, limits, public_url))


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
