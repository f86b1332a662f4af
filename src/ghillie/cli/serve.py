"""``ghillie serve``: where to listen and where players open it, and every limit of
:class:`~ghillie.server.limits.Limits` as a flag of the same name."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from ghillie.server.limits import Limits

console = Console()


def with_limits(command: Callable[..., None]) -> Callable[..., None]:
    """``command`` with a flag for each of the server's limits, made from the fields of
    :class:`Limits` (their names, types, defaults and descriptions), and called with them
    gathered into its ``limits`` argument."""
    flags = Limits.flags()
    own = inspect.signature(command, eval_str=True)
    options = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=Annotated[field.annotation, typer.Option(help=field.description)],
            default=field.default,
        )
        for name, field in flags.items()
    ]

    def limited(**given: Any) -> None:
        limits = Limits(**{name: given.pop(name) for name in flags})
        command(**given, limits=limits)

    kept = [p for p in own.parameters.values() if p.name != "limits"]
    limited.__signature__ = own.replace(parameters=[*kept, *options])  # type: ignore[attr-defined]
    limited.__name__, limited.__doc__ = command.__name__, command.__doc__
    return limited


@with_limits
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
    internal_url: Annotated[
        str | None,
        typer.Option(
            help="With several processes on one PostgreSQL database: the address the others "
            "reach this one at, to relay a game's requests to the process that rules it "
            "(default: the address it listens on).",
            show_default=False,
        ),
    ] = None,
    *,
    limits: Limits,
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
    listen = "0.0.0.0" if lan and host is None else host or "127.0.0.1"
    raise typer.Exit(run(listen, port, db, limits, public_url, internal_url))
