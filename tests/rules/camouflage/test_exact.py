"""Points of the Camouflaged State text that an examiner's hold-out found inexact (issue 25),
written from /work/shared/rules/camouflage.txt and RULES-SPEC §5: a second Discover of the
same marker in one Order (INF-R10, A05), what a trooper that declared nothing after the first
skill may still declare (INF-R12, the N3 FAQ of §5.1), and what a Template's missed Attack
does to the markers under it (INF-A07, R13 e)."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie.engine import allowed_commands
from ghillie.state import Level

from .helpers import (
    NOMADS,
    PANO,
    aros,
    deployed,
    end_turn,
    ghillie_rolls,
    last_said,
    marker_of,
    measured,
    order,
    pid,
    refused,
    revealed_caliban,
    said,
    second,
)

SHOTGUN = {"weapon": "Boarding Shotgun", "burst": 2, "range_mod": 6, "ps": 6}
COMBI = {"weapon": "Combi Rifle", "burst": 1, "range_mod": 3, "ps": 5}


def discover_at(marker: str, range_: float = 6) -> dict[str, Any]:
    return {"skill": "discover", "target": marker, "measured": measured(range_)}


# --- INF-R10: no second try at the same marker, within the Order too ---------------------------


@pytest.mark.spec("INF-R10")
@pytest.mark.spec("INF-A05")
def test_INF_R10_both_skills_of_an_order_may_not_discover_the_same_marker() -> None:
    """A trooper that fails cannot try that marker again until the next Player Turn: within
    one Order it cannot try it twice either (the Discover text: not against the same Target
    twice in the same Order). Refused at the second skill's declaration, nothing changed."""
    game = deployed()
    end_turn(game, NOMADS)  # Player Turn 2: PanOceania
    fusilier = pid(game, "fusilier")
    zond = marker_of(game, "zondbot")
    order(game, PANO, fusilier, discover_at(zond))
    aros(game, NOMADS)
    refusal = refused(game, PANO, {"type": "second_skill", "skill": discover_at(zond)})
    assert refusal.code == "discover_locked"
    assert refusal.field == "skill.target"
    assert "this Order" in refusal.detail
    # The same trooper may Discover another marker with its second skill.
    second(game, PANO, discover_at(marker_of(game, "caliban")))
    aros(game, NOMADS)
    # Both fail: two lock-outs, one roll each, and neither marker can be tried again now.
    game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [20, 20]}})
    fails = [t for t in last_said(game, NOMADS) if "fails to Discover" in t]
    assert len(fails) == 2
    for marker in (zond, marker_of(game, "caliban")):
        retry = {"type": "first_skill", "piece": fusilier, "skill": discover_at(marker)}
        assert refused(game, PANO, retry).code == "discover_locked"
    # The lock is the failed trooper's alone: another trooper may try the marker now.
    order(game, PANO, pid(game, "fusilier_2"), discover_at(zond))
    assert game.state.board.order is not None


@pytest.mark.spec("INF-R10")
@pytest.mark.spec("INF-A12")
def test_INF_R10_a_second_discover_by_a_marker_is_refused_and_a_new_marker_is_new() -> None:
    """The marker of the other side acting (so the Discover comes as the active trooper's
    own skills) reads the same: a Camouflaged Croc Man declares Discover at the Zondbot's
    marker, then again."""
    game = deployed()
    end_turn(game, NOMADS)
    croc = marker_of(game, "croc_man")
    zond = marker_of(game, "zondbot")
    order(game, PANO, croc, discover_at(zond))  # it reveals the Croc Man (a roll: INF-R13 a)
    aros(game, NOMADS)
    refusal = refused(game, PANO, {"type": "second_skill", "skill": discover_at(zond)})
    assert refusal.code == "discover_locked"
    # INF-A12 keeps what the opponent knew of a trooper that goes back into the state (its
    # words), not the lock: the Fusilier fails on the Caliban's marker, the Caliban is
    # revealed and goes back under a new marker in the same Player Turn, and the Fusilier
    # may try the new one in ARO at once.
    game = deployed()
    caliban_marker = marker_of(game, "caliban")
    order(game, NOMADS, caliban_marker, {"skill": "move"})
    aros(game, PANO, {"piece": pid(game, "fusilier"), "aro": "discover", "measured": measured(6)})
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    with ghillie_rolls(game, 20):  # the Fusilier fails: locked out of the old marker
        game.command(NOMADS, {"type": "resolve_order"})
    assert any("fails to Discover" in t for t in last_said(game, PANO))
    # Revealed by a Look Out!, then back into the state, in the same Player Turn.
    order(game, NOMADS, caliban_marker, {"skill": "look_out"})
    aros(game, PANO)
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    caliban = pid(game, "caliban")
    order(game, NOMADS, caliban, {"skill": "camouflage", "unseen": True})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    new = marker_of(game, "caliban")
    assert new != caliban_marker
    assert game.state.known(PANO, new).facts == {"stands_for": caliban}  # identity kept
    order(game, NOMADS, new, {"skill": "move"})
    aros(game, PANO, {"piece": pid(game, "fusilier"), "aro": "discover", "measured": measured(6)})
    assert "Fusilier declares Discover as its ARO." in last_said(game, NOMADS)


