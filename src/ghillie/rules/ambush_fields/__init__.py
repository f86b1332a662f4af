"""ambush-fields: ambush and camouflage fields in a *Battlestar Galactica* hex fleet game.

RULES-SPEC §1 (BSG-*). This ruleset is being built (issue 5) and is **not registered** in
:mod:`ghillie.registry` yet: the contract tests run over every registered ruleset. So far it
has the detection roll (:mod:`.detection`, BSG-R14) and its chart (:mod:`.plot`).
"""
