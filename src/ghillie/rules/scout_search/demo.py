"""The scout-search demo: the Scout hides, steps, stays and is heard, then found."""

from ghillie.demo import Script, Step

S, H = "scouts", "hunters"

SCRIPT = Script(
    ruleset="scout-search",
    scenario="scout-search",
    steps=(
        Step(
            S,
            {"type": "hide", "square": "C3", "note": "in the hollow"},
            "The scouts hide the Scout at C3; the hunters are told only that it is hidden.",
        ),
        Step(S, {"type": "move", "square": "D3"}, "The Scout steps east to D3, in secret."),
        Step(
            H,
            {"type": "search", "hunter": "hunter", "square": "A1"},
            "The hunters search A1: empty, and too far to hear anything.",
        ),
        Step(
            S,
            {"type": "move", "square": "D3"},
            "The Scout stays put: the hunters read the same line.",
        ),
        Step(
            H,
            {"type": "search", "hunter": "hunter", "square": "D4"},
            "The hunters search D4, next to the Scout, and the die (a 6) hears it.",
        ),
        Step(S, {"type": "move", "square": "E3"}, "The Scout slips away east to E3."),
        Step(
            H,
            {"type": "search", "hunter": "hunter", "square": "E3"},
            "The hunters search E3 and find the Scout.",
        ),
    ),
    dice=(2, 6, 4),
    seed=1,
)
