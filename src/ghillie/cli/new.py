"""``ghillie new``: create a game on a running server from a bundled example or a scenario
file, and print each side's private link, whole, with its QR code. A scenario that breaks
the rules is refused here, with the reason, before anything is sent."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from ghillie import examples
from ghillie.errors import ScenarioError
from ghillie.game import load_scenario
from ghillie.server.lan import print_qr
from ghillie.state import REFEREE, SPECTATOR


def _body(scenario: str, chains: str) -> dict[str, Any]:
    """The request for a bundled example's name or a scenario file's path; ScenarioError if
    the scenario is not a valid one."""
    # The CLI draws each link's QR code itself (or none, --no-qr): the server need not.
    if scenario in examples.names():
        return {"scenario": scenario, "chains": chains, "qr": False}
    path = Path(scenario)
    if not path.is_file():
        names = ", ".join(examples.names())
        raise ScenarioError(f"{scenario!r} is neither a scenario file nor an example ({names})")
    load_scenario(path)  # refuses what breaks the rules, naming the rule
    return {"scenario_toml": path.read_text(encoding="utf-8"), "chains": chains, "qr": False}


def new(
    scenario: Annotated[str, typer.Argument(help="A bundled example's name or a .toml file.")],
    server: Annotated[str, typer.Option(help="The ghillie server's address.")] = (
        "http://127.0.0.1:8000"
    ),
    chains: Annotated[
        str,
        typer.Option(
            help="Who holds each side's dice chain: 'clients' (each side's page; nobody, the "
            "host included, can steer a roll) or 'host'."
        ),
    ] = "clients",
    as_json: Annotated[bool, typer.Option("--json", help="Print the server's answer.")] = False,
    qr: Annotated[bool, typer.Option("--qr/--no-qr", help="Print a QR code of each link.")] = True,
) -> None:
    """Create a game on a running server and print a private link for each side, each with
    its QR code."""
    console = Console()
    if chains not in ("clients", "host"):
        console.print("[red]--chains is 'clients' or 'host'.[/red]")
        raise typer.Exit(2)
    try:
        body = _body(scenario, chains)
    except ScenarioError as exc:
        console.print(f"[red]Refused:[/red] {exc}", markup=True, highlight=False)
        raise typer.Exit(2) from None
    request = urllib.request.Request(
        f"{server.rstrip('/')}/api/games",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            created = json.load(answer)
    except urllib.error.HTTPError as exc:
        problem = json.loads(exc.read() or b"{}")
        console.print(f"[red]Refused:[/red] {problem.get('detail', exc.reason)}", highlight=False)
        raise typer.Exit(2) from None
    except OSError as exc:
        console.print(
            f"[red]No ghillie server answers at {server}[/red] ({exc}). "
            "Start one with 'ghillie serve'.",
            highlight=False,
        )
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(created, ensure_ascii=False, indent=2))
        return
    show_links(Console(), created, qr=qr)


def show_links(console: Console, created: dict[str, Any], *, qr: bool = True) -> None:
    """Each side's private link on a line of its own, whole whatever the terminal's width
    (the terminal may wrap it, but copying it copies one unbroken string), under the side's
    name and the warning that it is that side's alone, with its QR code; then the table
    screen's, and the referee's last."""
    console.print(
        f"[bold]{escape(created['title'])}[/bold] ({escape(created['ruleset'])})",
        soft_wrap=True,
        highlight=False,
    )
    last = {SPECTATOR: 1, REFEREE: 2}
    links = sorted(created["links"], key=lambda link: last.get(link["observer"], 0))
    for link in links:
        console.print()
        name = escape(link["name"])
        if link["observer"] == REFEREE:
            heading = f"[bold]{name}[/bold]: sees every secret. For the host or an umpire only."
        elif link["observer"] == SPECTATOR:
            heading = (
                f"[bold]{name}[/bold]: shows no secrets. Open it on a tablet or TV that "
                "everyone at the table can see."
            )
        else:
            heading = (
                f"[bold]{name}[/bold]: private. Give this link or code to the player of "
                f"{name} only."
            )
        console.print(heading, soft_wrap=True, highlight=False)
        # Plain text, never wrapped nor cut by rich: the whole link, as one string.
        console.print(link["url"], soft_wrap=True, markup=False, highlight=False)
        if qr:
            print_qr(link["url"], console.file)
