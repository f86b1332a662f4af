"""``ghillie odds <ruleset> <check> --param value ...``: exact odds, as fractions and percents.

Each odds command is generated from the query's parameter model, so the options are the
same words the ruleset uses, and the check computed is the very one the rules roll. The
model refuses what cannot arise in a game (a d7, a range past the longest there is), and
the refusal is a usage error that says what does exist.
"""

from __future__ import annotations

import enum
import inspect
import json
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import annotated_types
import typer
from pydantic import ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ghillie.dice.check import Check, percent
from ghillie.errors import ScenarioError
from ghillie.game import load_scenario
from ghillie.ruleset import OddsQuery, Params, Ruleset

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


def _choices(annotation: Any) -> tuple[str, ...]:
    """The values a ``Literal`` field takes (a die: d4 … d12), to list in ``--help``.

    They are shown, not enforced by the command line: the model refuses anything else in the
    same words a scenario or the server would use."""
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) is typing.Literal:
        return tuple(str(value) for value in typing.get_args(annotation))
    return ()


def _option(name: str) -> str:
    return f"--{name.replace('_', '-')}"


def _bounds(field: FieldInfo) -> tuple[Any, Any]:
    low = high = None
    for rule in field.metadata:
        if isinstance(rule, annotated_types.Ge | annotated_types.Gt):
            low = getattr(rule, "ge", None) if isinstance(rule, annotated_types.Ge) else rule.gt
        if isinstance(rule, annotated_types.Le | annotated_types.Lt):
            high = getattr(rule, "le", None) if isinstance(rule, annotated_types.Le) else rule.lt
    return low, high


_BOUND_ERRORS = {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}


def problem(params: type[Params], error: ErrorDetails) -> tuple[str | None, str]:
    """One refused parameter in a player's words: its option (None if the refusal is of no
    one option), and what it may be."""
    name = str(error["loc"][0]) if error["loc"] else ""
    field = params.model_fields.get(name)
    option = _option(name) if field is not None else None
    if field is not None and error["type"] in _BOUND_ERRORS:
        low, high = _bounds(field)
        given = error.get("input")
        shown = f"{given:g}" if isinstance(given, int | float) else str(given)
        span = (
            f"from {low:g} to {high:g}"
            if low is not None and high is not None
            else f"at least {low:g}"
            if low is not None
            else f"at most {high:g}"
        )
        what = f" ({field.description})" if field.description else ""
        return option, f"{shown} is out of range: it runs {span}{what}"
    return option, error["msg"]


def refusal(params: type[Params], exc: ValidationError) -> typer.BadParameter:
    """The usage error (exit code 2) for parameters the model refused."""
    refused = [problem(params, e) for e in exc.errors(include_url=False)]
    if len(refused) == 1 and refused[0][0] is not None:
        option, message = refused[0]
        return typer.BadParameter(message, param_hint=f"'{option}'")
    return typer.BadParameter(
        "; ".join(f"{option}: {message}" if option else message for option, message in refused)
    )


def odds_command(ruleset: Ruleset[Any, Any], query: OddsQuery) -> Callable[..., None]:
    fields = query.params.model_fields
    parameters = []
    for name, field in fields.items():
        kind = _cli_type(field.annotation)
        required = field.is_required()
        choices = _choices(field.annotation)
        option = typer.Option(
            ... if required else field.default,
            _option(name),
            help=field.description,
            metavar=f"<{'|'.join(choices)}>" if choices else None,
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
                default=typer.Option(
                    None,
                    "--plot",
                    help="Also draw a chart to this file: these odds across the range, "
                    "everything else as given.",
                ),
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
            raise refusal(query.params, exc) from None
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
        report(ruleset, query, params, check, as_json)
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
    params: Params,
    check: Check[Any],
    as_json: bool,
) -> None:
    """The odds as a table (or JSON): a title in players' words, a row per outcome labelled
    as the query labels it, and the rules followed on a line of their own."""
    odds = check.odds()
    title = query.title(params, check)
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
            "title": title,
            "rules": query.rules,
            "params": params.model_dump(mode="json"),
            "dice": {label: str(die) for label, die in check.dice},
            "outcomes": rows,
        }
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    # The title on a line of its own: as a table's title it would wrap to the table's width.
    table = Table()
    table.add_column("outcome")
    table.add_column("exact", justify="right")
    table.add_column("percent", justify="right")
    for row, p in zip(rows, odds.values(), strict=True):
        table.add_row(row["label"], row["probability"], percent(p))
    console.print(Text(title, style="bold"))
    console.print(table)
    console.print(Text(f"rules: {query.rules}", style="dim"))
