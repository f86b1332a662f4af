"""Geometry, whoever measures: the tabletop in inches (cover, line of sight, ranges), grid
squares, hexes and their arcs. Plain geometry that knows no game; the rules ask
:mod:`ghillie.measuring` for a range or a cover, which measures here on a map."""