# --- INF-R12 and the N3 FAQ: a delay is declared explicitly ----------------------------------


def caliban_moves_and_the_fusilier_says_nothing():  # type: ignore[no-untyped-def]
    game = deployed()
    order(game, NOMADS, marker_of(game, "caliban"), {"skill": "move"})
    aros(game, PANO)  # PanOceania declares no ARO: no delay either
    return game, pid(game, "fusilier")


@pytest.mark.spec("INF-R12")
@pytest.mark.spec("INF-T01")
def test_INF_R12_reveal_branch_a_trooper_that_did_not_delay_cannot_react_now() -> None:
    """The second skill reveals the Caliban (BS Attack at the Fusilier). Only a trooper that
    declared its delay may now declare an ARO; the Fusilier declared nothing after the first
    skill, and a delay must be declared explicitly (N3 FAQ, RULES-SPEC §5.1): refused."""
    game, fusilier = caliban_moves_and_the_fusilier_says_nothing()
    caliban = pid(game, "caliban")
    second(
        game,
        NOMADS,
        {"skill": "bs_attack", "target": fusilier, "measured": measured(6), "attack": SHOTGUN},
    )
    assert game.state.known(PANO, caliban).level is Level.IDENTIFIED  # revealed
    for aro in ("bs_attack", "dodge"):
        refusal = refused(
            game,
            PANO,
            {
                "type": "aros",
                "aros": [
                    {"piece": fusilier, "aro": aro, "measured": measured(10), "attack": COMBI}
                ],
            },
        )
        assert refusal.code == "aro_not_delayed"
        assert refusal.field == "aros.0.piece"
        assert "delay" in refusal.detail
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order", "rolls": {"dice": [5, 11]}})
    assert not any(t.startswith("Face to Face") for t in last_said(game, PANO))


@pytest.mark.spec("INF-R12")
@pytest.mark.spec("INF-A06")
def test_INF_R12_no_reveal_branch_a_trooper_that_did_not_delay_cannot_react_now() -> None:
    """The second skill does not reveal it: a trooper that declared nothing after the first
    skill has let its time pass (INF-A06: at the normal time), so not even an R11 ARO."""
    game, fusilier = caliban_moves_and_the_fusilier_says_nothing()
    second(game, NOMADS, {"skill": "idle"})
    refusal = refused(
        game,
        PANO,
        {"type": "aros", "aros": [{"piece": fusilier, "aro": "discover", "measured": measured(6)}]},
    )
    assert refusal.code == "aro_not_delayed"
    # The FAQ is about a Camouflaged trooper: against an Order given to a model, the second
    # window is the base game's, as before (a trooper left out after the first skill may
    # react to the second).
    game = revealed_caliban()
    order(game, NOMADS, pid(game, "caliban"), {"skill": "move"})
    aros(game, PANO)
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO, {"piece": fusilier, "aro": "dodge"})
    assert "Fusilier declares Dodge as its ARO." in last_said(game, NOMADS)


