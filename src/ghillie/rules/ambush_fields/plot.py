"""A chart of the detection odds (BSG-R14): the chance to locate a field against range.

A panel for each kind of detecting unit asked for (capital ships; fighters and shuttles) and a
line for each field rating asked for, every other modifier as given: solid for located,
dashed for located or partial. ``ghillie odds ambush-fields detect ... --plot`` asks for the
one unit and rating given, so only the range varies. matplotlib is imported only when a chart
is drawn, so that importing ghillie stays fast, and only its Agg canvas is used: no display,
no pyplot state.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from .detection import MAX_RANGE, RATINGS, conditions, detector, odds

if TYPE_CHECKING:
    from matplotlib.figure import Figure

RANGES = tuple(range(1, MAX_RANGE + 2))  # 1..21: one column past the last band shows "no roll"


def detection_curves(
    *,
    fighter: bool,
    ratings: Sequence[int] = RATINGS,
    flag: bool = False,
    partial: bool = False,
    speed: int = 0,
    scout_points: int = 0,
    cap_detection_mods: bool = False,
) -> dict[int, tuple[list[Fraction], list[Fraction]]]:
    """For each rating: P(located) and P(located or partial) at each range in :data:`RANGES`.

    ``scout_points`` are spent by the detecting scout on its own roll (BSG-A09).

    >>> located, either = detection_curves(fighter=False, flag=True, partial=True, speed=2)[2]
    >>> located[3], either[3]  # range 4: BSG-T03
    (Fraction(5, 12), Fraction(7, 12))
    """
    curves = {}
    for rating in ratings:
        located, either = [], []
        for range_hexes in RANGES:
            attempt = odds(
                range_hexes,
                rating,
                fighter=fighter,
                flag=flag,
                scout=scout_points > 0,
                scout_points=scout_points,
                partial=partial,
                speed=speed,
                cap_detection_mods=cap_detection_mods,
            )
            located.append(attempt.located)
            either.append(attempt.located + attempt.partial)
        curves[rating] = (located, either)
    return curves


def plot_detection(
    path: str | Path,
    *,
    ratings: Sequence[int] = RATINGS,
    fighters: Sequence[bool] = (False, True),
    flag: bool = False,
    partial: bool = False,
    speed: int = 0,
    scout_points: int = 0,
    cap_detection_mods: bool = False,
    with_partial: bool = True,
    mark: int | None = None,
) -> Path:
    """Draw the detection chart to ``path`` (the format follows its suffix, e.g. ``.png``).

    Returns the path written. Raises ``ValueError`` for modifiers :func:`.detection.modifiers`
    refuses.
    """
    figure = detection_figure(
        ratings=ratings,
        fighters=fighters,
        flag=flag,
        partial=partial,
        speed=speed,
        scout_points=scout_points,
        cap_detection_mods=cap_detection_mods,
        with_partial=with_partial,
        mark=mark,
    )
    target = Path(path)
    figure.savefig(target)
    return target


def detection_figure(
    *,
    ratings: Sequence[int] = RATINGS,
    fighters: Sequence[bool] = (False, True),
    flag: bool = False,
    partial: bool = False,
    speed: int = 0,
    scout_points: int = 0,
    cap_detection_mods: bool = False,
    with_partial: bool = True,
    mark: int | None = None,
) -> Figure:
    """The chart as a matplotlib figure: a panel per kind of unit in ``fighters``, a pair of
    lines per rating in ``ratings``; ``mark`` draws a line at the range a player asked about."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter

    figure = Figure(figsize=(5 + 5 * len(fighters), 4.2), layout="constrained")
    FigureCanvasAgg(figure)
    panels = figure.subplots(1, len(fighters), sharey=True, squeeze=False)[0]
    colours = dict(zip(RATINGS, ("tab:blue", "tab:orange", "tab:red"), strict=True))
    for axes, fighter in zip(panels, fighters, strict=True):
        curves = detection_curves(
            fighter=fighter,
            ratings=ratings,
            flag=flag,
            partial=partial,
            speed=speed,
            scout_points=scout_points,
            cap_detection_mods=cap_detection_mods,
        )
        for rating, (located, either) in curves.items():
            axes.plot(
                RANGES,
                [float(p) for p in located],
                color=colours[rating],
                marker="o",
                markersize=3,
                drawstyle="steps-mid",
                label=f"rating {rating}: located",
            )
            if with_partial:
                axes.plot(
                    RANGES,
                    [float(p) for p in either],
                    color=colours[rating],
                    linestyle="--",
                    drawstyle="steps-mid",
                    label=f"rating {rating}: located or partial information",
                )
        if mark is not None:
            axes.axvline(mark, color="grey", linewidth=1, linestyle=":", label=f"{mark} hexes")
        axes.set_title(
            "Fighters and shuttles"
            if fighter
            else (
                _scouts(scout_points)
                if scout_points
                else "Capital ships (and patrol boats, scouts, civilians)"
            )
        )
        axes.set_xlabel("range to the field's nearest hex (hexes)")
        axes.set_xticks(RANGES[::2])
        axes.set_ylim(0, 1)
        axes.grid(alpha=0.3)
    panels[0].set_ylabel("chance")
    panels[0].yaxis.set_major_formatter(PercentFormatter(1.0))
    panels[-1].legend(fontsize="small")
    others = conditions(
        flag=flag, partial=partial, speed=speed, cap_detection_mods=cap_detection_mods
    )
    heading = "Chance to find an ambush field, by range" + (
        f", against a rating {ratings[0]} field" if len(ratings) == 1 else ""
    )
    modifiers = textwrap.fill(", ".join(others) or "no other modifiers", width=100)
    figure.suptitle(f"{heading}\n{modifiers}")
    return figure


def _scouts(scout_points: int) -> str:
    who = detector(False, scout_points)
    return who[0].upper() + who[1:]
