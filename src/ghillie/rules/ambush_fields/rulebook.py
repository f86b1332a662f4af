# ruff: noqa: E501  (generated data: one rule's words to a line)
"""The rules of this ruleset by their RULES-SPEC ids (BSG-…): each rule's name and
one short line of its statement, for the § beside a log line or an order.

Written by scripts/rulebook from RULES-SPEC.md: edit the spec and run it again, not
this file. The words are the catalogues' like any other (scripts/catalogues)."""

from ghillie.words import N_

RULES: dict[str, tuple[str, str]] = {
    "BSG-R01": (
        N_("Fields exist only by scenario"),
        N_("Fields are created before the game only."),
    ),
    "BSG-R05": (
        N_("Hidden units"),
        N_(
            "A unit of the owning side is hidden from the opposing side if it is inside an active friendly field…"
        ),
    ),
    "BSG-R06": (
        N_("When hidden status is checked"),
        N_(
            "Containment is evaluated at the end of each Movement Phase; positions during the phase…"
        ),
    ),
    "BSG-R07": (
        N_("Actions that do not give a unit away"),
        N_("Moving; launching and recovering fighters; spending scout points within the limit."),
    ),
    "BSG-R08": (
        N_("EW limit"),
        N_(
            "If the total scout-point modifiers on a ship inside the field are strictly greater than R, that…"
        ),
    ),
    "BSG-R09": (
        N_("Giving yourself away"),
        N_(
            "Any other action, including firing weapons, makes the acting ship detected (not identified)."
        ),
    ),
    "BSG-R10": (
        N_("What a detected unit shows"),
        N_(
            "A face-down counter is placed at the true position and moves visibly like a normal ship."
        ),
    ),
    "BSG-R11": (
        N_("Leaving the field"),
        N_("Only units inside a field can be detected-but-unidentified."),
    ),
    "BSG-R12": (
        N_("Timing"),
        N_("All detection rolls happen in Movement Phase segment 7, before any missile is fired."),
    ),
    "BSG-R13": (
        N_("Who rolls and how often"),
        N_("Any ship of the opposing side may try; no ship has to."),
    ),
    "BSG-R14": (
        N_("The roll"),
        N_(
            "Let d = range in hexes from the detecting ship to the field (DEFAULT: nearest hex of the field)."
        ),
    ),
    "BSG-R15": (
        N_("Partial Information (failed by exactly 1)"),
        N_("The detecting side gets the PI flag for this field."),
    ),
    "BSG-R16": (
        N_("Automatic partial information"),
        N_(
            "Whenever any unit in a field appears on the map for any reason (gave itself away, left…"
        ),
    ),
    "BSG-R17": (
        N_("Success: the field is located"),
        N_(
            "The detecting side learns the field's exact position, its extent (radius), its strength…"
        ),
    ),
    "BSG-R18": (
        N_("Secrecy"),
        N_("The field owner (or the referee) makes all detection rolls in secret."),
    ),
    "BSG-R20": (
        N_("Attacking hidden units"),
        N_("Only detected or identified units may be attacked; hidden units cannot be targeted."),
    ),
    "BSG-R21": (
        N_("The field as a one-way barrier"),
        N_("Weapons fire and EW going from outside to inside a field get a modifier against the…"),
    ),
    "BSG-R22": (
        N_("Knowing is not bypassing"),
        N_(
            "Units outside still suffer R, even against located or identified targets, until they move…"
        ),
    ),
    "BSG-R23": (
        N_("Counter-EW"),
        N_(
            "A scout may spend points to cancel field penalties on individual targets, for example with ECCM."
        ),
    ),
    "BSG-R24": (
        N_("Identify (target effect)"),
        N_("The target must already be detected; the field does not need to be located."),
    ),
    "BSG-R25": (
        N_("Mass Identify (area effect)"),
        N_(
            "The field must already be located; normal EWE applies (host parameter); several scouts may…"
        ),
    ),
    "BSG-R26": (
        N_("Moving in"),
        N_("Any unit may move into an enemy field at no penalty."),
    ),
    "BSG-R27": (
        N_("Fugitive ships"),
        N_(
            "A ship of the owning side that is already identified when it enters its own side's field gets the…"
        ),
    ),
    "BSG-R28": (
        N_("Controller destroyed"),
        N_(
            'The field drops at Combat Phase segment 10 ("Apply all Damage effects"), because combat is…'
        ),
    ),
    "BSG-R29": (
        N_("Voluntary drop"),
        N_(
            "The controller may drop the field in the Initiative Phase; once dropped it can never be raised…"
        ),
    ),
    "BSG-R30": (
        N_("Effect of a drop"),
        N_("Every unit that was in the field becomes identified and is placed on the board."),
    ),
    "BSG-A03": (
        N_("Total amount of modifiers on a ship"),
        N_("Sum the scout-point EW effects applied to that ship this turn, from any friendly…"),
    ),
    "BSG-A04": (
        N_("Exceeds"),
        N_("Strictly greater (>)."),
    ),
    "BSG-A06": (
        N_("Ships never have to detect… if there is no cause to suspect…"),
        N_("Each turn, the detecting side declares which ships scan…"),
    ),
    "BSG-A12": (
        N_('Mass Identify at 2R ("detected but not identified") needs a…'),
        N_("Implement it literally; it is a no-op unless units…"),
    ),
    "BSG-A13": (
        N_("Are points spent on a failed Identify lost"),
        N_("Yes, they are consumed."),
    ),
    "BSG-A14": (
        N_("What automatic PI discloses"),
        N_("Only the −1 flag; the appearing unit itself shows position and category."),
    ),
    "BSG-A15": (
        N_("When moving in triggers"),
        N_(
            "At the end of the Movement Phase, an enemy unit inside the field radius triggers a full reveal…"
        ),
    ),
    "BSG-A19": (
        N_('Who counts as "pursuing ships"'),
        N_("The enemy ships on the board when the fugitive entered the field."),
    ),
    "BSG-A20": (
        N_('Mass Identify range: "normal EWE is in effect", measured…'),
        N_("To the nearest hex of the field (same measure as)."),
    ),
}
