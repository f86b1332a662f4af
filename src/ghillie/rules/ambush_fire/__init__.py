"""ambush-fire: Challenge Fire, Ambush Fire and Ambush Close Combat (RULES-SPEC §2, BMF-*).

The ruleset is ``ruleset.AmbushFire``; docs/rulesets.md tells its game, its switches and
every interpretation made beyond RULES-SPEC.
"""
