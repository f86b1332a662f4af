"""ambush-fields: ambush and camouflage fields in a *Battlestar Galactica* hex fleet game.

RULES-SPEC §1 (BSG-*), being built (issue 5); registered, and covered by the contract tests.
The rules as pure functions: the scenario and its validation (:mod:`.scenario`,
BSG-R01..R03), the detection roll (:mod:`.detection`, BSG-R14) and its chart (:mod:`.plot`),
the field as an area and a barrier with the end-of-movement checks (:mod:`.fields`), the
scouts' EW, Identify and Mass Identify (:mod:`.scouting`), and the board with the turn
skeleton and each side's knowledge of each field (:mod:`.board`), on the hex geometry of
:mod:`ghillie.measure.hexes` and :mod:`ghillie.measure.arcs`. The game (:mod:`.ruleset`):
setup with hidden fleets, secret plots carried out together, the end-of-movement checks,
segment 7's secret scans, dropping a field, and the Combat Phase (:mod:`.combat`); carriers
launching and recovering fighters (:mod:`.hangar`), ships leaving the board and coming back
(:mod:`.movement`), and fugitives hiding once their pursuers are gone (:mod:`.fugitives`).
Still to come: the issue's browser game through three turns, and table mode's own flow.
"""
