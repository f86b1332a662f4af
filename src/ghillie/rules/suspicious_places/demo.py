"""The demo of suspicious-places: the rule text's own worked example, then a sniper.

"Сержант «регулярных» (к8) армейцев Кено с подозрением смотрит на группу деревьев в 30
дюймах перед ним." — a Keno sergeant looks suspiciously at a group of trees 30 inches ahead.
The dice are the text's: the target rolls 6, the observer 1 and 7 (flipped); then 3 against
4 and 5 (the machine-gun position is revealed).
"""

from __future__ import annotations

from ghillie.demo import Script, Step

AT_THE_TREES = {"range": 30, "line_of_sight": True}

SCRIPT = Script(
    ruleset="suspicious-places",
    scenario="suspicious-places-table",
    seed=7,
    dice=(
        3,  # Lianra rolls d6 suspicious-place markers for the machine-gun team
        6,
        7,
        1,  # observation 1: target d10 shows 6; the sergeant's d8 shows 7, his eyes' d4 1
        3,
        5,
        4,  # observation 2: target 3; d8 5 and d4 4
        4,
        6,
        9,  # the machine gun fires: target d10 4; quality d8 6; weapon d10 9
        6,
        3,  # the sniper's covert move: quality d8 6 against leadership d6 3
        2,
        1,
        7,  # the sniper fires: target d6 2; quality d8 1 (he gives himself away); weapon 7
        4,  # which of the six Keno models the sniper's hit falls on
    ),
    steps=(
        Step(
            "lianra",
            {
                "type": "place_markers",
                "markers": [
                    {"cover": "soft", "open": False},
                    {"cover": "hard", "open": False},
                    {"cover": "none", "open": True},
                ],
            },
            "Lianra lays out the three suspicious-place markers it rolled: M1 in a group of "
            "trees (soft cover), M2 in a ruin (hard cover), M3 in the open.",
        ),
        Step(
            "lianra",
            {
                "type": "hide",
                "hidings": [
                    {"marker": "M1", "unit": "mg", "note": "MG nest behind the birches"},
                    {"marker": "M2", "content": "mine", "note": "mined ruin"},
                ],
            },
            "In secret, Lianra records what lies under each marker: the machine-gun position "
            "under M1, a minefield under M2, nothing under M3. Keno learns only that it was done.",
        ),
        Step(
            "lianra",
            {"type": "place_sniper", "sniper": "sniper", "true_marker": 1, "note": "church roof"},
            "Lianra's sniper is not placed: three sniper markers are, and only Lianra knows "
            "which one is true.",
        ),
        Step("keno", {"type": "ready"}, "Keno is ready."),
        Step("lianra", {"type": "ready"}, "Lianra is ready: turn 1, Keno activates first."),
        Step(
            "keno",
            {"type": "activate", "unit": "sergeant"},
            "The sergeant halts his men: two actions.",
        ),
        Step(
            "keno",
            {"type": "observe", "marker": "M1", "measured": AT_THE_TREES},
            'He observes the trees 30" ahead (zone 3, d8; the wood is soft cover: d10) with '
            "the naked eye (d4) and his d8. The target rolls 6 in secret; he rolls 1 and 7: "
            "the marker is flipped — someone is there!",
        ),
        Step(
            "keno",
            {"type": "observe", "marker": "M1", "measured": AT_THE_TREES},
            "His second action: the target rolls 3, he rolls 4 and 5. The machine-gun position "
            "is revealed and placed where the marker was.",
        ),
        Step(
            "keno",
            {"type": "observe", "marker": "M2", "measured": AT_THE_TREES},
            "A third observation is refused: he has no actions left.",
        ),
        Step("keno", {"type": "end_activation"}, "Keno ends the sergeant's activation."),
        Step("lianra", {"type": "activate", "unit": "mg"}, "The machine gun activates."),
        Step(
            "lianra",
            {
                "type": "fire",
                "target": "sergeant",
                "measured": {"range": 30, "line_of_sight": True, "cover": "none"},
            },
            "It fires at the sergeant's squad in the open: both dice beat the range die. The "
            "host game's rules apply the hits.",
        ),
        Step("lianra", {"type": "end_activation"}, "Lianra ends the activation."),
        Step("keno", {"type": "pass"}, "Keno has nothing left to activate this turn and passes."),
        Step("lianra", {"type": "activate", "unit": "sniper"}, "Lianra's hidden sniper activates."),
        Step(
            "lianra",
            {"type": "covert_move", "to": "S3"},
            "He tries to slip to another of his markers: his d8 (6) beats his leadership d6 "
            "(3). Keno sees the roll but never learns whether he moved.",
        ),
        Step(
            "lianra",
            {
                "type": "fire",
                "target": "sergeant",
                "measured": {"range": 24, "line_of_sight": True, "cover": "none"},
            },
            'He fires from his true marker (range measured from there in secret): 16" zones '
            "for a d8 sniper, so d6. His quality die shows 1 — he gives himself away and is "
            "placed on the table — but his weapon die still hits one random model.",
        ),
        Step("lianra", {"type": "end_activation"}, "Lianra ends the activation."),
    ),
)
