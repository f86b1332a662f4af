"""The demo of camouflage: the Caliban's surprise attack (RULES-SPEC INF-T01) and a delay
that was not declared (INF-R12), a Fireteam (INF-R08), a failed Discover and its lock-out, a
Discover that finds a marker, and the Caliban going back into Camouflaged State, leaving its
Fireteam."""

from __future__ import annotations

from ghillie.demo import Script, Step

SHOTGUN = {"weapon": "Boarding Shotgun", "burst": 2, "range_mod": 6, "ps": 6}
COMBI = {"weapon": "Combi Rifle", "burst": 1, "range_mod": 3, "ps": 5}
NONE = {"skill": "idle"}


def _quiet(side: str, skill: dict[str, object], caption: str, other: str) -> tuple[Step, ...]:
    """An Order whose AROs and second skill are nothing: four steps."""
    return (
        Step(side, skill, caption),
        Step(other, {"type": "aros", "aros": []}, "No ARO."),
        Step(side, {"type": "second_skill", "skill": NONE}, "The second skill: Idle."),
        Step(other, {"type": "aros", "aros": []}, "No ARO again."),
    )


SCRIPT = Script(
    ruleset="camouflage",
    scenario="camouflage-table",
    seed=13,
    steps=(
        Step(
            "nomads",
            {
                "type": "deploy",
                "markers": [
                    {"piece": "caliban", "note": "behind the crates by the door"},
                    {"piece": "zondbot", "note": "on the gantry"},
                    {"piece": "mine", "note": "in the corridor"},
                ],
            },
            "The Nomads lay out three Camouflaged Markers and record, in secret, which is the "
            "Caliban, which the Zondbot and which the mine. PanOceania sees three markers, "
            "each with its Silhouette and Mimetism only.",
        ),
        Step(
            "panoceania",
            {"type": "deploy", "markers": [{"piece": "croc_man", "note": "in the ruins"}]},
            "PanOceania lays out the Croc Man's marker: Player Turn 1, the Nomads.",
        ),
        Step(
            "nomads",
            {"type": "first_skill", "piece": "caliban", "skill": {"skill": "move"}},
            "The Caliban's marker declares Move toward a point in Cover.",
        ),
        Step(
            "panoceania",
            {"type": "aros", "aros": [{"piece": "fusilier", "aro": "delay"}]},
            "The Fusilier delays his ARO against the marker: he must say so.",
        ),
        Step(
            "nomads",
            {
                "type": "second_skill",
                "skill": {
                    "skill": "bs_attack",
                    "target": "fusilier",
                    "measured": {"range": 6, "cover": "none"},
                    "attack": SHOTGUN,
                },
            },
            "The Caliban declares BS Attack with his Boarding Shotgun from the Cover point: "
            "the Camouflaged State is cancelled for the whole Order, and the model replaces "
            "the marker.",
        ),
        Step(
            "panoceania",
            {
                "type": "aros",
                "aros": [
                    {
                        "piece": "fusilier_2",
                        "aro": "bs_attack",
                        "measured": {"range": 12, "cover": "none"},
                        "attack": COMBI,
                    }
                ],
            },
            "A slip: the Fusilier Lieutenant, who declared nothing after the first skill, "
            "shoots now the Caliban is revealed. Refused: a delay must be declared.",
        ),
        Step(
            "panoceania",
            {
                "type": "aros",
                "aros": [
                    {
                        "piece": "fusilier",
                        "aro": "bs_attack",
                        "measured": {"range": 10, "cover": "none"},
                        "attack": COMBI,
                    }
                ],
            },
            "The delayed ARO may now be a BS Attack: the Fusilier shoots at a point of the "
            'route before the Cover, measured on its own (10"), with no Cover for the Caliban.',
        ),
        Step(
            "nomads",
            {"type": "resolve_order", "rolls": {"dice": [5, 11]}},
            "A Face to Face Roll: the Nomads type in the Caliban's two dice, rolled at the "
            "table; the Fusilier's die is PanOceania's, and ghillie rolls it. The Caliban's 11 "
            "beats the Fusilier's 10, which cancels the Caliban's 5.",
        ),
        Step("panoceania", {"type": "saving_rolls"}, "The Fusilier's saving roll, by ghillie."),
        Step(
            "nomads",
            {"type": "fireteam", "team": "Nomad link", "members": ["caliban", "moran"]},
            "Revealed, the Caliban may now be part of a Fireteam: it forms one with the Moran.",
        ),
        Step("nomads", {"type": "end_turn"}, "Player Turn 2: PanOceania."),
        *_quiet(
            "panoceania",
            {
                "type": "first_skill",
                "piece": "fusilier_2",
                "skill": {
                    "skill": "discover",
                    "target": "M3",
                    "measured": {"range": 14, "cover": "soft"},
                },
            },
            "The Fusilier Lieutenant tries to Discover Marker 3.",
            "nomads",
        ),
        Step(
            "panoceania",
            {"type": "resolve_order", "rolls": {"dice": [17]}},
            "He fails: he cannot try Marker 3 again until the next Player Turn.",
        ),
        Step(
            "panoceania",
            {
                "type": "first_skill",
                "piece": "fusilier_2",
                "skill": {"skill": "discover", "target": "M3", "measured": {"range": 14}},
            },
            "A slip: he tries again at once, and is refused.",
        ),
        *_quiet(
            "panoceania",
            {
                "type": "first_skill",
                "piece": "seraph",
                "skill": {"skill": "discover", "target": "M3", "measured": {"range": 20}},
            },
            "The Seraph may: it Discovers Marker 3.",
            "nomads",
        ),
        Step(
            "panoceania",
            {"type": "resolve_order", "rolls": {"dice": [4]}},
            "Discovered: the model replaces the marker, with its complete Public Information.",
        ),
        Step("panoceania", {"type": "end_turn"}, "Player Turn 3: the Nomads."),
        Step(
            "nomads",
            {
                "type": "first_skill",
                "piece": "caliban",
                "skill": {"skill": "camouflage", "unseen": True},
            },
            "Out of every enemy's line of fire, the Caliban spends a Long Skill to go back "
            "into Camouflaged State.",
        ),
        Step("panoceania", {"type": "aros", "aros": []}, "No ARO."),
        Step(
            "nomads",
            {"type": "resolve_order"},
            "A new marker replaces the model: a new marker for any Discover lock-out. The "
            "Caliban leaves its Fireteam: a Camouflaged trooper cannot be part of one.",
        ),
        Step("nomads", {"type": "end_game"}, "The game ends: every marker's contents are shown."),
    ),
)