@pytest.mark.spec("INF-R12")
def test_INF_R12_a_trooper_with_no_line_of_fire_during_the_first_skill_reacts_to_the_second() -> (
    None
):
    """The base game's own case: a trooper that could not react to the first skill (no line
    of fire then) reacts to the second; saying so is its side's assertion. Against a model
    revealed by the second skill, any ARO; against a marker still, only the R11 AROs."""
    game, fusilier = caliban_moves_and_the_fusilier_says_nothing()
    second(
        game,
        NOMADS,
        {"skill": "bs_attack", "target": fusilier, "measured": measured(6), "attack": SHOTGUN},
    )
    late = {"piece": fusilier, "aro": "bs_attack", "measured": measured(10), "attack": COMBI}
    aros(game, PANO, {**late, "gained_lof": True})
    assert "Fusilier declares BS Attack as its ARO." in last_said(game, NOMADS)
    game2, fusilier2 = caliban_moves_and_the_fusilier_says_nothing()
    second(game2, NOMADS, {"skill": "idle"})
    refusal = refused(
        game2,
        PANO,
        {
            "type": "aros",
            "aros": [{**late, "piece": fusilier2, "gained_lof": True}],
        },
    )
    assert refusal.code == "aro_against_marker"
    aros(
        game2,
        PANO,
        {"piece": fusilier2, "aro": "discover", "measured": measured(6), "gained_lof": True},
    )
    assert "Fusilier declares Discover as its ARO." in last_said(game2, NOMADS)


@pytest.mark.spec("INF-R12")
def test_INF_R12_no_line_of_fire_during_the_first_skill_is_refused_in_the_first_aros() -> None:
    game = revealed_caliban()
    fusilier = pid(game, "fusilier")
    order(game, NOMADS, pid(game, "caliban"), {"skill": "move"})
    before = len(game.events())
    refusal = refused(
        game,
        PANO,
        {"type": "aros", "aros": [{"piece": fusilier, "aro": "dodge", "gained_lof": True}]},
    )
    assert (refusal.code, refusal.field) == ("not_the_second_skill", "aros.0.gained_lof")
    assert len(game.events()) == before


@pytest.mark.spec("INF-R12")
def test_INF_R12_the_delaying_trooper_may_declare_any_aro_after_the_reveal() -> None:
    """The branch the text gives: the one that delayed may now declare any ARO, not only
    the R11 list (Dodge here), while its fellow that said nothing may not."""
    game = deployed()
    a, b = pid(game, "fusilier"), pid(game, "fusilier_2")
    order(game, NOMADS, marker_of(game, "caliban"), {"skill": "move"})
    aros(game, PANO, {"piece": a, "aro": "delay"})
    second(
        game,
        NOMADS,
        {"skill": "bs_attack", "target": a, "measured": measured(6), "attack": SHOTGUN},
    )
    refusal = refused(
        game,
        PANO,
        {
            "type": "aros",
            "aros": [
                {"piece": a, "aro": "dodge"},
                {"piece": b, "aro": "bs_attack", "measured": measured(9), "attack": COMBI},
            ],
        },
    )
    assert (refusal.code, refusal.field) == ("aro_not_delayed", "aros.1.piece")
    aros(game, PANO, {"piece": a, "aro": "dodge"})
    assert "Fusilier declares Dodge as its ARO." in last_said(game, NOMADS)


@pytest.mark.spec("INF-R12")
def test_INF_R12_a_long_skill_has_no_second_half_to_delay_to() -> None:
    game = deployed()
    order(game, NOMADS, marker_of(game, "caliban"), {"skill": "cautious_move"})
    refusal = refused(
        game, PANO, {"type": "aros", "aros": [{"piece": pid(game, "fusilier"), "aro": "delay"}]}
    )
    assert refusal.code == "nothing_to_delay"


# --- INF-A07, R13 e: a Template's Attack that misses ------------------------------------------


def template_at_the_moran(die: int) -> Any:
    game = deployed()
    end_turn(game, NOMADS)
    attack = {
        "skill": "bs_attack",
        "target": pid(game, "moran"),
        "measured": measured(8),
        # BS 12, no MOD: a hit on 12 or less.
        "attack": {"weapon": "Light Grenade Launcher", "burst": 1, "ps": 5},
        "caught": [marker_of(game, "zondbot"), marker_of(game, "mine")],
    }
    order(game, PANO, pid(game, "fusilier"), attack)
    aros(game, NOMADS)
    second(game, PANO, {"skill": "idle"})
    aros(game, NOMADS)
    game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [die]}})
    return game


