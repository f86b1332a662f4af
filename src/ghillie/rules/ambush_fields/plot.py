"""A chart of the detection odds (BSG-R14): the chance to locate a field against range.

One panel for capital ships and one for fighters and shuttles; a line for each field rating
1, 2, 3; solid for located, dashed for located or partial. matplotlib is imported only when a
chart is drawn, so that importing ghillie stays fast, and only its Agg canvas is used: no
display, no pyplot state.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from .detection import MAX_RANGE, RATINGS, odds

RANGES = tuple(range(1, MAX_RANGE + 2))  # 1..21: one column past the last band shows "no roll"


def detection_curves(
    *,
    fighter: bool,
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
    for rating in RATINGS:
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
    flag: bool = False,
    partial: bool = False,
    speed: int = 0,
    scout_points: int = 0,
    cap_detection_mods: bool = False,
    with_partial: bool = True,
) -> Path:
    """Draw the detection chart to ``path`` (the format follows its suffix, e.g. ``.png``).

    Returns the path written. Raises ``ValueError`` for modifiers :func:`.detection.modifiers`
    refuses.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter

    figure = Figure(figsize=(10, 4.2), layout="constrained")
    FigureCanvasAgg(figure)
    panels = figure.subplots(1, 2, sharey=True)
    for axes, fighter, title in (
        (panels[0], False, "Capital ships (and patrol boats, scouts, civilians)"),
        (panels[1], True, "Fighters and shuttles"),
    ):
        curves = detection_curves(
            fighter=fighter,
            flag=flag,
            partial=partial,
            speed=speed,
            scout_points=scout_points,
            cap_detection_mods=cap_detection_mods,
        )
        for (rating, (located, either)), colour in zip(
            curves.items(), ("tab:blue", "tab:orange", "tab:red"), strict=True
        ):
            axes.plot(
                RANGES,
                [float(p) for p in located],
                color=colour,
                marker="o",
                markersize=3,
                drawstyle="steps-mid",
                label=f"R={rating} located",
            )
            if with_partial:
                axes.plot(
                    RANGES,
                    [float(p) for p in either],
                    color=colour,
                    linestyle="--",
                    drawstyle="steps-mid",
                    label=f"R={rating} located or partial",
                )
        axes.set_title(title)
        axes.set_xlabel("range to the field's nearest hex (hexes)")
        axes.set_xticks(RANGES[::2])
        axes.set_ylim(0, 1)
        axes.grid(alpha=0.3)
    panels[0].set_ylabel("chance")
    panels[0].yaxis.set_major_formatter(PercentFormatter(1.0))
    panels[1].legend(fontsize="small")
    others = _describe(
        flag=flag,
        partial=partial,
        speed=speed,
        scout_points=scout_points,
        cap_detection_mods=cap_detection_mods,
    )
    figure.suptitle(f"Detection roll (BSG-R14): 2d6 + R + mods ≤ N; {others}")
    target = Path(path)
    figure.savefig(target)
    return target


def _describe(
    *, flag: bool, partial: bool, speed: int, scout_points: int, cap_detection_mods: bool
) -> str:
    words = [
        "flag" if flag else "",
        "partial information" if partial else "",
        f"controller speed {speed}" if speed else "",
        f"{scout_points} scout points" if scout_points else "",
        "mods capped at ±3" if cap_detection_mods else "",
    ]
    return ", ".join(w for w in words if w) or "no other modifiers"
