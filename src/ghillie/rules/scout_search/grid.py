"""The grid: six columns lettered A to F, six rows numbered 1 to 6, one inch a square."""

from __future__ import annotations

COLUMNS = "ABCDEF"
ROWS = 6
SQUARE = r"^[A-F][1-6]$"  # a square as a command writes it: "C4"
SQUARES = tuple(f"{c}{r}" for r in range(1, ROWS + 1) for c in COLUMNS)


def place(square: str) -> tuple[int, int]:
    """A square's column and row, from 0."""
    return COLUMNS.index(square[0]), int(square[1:]) - 1


def next_to(a: str, b: str) -> bool:
    """Do the squares share a side (one step along a row or a column)?"""
    (ax, ay), (bx, by) = place(a), place(b)
    return abs(ax - bx) + abs(ay - by) == 1


def neighbours(square: str) -> list[str]:
    return [s for s in SQUARES if next_to(square, s)]


def box(square: str) -> tuple[float, float, float, float]:
    """The square on the map, in inches: left, top, right, bottom."""
    x, y = place(square)
    return (float(x), float(y), float(x + 1), float(y + 1))


def centre(square: str) -> tuple[float, float]:
    x, y = place(square)
    return (x + 0.5, y + 0.5)
