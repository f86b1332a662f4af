"""The demo of ambush-fire, the dragons' teeth: three standing orders carried out during the
Soviet move with no prompt — Challenge Fire at the gap that stops a tank column, Ambush
Fire from the hedgerow that reveals units of both sides and is answered by return fire and
a retreat, and an Ambush Close Combat that fails to make contact — then the fire phase.

Places are inches from the table's top-left corner at 25 m to the inch (the map draws the
same table); distances in the orders are metres of ground."""

from __future__ import annotations

from ghillie.demo import Script, Step

GERMANS, SOVIETS = "germans", "soviets"

SCRIPT = Script(
    ruleset="ambush-fire",
    scenario="ambush-fire",
    seed=14,
    # The rolls in the order the rules make them (d100): the PaK's Challenge Fire hits and
    # the lead tank's reply misses; the grenadiers' Ambush Fire misses, and so does the
    # riflemen's return fire; in the fire phase the submachine gunners hit the pioneers,
    # and the second tank misses the PaK.
    dice=(23, 71, 77, 64, 31, 88),
    steps=(
        Step(
            GERMANS,
            {
                "type": "conceal",
                "units": [
                    {
                        "unit": "pak",
                        "at": [30.4, 19.2],
                        "facing": 130,
                        "note": "dug in at the edge of the wood",
                    },
                    {
                        "unit": "grenadiers",
                        "at": [50, 36],
                        "facing": 100,
                        "note": "in the hedgerow",
                    },
                    {
                        "unit": "pioneers",
                        "at": [48, 10],
                        "facing": 90,
                        "note": "in the ditch by the stream",
                    },
                ],
            },
            "The Germans record, in secret, where their three concealed units wait and which "
            "way each faces: the PaK toward the gap, the others east. The Soviets see none of "
            "it: concealed units are off the table, their facings as secret as their places.",
        ),
        Step(
            GERMANS,
            {
                "type": "ready",
                "orders": [
                    {
                        "unit": "pak",
                        "reaction": "challenge",
                        "trigger": {"zone": [[36, 22.4], [36, 25.6]], "target_class": "vehicle"},
                        "chance": 60,
                        "note": "the gap in the dragons' teeth",
                    },
                    {
                        "unit": "grenadiers",
                        "reaction": "ambush",
                        "trigger": {"within": 150},
                        "chance": 50,
                        "note": "let them come close",
                    },
                    {
                        "unit": "pioneers",
                        "reaction": "close_combat",
                        "trigger": {},
                        "chance": 50,
                        "note": "rush them with charges",
                    },
                ],
            },
            "The Germans are ready, and give their standing orders with it, in secret: the "
            "PaK 40 takes Challenge Fire at the first vehicle through the gap in the dragons' "
            "teeth; the grenadiers take Ambush Fire at the first enemy within 150 m; the "
            "pioneers dash out at the first enemy within their reach (half their running "
            "distance, 50 m on open ground). The Soviets learn only that the Germans are "
            "ready, not how many orders they gave.",
        ),
        Step(
            SOVIETS,
            {
                "type": "conceal",
                "units": [{"unit": "scouts", "at": [52, 38.4], "note": "lying low by the lane"}],
            },
            "The Soviet scouts are concealed too, in the same hedgerow, unknown to the Germans.",
        ),
        Step(SOVIETS, {"type": "ready"}, "Turn 1: the Germans move first."),
        Step(GERMANS, {"type": "end_step"}, "The Germans stay still, as their orders need."),
        Step(
            SOVIETS,
            {
                "type": "move",
                "units": [
                    {"unit": "t34_1", "path": [[28, 24]]},
                    {"unit": "t34_2", "path": [[30.4, 24]]},
                    {"unit": "t34_3", "path": [[32.8, 24]]},
                ],
            },
            "The tank column drives west, nose to tail, through the gap. ghillie walks the "
            "move and the PaK's order fires as the lead tank crosses: no one was asked.",
        ),
        Step(
            SOVIETS,
            {"type": "return_fire", "fire": True, "chance": 55},
            "The lead tank's turret, trained on the wood, has the PaK in its arc: it fires "
            "back at 20 less. Both shots "
            "together; the lead tank is destroyed, and the rest of the column stops.",
        ),
        Step(
            SOVIETS,
            {"type": "move", "units": [{"unit": "riflemen", "path": [[44, 40]]}]},
            "The riflemen advance past the hedgerow. The grenadiers' Ambush Fire: everything "
            "within 125 m of them is revealed, the Soviet scouts too.",
        ),
        Step(
            SOVIETS,
            {"type": "return_fire", "fire": True, "chance": 50},
            "The riflemen survived: they return fire at 10 less, at a target that was concealed.",
        ),
        Step(
            GERMANS,
            {"type": "retreat", "path": [[48.4, 36]]},
            "The grenadiers retreat 40 m away from the enemy; the riflemen's move goes on.",
        ),
        Step(
            SOVIETS,
            {"type": "move", "units": [{"unit": "smg", "path": [[49.4, 10.2]]}]},
            "The submachine gunners come down the far bank of the stream. The pioneers dash "
            "out as soon as their run across the ditch can reach them, but the stream stops "
            "them: they are left in the open.",
        ),
        Step(
            SOVIETS, {"type": "end_step"}, "The fire phase: the side that moved second fires first."
        ),
        Step(
            SOVIETS,
            {"type": "fire", "unit": "smg", "target": "pioneers", "chance": 60},
            "The pioneers are caught in the open: fired at at the full chance, since the "
            "defender was not surprised.",
        ),
        Step(
            SOVIETS,
            {"type": "fire", "unit": "t34_2", "target": "pak", "chance": 50},
            "The second tank fires at the PaK, revealed by its Challenge Fire.",
        ),
        Step(SOVIETS, {"type": "end_step"}, "The Germans fire."),
        Step(
            GERMANS,
            {"type": "fire", "unit": "pak", "target": "t34_2", "chance": 60},
            "The PaK tries to fire again: refused, a unit that took Challenge Fire may not "
            "fire until next turn.",
        ),
        Step(GERMANS, {"type": "end_step"}, "Turn 2."),
        Step(
            GERMANS,
            {"type": "turn", "units": [{"unit": "pak", "facing": 90}]},
            "The Germans move first: the PaK, revealed, is swung round to face the tanks. "
            "Everyone sees it turn; turning it is moving it, so it may not take Challenge "
            "Fire this turn or next.",
        ),
        Step(GERMANS, {"type": "end_game"}, "The game ends; every record can be audited."),
    ),
)
