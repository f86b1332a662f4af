"""ambush-fire: Challenge Fire, Ambush Fire and Ambush Close Combat (RULES-SPEC §2, BMF-*).

Work in progress (issue 14): not registered yet; docs/ambush-fire-plan.md is the plan.
"""
