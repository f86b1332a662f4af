"""``ghillie odds <ruleset> <check> --param value ...``: exact odds, as fractions and percents.

Each odds command is generated from the query's parameter model, so the options are the
same words the ruleset uses, and the check computed is the very one the rules roll.
"""

from __future__ import annotations

import enum
import inspect
import json
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table

from ghillie.dice.check import percent
from ghillie.errors import ScenarioError
from ghillie.game import load_scenario
from ghillie.ruleset import OddsQuery, Ruleset

console = Console()


def _cli_type(annotation: Any) -> Any:
    """The plain type typer should parse an option as (str for validated strings)."""
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if isinstance(annotation, type) and issubclass(
        annotation, bool | int | float | str | enum.Enum
    ):
        return annotation
    return str


def odds_command(ruleset: Ruleset[Any, Any], query: OddsQuery) -> Callable[..., None]:
    fields = query.params.model_fields
    parameters = []
    for name, field in fields.items():
        kind = _cli_type(field.annotation)
        required = field.is_required()
        option = typer.Option(
            ... if required else field.default,
            f"--{name.replace('_', '-')}",
            help=field.description,
        )
        parameters.append(
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
        )
    parameters.append(
        inspect.Parameter(
            "as_json",
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(False, "--json", help="Print JSON instead of a table."),
            annotation=bool,
        )
    )
    parameters.append(
        inspect.Parameter(
            "scenario",
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(
                None, "--scenario", help="Take the rule switches from this scenario file."
            ),
            annotation=typing.Optional[Path],  # noqa: UP045 - typer reads this form
        )
    )

    if query.plot is not None:
        parameters.append(
            inspect.Parameter(
                "plot",
                inspect.Parameter.KEYWORD_ONLY,
                default=typer.Option(None, "--plot", help="Also draw a chart to this file."),
                annotation=typing.Optional[Path],  # noqa: UP045 - typer reads this form
            )
        )

    def command(**kwargs: Any) -> None:
        as_json = kwargs.pop("as_json")
        scenario_path = kwargs.pop("scenario")
        chart = kwargs.pop("plot", None)
        try:
            params = query.params.model_validate(kwargs)
        except ValidationError as exc:
            problems = "; ".join(
                f"--{'.'.join(map(str, e['loc'])).replace('_', '-')}: {e['msg']}"
                for e in exc.errors()
            )
            raise typer.BadParameter(problems) from None
        switches = ruleset.scenario_model.model_fields["switches"].annotation()  # type: ignore[misc]
        if scenario_path is not None:
            try:
                scenario = load_scenario(scenario_path)
            except ScenarioError as exc:
                raise typer.BadParameter(str(exc)) from None
            if scenario.ruleset != ruleset.id:
                raise typer.BadParameter(
                    f"that scenario is for {scenario.ruleset}, not {ruleset.id}"
                )
            switches = scenario.switches
        check = query.check(params, switches)
        report(ruleset, query, params.model_dump(mode="json"), check.dice, check.odds(), as_json)
        if chart is not None and query.plot is not None:
            written = query.plot(chart, params, switches)
            if not as_json:
                typer.echo(f"Chart written to {written}.")

    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__name__ = query.name.replace("-", "_")
    command.__doc__ = query.help
    return command


def report(
    ruleset: Ruleset[Any, Any],
    query: OddsQuery,
    params: dict[str, Any],
    dice: tuple[tuple[str, Any], ...],
    odds: dict[Any, Any],
    as_json: bool,
) -> None:
    rows: list[dict[str, Any]] = [
        {
            "outcome": str(outcome),
            "label": query.labels.get(str(outcome), str(outcome)),
            "probability": str(p),
            "percent": float(p) * 100,
        }
        for outcome, p in odds.items()
    ]
    if as_json:
        out = {
            "ruleset": ruleset.id,
            "check": query.name,
            "params": params,
            "dice": {label: str(die) for label, die in dice},
            "outcomes": rows,
        }
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    rolled = ", ".join(f"{label} {die}" for label, die in dice)
    table = Table(title=f"{ruleset.id} {query.name}: {rolled}")
    table.add_column("outcome")
    table.add_column("exact", justify="right")
    table.add_column("percent", justify="right")
    for row, p in zip(rows, odds.values(), strict=True):
        table.add_row(row["label"], row["probability"], percent(p))
    console.print(table)