@pytest.mark.spec("INF-A07")
@pytest.mark.spec("INF-R13")
@pytest.mark.spec("INF-T06")
def test_INF_A07_a_missed_attack_forces_no_saving_roll_and_reveals_no_marker() -> None:
    game = template_at_the_moran(20)
    for key in ("zondbot", "mine"):
        assert game.state.pieces[pid(game, key)].public["state"] == "camouflaged"
        assert game.state.known(PANO, pid(game, key)).level is Level.UNKNOWN
    assert not any("forced to make a Saving Roll" in t for t in said(game, PANO))
    assert "The Attack misses: nothing under the Template is affected." in last_said(game, PANO)
    assert game.state.board.order is None  # no saving roll owed
    assert game.state.board.saves == ()
    # The same Attack hitting: every marker under the Template is revealed and owes a save.
    game = template_at_the_moran(3)
    zond, mine, moran = pid(game, "zondbot"), pid(game, "mine"), pid(game, "moran")
    assert game.state.pieces[zond].public["state"] == "model"
    assert game.state.known(PANO, zond).level is Level.IDENTIFIED
    assert game.state.known(PANO, mine).level is Level.IDENTIFIED
    owed = {s.piece: s.count for s in game.state.board.saves}
    assert owed == {moran: 1, zond: 1, mine: 1}
    assert allowed_commands(game.state, NOMADS) == ["saving_rolls", "end_game"]


@pytest.mark.spec("INF-A07")
def test_INF_A07_an_attack_cancelled_face_to_face_affects_nothing_under_the_template() -> None:
    """The Moran's BS ARO wins the Face to Face Roll: the Fusilier's success is cancelled,
    so the Template lands on nobody and no marker under it is revealed."""
    game = deployed()
    end_turn(game, NOMADS)
    moran = pid(game, "moran")
    attack = {
        "skill": "bs_attack",
        "target": moran,
        "measured": measured(8),
        "attack": {"weapon": "Light Grenade Launcher", "burst": 1},
        "caught": [marker_of(game, "zondbot")],
    }
    order(game, PANO, pid(game, "fusilier"), attack)
    aros(game, NOMADS, {"piece": moran, "aro": "bs_attack", "measured": measured(8)})
    second(game, PANO, {"skill": "idle"})
    aros(game, NOMADS)
    # Fusilier 5 needing 12; the Moran (ghillie's die) 9 needing 11: 9 beats 5.
    with ghillie_rolls(game, 9):
        game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [5]}})
    assert game.state.pieces[pid(game, "zondbot")].public["state"] == "camouflaged"
    assert "The Attack misses: nothing under the Template is affected." in last_said(game, PANO)


@pytest.mark.spec("INF-A07")
@pytest.mark.spec("INF-R13")
def test_INF_A07_a_template_fired_in_aro_catches_markers_only_where_it_hits() -> None:
    """A Template in ARO, aimed at the active trooper, may catch other markers too (INF-A07
    names no side): the Fusilier's grenade at the Moran, the Zondbot's marker under it."""
    for die, revealed in ((3, True), (20, False)):
        game = deployed()
        moran, zond = pid(game, "moran"), pid(game, "zondbot")
        order(game, NOMADS, moran, {"skill": "move"})
        grenade = {
            "piece": pid(game, "fusilier"),
            "aro": "bs_attack",
            "measured": measured(8),
            "attack": {"weapon": "Light Grenade Launcher", "burst": 1},
            "caught": [marker_of(game, "zondbot")],
        }
        aros(game, PANO, grenade)
        second(game, NOMADS, {"skill": "idle"})
        aros(game, PANO)
        with ghillie_rolls(game, die):  # the Fusilier's die: PanOceania's
            game.command(NOMADS, {"type": "resolve_order"})
        state = game.state.pieces[zond].public["state"]
        assert state == ("model" if revealed else "camouflaged")
        owed = {s.piece: s.count for s in game.state.board.saves}
        assert owed == ({moran: 1, zond: 1} if revealed else {})
    # Only an Attack catches markers.
    game = deployed()
    order(game, NOMADS, pid(game, "moran"), {"skill": "move"})
    dodge = {"piece": pid(game, "fusilier"), "aro": "dodge", "caught": [marker_of(game, "mine")]}
    refusal = refused(game, PANO, {"type": "aros", "aros": [dodge]})
    assert (refusal.code, refusal.field) == ("not_an_attack", "aros.0.caught")
