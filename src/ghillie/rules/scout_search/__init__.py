"""Scout search: a toy of hidden movement on a 6x6 grid of squares. The scouts hide one
Scout and move it a square at a time in secret; the hunters search a square a turn and may
hear it next door. It has no RULES-SPEC section: it is the checklist's worked example
(docs/adding-a-ruleset.md)."""
