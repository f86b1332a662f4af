"""ambush-fields: ambush and camouflage fields in a *Battlestar Galactica* hex fleet game.

RULES-SPEC §1 (BSG-*), being built (issue 5); registered, and covered by the contract tests.
The rules as pure functions: the scenario and its validation (:mod:`.scenario`,
BSG-R01..R03), the detection roll (:mod:`.detection`, BSG-R14) and its chart (:mod:`.plot`),
the field as an area and a barrier with the end-of-movement checks (:mod:`.fields`), the
scouts' EW, Identify and Mass Identify (:mod:`.scouting`), and the board with the turn
skeleton, each side's knowledge of each field and the typed changes to it (:mod:`.board`),
on the hex geometry of :mod:`ghillie.measure.hexes` and :mod:`ghillie.measure.arcs`. The
game, declared in :mod:`.ruleset`: setup with hidden fleets (:mod:`.setup`), who may act
when and each phase's end (:mod:`.turns`), secret plots and scans (:mod:`.movement_orders`)
carried out together with the end-of-movement checks and segment 7's secret scans
(:mod:`.movement`), dropping a field (:mod:`.dropping`), and the Combat Phase
(:mod:`.combat`); carriers launching and recovering fighters (:mod:`.hangar`), ships leaving
the board and coming back (:mod:`.movement`), and fugitives hiding once their pursuers are
gone (:mod:`.fugitives`); the board as each observer sees it, and its map (:mod:`.map`).
Still to come: the issue's browser game through three turns, and table mode's own flow.
"""
