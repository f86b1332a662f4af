"""The demo of ambush-fields: a basestar waits in its field; Galactica's fleet comes looking.

Turn 1, the basestar launches a Raider flight inside its field, unseen, while Galactica
launches Vipers in plain sight; Galactica's scan fails by one: partial information (the arc,
the base number).
Turn 2, with that −1, Raptor 312 locates the field; every ship in it shows as a counter.
Then Raptor identifies the basestar, Galactica fires into the field (+2 against her), the
basestar fires out (no modifier), and in turn 3 the Cylons drop the field.
"""

from __future__ import annotations

from ghillie.demo import Script, Step

BASESTAR = "26ddac12a61d1fab9865e58732e1e947"  # the basestar's piece id with the demo's seed
GALACTICA = "14a44e6f6b9382498bf3ad2812616a02"

CYLONS, COLONIALS = "cylons", "colonials"


def both_done(caption: str) -> tuple[Step, Step]:
    return (
        Step(CYLONS, {"type": "end_phase"}, "The Cylons are done with the phase."),
        Step(COLONIALS, {"type": "end_phase"}, caption),
    )


SCRIPT = Script(
    ruleset="ambush-fields",
    scenario="ambush-fields",
    seed=5,
    # Segment 7 of turn 1: Galactica's 2d6 (2, 3); turn 2: Galactica (6, 6), Raptor (1, 2).
    dice=(2, 3, 6, 6, 1, 2),
    steps=(
        Step(CYLONS, {"type": "ready"}, "The Cylons are ready: the basestar's field hides it."),
        Step(COLONIALS, {"type": "ready"}, "The Colonials are ready. Turn 1 begins."),
        *both_done("Nobody drops a field: on to the Movement Phase."),
        Step(
            COLONIALS,
            {"type": "scan", "ships": ["galactica"]},
            "Galactica's sensors pan actively this turn.",
        ),
        Step(
            COLONIALS,
            {"type": "plot", "moves": [{"ship": "galactica", "to": "1214", "speed": 3}]},
            "Galactica plots three hexes north.",
        ),
        Step(
            CYLONS,
            {
                "type": "plot",
                "moves": [
                    {
                        "ship": "eye",
                        "to": "1306",
                        "heading": "D",
                        "speed": 1,
                        "note": "Eye keeps Galactica on its scopes",
                    }
                ],
            },
            "In secret, the scout Eye shifts inside the field.",
        ),
        Step(
            CYLONS,
            {"type": "launch", "carrier": "basestar"},
            "Inside the field the basestar launches Raider wing 1: launching gives nothing "
            "away, and the flight is hidden too.",
        ),
        Step(
            COLONIALS,
            {"type": "launch", "carrier": "galactica"},
            "Galactica launches Viper wing 1 in the open: the Cylons see it appear at 1217.",
        ),
        *both_done(
            "Movement ends. At segment 7 ghillie rolls for Galactica in secret: 5 + 2 − 1 = 6 "
            "against 5, failed by one — partial information: the arc and the base number."
        ),
        *both_done("Combat: nothing to shoot at yet."),
        *both_done("Turn 2."),
        Step(
            COLONIALS,
            {"type": "scan", "ships": ["galactica", "raptor"]},
            "This turn Galactica and Raptor 312 scan, with the −1 of partial information.",
        ),
        Step(
            COLONIALS,
            {
                "type": "plot",
                "moves": [
                    {"ship": "galactica", "to": "1213", "speed": 1},
                    {"ship": "raptor", "to": "1013", "speed": 2},
                ],
            },
            "Galactica edges closer; Raptor 312 swings west.",
        ),
        *both_done(
            "Segment 7: Galactica rolls 12, no contact; Raptor rolls 3 — the field is "
            "located: its place, radius, rating, speed and heading, and a counter for every "
            "ship inside."
        ),
        Step(
            COLONIALS,
            {"type": "identify", "scout": "raptor", "target": BASESTAR, "points": 2},
            "Raptor 312 spends 2 scout points: enough for a rating 2 field — the counter at "
            "1206 is the basestar. (The Colonials are told that it worked, never the rating; "
            "the Cylons, who answer the attempt, are told of it.)",
        ),
        Step(
            COLONIALS,
            {"type": "fire", "ship": "galactica", "target": BASESTAR},
            "Galactica fires into the field: +2 against her, the field's rating.",
        ),
        Step(
            CYLONS,
            {"type": "fire", "ship": "basestar", "target": GALACTICA},
            "The basestar fires out of the field: no field modifier.",
        ),
        *both_done("Combat ends. Turn 3."),
        Step(
            CYLONS,
            {"type": "drop_field", "field": "veil"},
            "The Cylons drop the field: every ship in it is identified and on the board.",
        ),
        Step(COLONIALS, {"type": "end_game"}, "The Colonials end the game."),
    ),
)
