"""The demo of grid-ambush: Sgt. Graw's patrol in square D2 and a Space Marine auspex."""

from __future__ import annotations

from ghillie.demo import Script, Step

TACTICAL_IN_D2 = [
    [42, 21], [40, 27], [44, 27], [38, 27], [46, 27],
    [40, 29], [42, 29], [44, 29], [38, 29], [46, 29],
]  # fmt: skip
GRAW_IN_THE_JUNGLE = [
    [38, 15], [39.5, 15], [41, 15], [37, 13], [38.5, 13],
    [40, 13], [41.5, 13], [43, 13], [36, 11], [37.5, 11],
]  # fmt: skip

SCRIPT = Script(
    ruleset="grid-ambush",
    scenario="grid-ambush",
    seed=11,
    steps=(
        Step(
            "jungle",
            {
                "type": "record_ambushes",
                "orders": [
                    {
                        "text": "Patrol led by Sgt. Graw setting up ambush in square D2",
                        "note": "Graw waits by the fallen tree",
                    },
                    {"unit": "marbo", "square": "B2", "note": "Marbo in the creepers"},
                ],
            },
            "Before the armies deploy, the Deathworld Veterans write their ambush orders: "
            "Sgt. Graw's patrol in D2, Marbo in B2. The Marines learn only that orders exist.",
        ),
        Step("jungle", {"type": "ready"}, "The Deathworld Veterans are set up."),
        Step("marines", {"type": "ready"}, "The Marines are set up: turn 1 begins."),
        Step("jungle", {"type": "end_phase"}, "The Veterans reveal nothing and move on."),
        Step("jungle", {"type": "end_phase"}, "No shooting."),
        Step("jungle", {"type": "end_phase"}, "No assaults: the Marines' turn."),
        Step(
            "marines",
            {"type": "move", "unit": "tactical", "models": TACTICAL_IN_D2},
            "Sergeant Arvin leads his squad forward; he stands in D2. Walking through a square "
            "never finds an ambush.",
        ),
        Step("marines", {"type": "end_phase"}, "Shooting phase."),
        Step(
            "marines",
            {"type": "scan", "unit": "tactical", "model": 0},
            "At the start of the shooting phase the sergeant's auspex scans D2 — and finds "
            "Sgt. Graw's patrol, which must be set up at once.",
        ),
        Step(
            "jungle",
            {"type": "set_up", "unit": "graw", "models": GRAW_IN_THE_JUNGLE},
            'The Veterans set the patrol up in the jungle of D2, at least 1" from the '
            "Marines, in coherency, at least half in the square.",
        ),
        Step(
            "marines",
            {"type": "fire", "unit": "tactical", "weapon": "pistol", "models": [0]},
            "The sergeant cannot fire: he scanned this phase.",
        ),
        Step(
            "marines",
            {"type": "fire", "unit": "tactical", "weapon": "rapid_fire", "models": [1, 2, 3, 4]},
            "His squad-mates may.",
        ),
        Step("marines", {"type": "end_phase"}, "Assault phase."),
        Step("marines", {"type": "end_phase"}, "Turn 2: the Veterans."),
        Step(
            "jungle",
            {"type": "reveal", "unit": "marbo"},
            "At the beginning of their own turn the Veterans reveal Marbo in B2.",
        ),
        Step(
            "jungle",
            {"type": "set_up", "unit": "marbo", "models": [[20, 12.5]]},
            "A slip: Marbo is put on the open ground just outside the creepers. The set-up "
            "is refused, with the reason and a spot that would do; nothing is removed.",
        ),
        Step(
            "jungle",
            {"type": "set_up", "unit": "marbo", "models": [[16, 20]]},
            "Marbo is set up in the creepers of B2.",
        ),
        Step(
            "jungle",
            {"type": "move", "unit": "marbo", "models": [[20, 24]]},
            "A unit cannot move in the turn it is revealed.",
        ),
        Step("jungle", {"type": "end_phase"}, "Shooting phase."),
        Step(
            "jungle",
            {"type": "fire", "unit": "graw", "weapon": "heavy"},
            "Graw's patrol has not moved, so its heavy bolters fire.",
        ),
        Step(
            "jungle",
            {"type": "fire", "unit": "marbo", "weapon": "pistol"},
            "Marbo, revealed this turn, fires his ripper pistol as if he had not moved.",
        ),
        Step("jungle", {"type": "end_phase"}, "Assault phase."),
        Step(
            "jungle",
            {"type": "assault", "unit": "marbo"},
            "Having fired only a pistol, Marbo may assault.",
        ),
        Step(
            "jungle",
            {"type": "assault", "unit": "graw"},
            "Graw's patrol fired heavy weapons and may not.",
        ),
    ),
)
