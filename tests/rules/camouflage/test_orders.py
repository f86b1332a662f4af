"""An Order and its AROs through the engine's reaction windows (RULES-SPEC INF-R09..R15,
INF-T01, T02, T04, T06, T07)."""

from __future__ import annotations

import pytest

from ghillie.engine import allowed_commands
from ghillie.state import Level
from ghillie.view import view

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
    said,
    second,
)

SHOTGUN = {"weapon": "Boarding Shotgun", "burst": 2, "range_mod": 6, "ps": 6}
COMBI = {"weapon": "Combi Rifle", "burst": 1, "range_mod": 3, "ps": 5}


def caliban_moves_and_fusilier_delays():  # type: ignore[no-untyped-def]
    game = deployed()
    fusilier = pid(game, "fusilier")
    order(game, NOMADS, marker_of(game, "caliban"), {"skill": "move"})
    aros(game, PANO, {"piece": fusilier, "aro": "delay"})
    return game, fusilier


@pytest.mark.spec("INF-T01")
def test_INF_T01_camouflage_and_surprise_attack() -> None:
    game, fusilier = caliban_moves_and_fusilier_delays()
    caliban = pid(game, "caliban")
    marker = game.state.pieces[caliban].public["marker"]
    # Step 3: the Caliban declares BS Attack from the point in Cover: the state is cancelled
    # for the whole Order, the model replaces the marker, PanOceania gets its profile.
    second(
        game,
        NOMADS,
        {"skill": "bs_attack", "target": fusilier, "measured": measured(6), "attack": SHOTGUN},
    )
    assert marker not in game.state.pieces
    assert game.state.known(PANO, caliban).level is Level.IDENTIFIED
    known = {k["id"]: k for k in view(game, PANO)["known"]}
    assert known[caliban]["public"]["weapons"] == ["Boarding Shotgun", "Pistol"]
    assert "Marker 2 is Caliban" in " ".join(said(game, PANO)) or any(
        "is Caliban, revealed because it declared an Attack" in t for t in said(game, PANO)
    )
    # Step 4: the delayed ARO is allowed, and it may be a BS Attack (not limited to R11),
    # at a point of the route before the Cover: its own range, and no Cover for the Caliban.
    aros(
        game,
        PANO,
        {"piece": fusilier, "aro": "bs_attack", "measured": measured(10), "attack": COMBI},
    )
    # Face to Face: the Caliban's Burst 2 (BS 11 + 6 = 17) against the Fusilier's Burst 1
    # (BS 12 + 3, -3 for the Caliban's Mimetism = 12). The Caliban's 11 beats the
    # Fusilier's 8, which cancels the Caliban's 5: one hit. The Nomads type in their own
    # two dice; ghillie rolls the Fusilier's.
    with ghillie_rolls(game, 8):
        game.command(NOMADS, {"type": "resolve_order", "rolls": {"dice": [5, 11]}})
    lines = last_said(game, PANO)
    assert (
        'Face to Face Roll: Caliban rolls 5, 11 needing 17 or less (range 6"), Fusilier '
        'rolls 8 needing 12 or less (range 10").' in lines
    )
    assert "Caliban hits Fusilier once." in lines
    assert "Fusilier does not hit Caliban." in lines
    assert allowed_commands(game.state, PANO) == ["saving_rolls", "end_game"]
    # The Fusilier's saving roll: PS 6 + ARM 1 = 7 or less.
    game.command(PANO, {"type": "saving_rolls", "rolls": {"dice": [12]}})
    assert game.state.pieces[fusilier].public["state"] == "down"
    assert game.state.board.order is None


@pytest.mark.spec("INF-T02")
def test_INF_T02_no_reveal_loses_the_delayed_aro() -> None:
    game, fusilier = caliban_moves_and_fusilier_delays()
    marker = marker_of(game, "caliban")
    second(game, NOMADS, {"skill": "idle"})
    refusal = refused(
        game,
        PANO,
        {
            "type": "aros",
            "aros": [{"piece": fusilier, "aro": "bs_attack", "measured": measured(8)}],
        },
    )
    assert refusal.code == "aro_lost"
    aros(game, PANO)
    assert "Fusilier loses its delayed ARO: the marker did not reveal itself." in last_said(
        game, NOMADS
    )
    assert marker in game.state.pieces  # the marker stays


@pytest.mark.spec("INF-R12")
def test_INF_R12_a_delay_is_declared_explicitly_and_only_against_a_marker() -> None:
    game = deployed()
    fusilier = pid(game, "fusilier")
    order(game, NOMADS, pid(game, "moran"), {"skill": "move"})
    refusal = refused(game, PANO, {"type": "aros", "aros": [{"piece": fusilier, "aro": "delay"}]})
    assert refusal.code == "nothing_to_delay"


@pytest.mark.spec("INF-R11")
@pytest.mark.spec("INF-A06")
def test_INF_R11_only_four_aros_against_a_marker() -> None:
    game = deployed()
    fusilier = pid(game, "fusilier")
    order(game, NOMADS, marker_of(game, "zondbot"), {"skill": "move"})
    for aro in ("bs_attack", "cautious_move", "idle"):
        refusal = refused(
            game,
            PANO,
            {"type": "aros", "aros": [{"piece": fusilier, "aro": aro, "measured": measured(8)}]},
        )
        assert refusal.code in {"aro_against_marker", "not_an_aro"}
    aros(game, PANO, {"piece": fusilier, "aro": "dodge"})
    assert "Fusilier declares Dodge as its ARO." in last_said(game, NOMADS)


def test_the_reactive_side_is_asked_after_every_skill_and_nothing_else_goes_first() -> None:
    game = deployed()
    order(game, NOMADS, pid(game, "moran"), {"skill": "move"})
    view_ = view(game, NOMADS)
    assert view_["waiting_for"] == [PANO]
    assert view_["reaction"] == {"by": NOMADS, "waiting_for": PANO}
    assert view_["status"][0] == "PanOceania are declaring their AROs."
    assert refused(game, NOMADS, {"type": "second_skill", "skill": {"skill": "move"}}).code == (
        "awaiting_reaction"
    )
    assert allowed_commands(game.state, PANO)[0] == "aros"
    aros(game, PANO)
    assert "PanOceania declare no ARO." in last_said(game, NOMADS)
    second(game, NOMADS, {"skill": "move"})
    assert view(game, PANO)["your_move"] is True  # asked again after the second skill
    aros(game, PANO)
    assert allowed_commands(game.state, NOMADS)[0] == "resolve_order"
    # An answer is never given outside its window.
    assert "aros" not in allowed_commands(game.state, PANO)


def test_being_asked_for_aros_does_not_depend_on_what_a_marker_hides() -> None:
    """Two worlds: the Zondbot and the mine (both Silhouette 2, no Mimetism) swap markers.
    PanOceania's view through the Caliban's Order and its reaction windows is the same."""

    def play(swap: bool) -> list[dict[str, object]]:
        from .helpers import table_game

        game = table_game(seed=9)
        keys = ["caliban", "mine", "zondbot"] if swap else ["caliban", "zondbot", "mine"]
        markers = [{"piece": pid(game, k)} for k in keys]
        game.command(NOMADS, {"type": "deploy", "markers": markers})
        game.command(PANO, {"type": "deploy", "markers": [{"piece": pid(game, "croc_man")}]})
        seen = []
        order(game, NOMADS, marker_of(game, "caliban"), {"skill": "move"})
        seen.append(_unproven(view(game, PANO)))
        aros(game, PANO)
        second(game, NOMADS, {"skill": "cautious_move"} if False else {"skill": "idle"})
        seen.append(_unproven(view(game, PANO)))
        return seen

    assert play(False) == play(True)


def _unproven(v: dict[str, object]) -> dict[str, object]:
    out = dict(v)
    out["log"] = [
        {k: e[k] for k in e if k != "proof"}  # type: ignore[attr-defined]
        for e in v["log"]  # type: ignore[attr-defined]
    ]
    return out


@pytest.mark.spec("INF-R09")
@pytest.mark.spec("INF-T07")
def test_INF_T07_a_marker_is_neither_touched_nor_attacked_before_it_is_discovered() -> None:
    game = deployed()
    end_turn(game, NOMADS)  # PanOceania's Player Turn
    fusilier = pid(game, "fusilier")
    zond = marker_of(game, "zondbot")
    refusal = refused(
        game,
        PANO,
        {"type": "first_skill", "piece": fusilier, "skill": {"skill": "move", "contact": zond}},
    )
    assert refusal.code == "contact_with_marker"
    attack = {"skill": "bs_attack", "target": zond, "measured": measured(8), "attack": COMBI}
    refusal = refused(game, PANO, {"type": "first_skill", "piece": fusilier, "skill": attack})
    assert refusal.code == "marker_not_discovered"
    # Discover + BS Attack: the Discover is rolled first, then the Attack.
    order(game, PANO, fusilier, {"skill": "discover", "target": zond, "measured": measured(6)})
    aros(game, NOMADS)
    second(game, PANO, attack)
    aros(game, NOMADS)
    game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [3, 4]}})
    lines = last_said(game, NOMADS)
    assert lines[0].startswith("Fusilier Discovers Marker")
    assert any(line.startswith("Fusilier rolls 4 needing") for line in lines)


@pytest.mark.spec("INF-T07")
def test_INF_T07_a_failed_discover_loses_the_attack() -> None:
    game = deployed()
    end_turn(game, NOMADS)
    fusilier = pid(game, "fusilier")
    zond = marker_of(game, "zondbot")
    attack = {"skill": "bs_attack", "target": zond, "measured": measured(8), "attack": COMBI}
    order(game, PANO, fusilier, {"skill": "discover", "target": zond, "measured": measured(6)})
    aros(game, NOMADS)
    second(game, PANO, attack)
    aros(game, NOMADS)
    game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [19]}})
    lines = last_said(game, NOMADS)
    assert "The Attack is lost: the marker was not Discovered." in lines
    assert zond in game.state.pieces


def discover(game, side, by, marker, die):  # type: ignore[no-untyped-def]
    order(game, side, by, {"skill": "discover", "target": marker, "measured": measured(6)})
    aros(game, NOMADS if side == PANO else PANO)
    second(game, side, {"skill": "idle"})
    aros(game, NOMADS if side == PANO else PANO)
    game.command(side, {"type": "resolve_order", "rolls": {"dice": [die]}})


@pytest.mark.spec("INF-R10")
@pytest.mark.spec("INF-T04")
@pytest.mark.spec("INF-A05")
def test_INF_T04_a_failed_discover_locks_that_trooper_out_of_that_marker() -> None:
    game = deployed()
    end_turn(game, NOMADS)  # Player Turn 2: PanOceania
    a, b = pid(game, "fusilier"), pid(game, "fusilier_2")
    m, n = marker_of(game, "zondbot"), marker_of(game, "caliban")
    discover(game, PANO, a, m, 20)  # fails
    assert "cannot try that marker again until the next Player Turn" in last_said(game, NOMADS)[0]
    retry = {
        "type": "first_skill",
        "piece": a,
        "skill": {"skill": "discover", "target": m, "measured": measured(6)},
    }
    assert refused(game, PANO, retry).code == "discover_locked"
    discover(game, PANO, b, m, 20)  # another trooper may try it
    discover(game, PANO, a, n, 20)  # and the failed one may try another marker
    end_turn(game, PANO)  # Player Turn 3 (Nomads'): the lock has ended
    order(game, NOMADS, pid(game, "moran"), {"skill": "move"})
    aros(game, PANO, {"piece": a, "aro": "bs_attack", "measured": measured(9), "attack": COMBI})
    # ... and in ARO, Discover on the marker is allowed again when it acts
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    with ghillie_rolls(game, 20):  # the Fusilier's die: PanOceania's, not the Nomads'
        game.command(NOMADS, {"type": "resolve_order"})


@pytest.mark.spec("INF-A05")
def test_INF_A05_own_turn_reading_keeps_the_lock_through_the_enemy_turn() -> None:
    game = deployed(**{"inf.lockout_ends": "own_turn"})
    end_turn(game, NOMADS)
    a = pid(game, "fusilier")
    m = marker_of(game, "zondbot")
    discover(game, PANO, a, m, 20)
    end_turn(game, PANO)  # Nomads' turn: with "own_turn", still locked in ARO
    order(game, NOMADS, m, {"skill": "move"})
    refusal = refused(
        game,
        PANO,
        {"type": "aros", "aros": [{"piece": a, "aro": "discover", "measured": measured(6)}]},
    )
    assert refusal.code == "discover_locked"


@pytest.mark.spec("INF-A05")
def test_INF_A05_default_the_lock_ends_with_the_next_player_turn_whoever_is_active() -> None:
    game = deployed()
    end_turn(game, NOMADS)
    a = pid(game, "fusilier")
    m = marker_of(game, "zondbot")
    discover(game, PANO, a, m, 20)
    end_turn(game, PANO)
    order(game, NOMADS, m, {"skill": "move"})
    aros(game, PANO, {"piece": a, "aro": "discover", "measured": measured(6)})
    assert "Fusilier declares Discover as its ARO." in last_said(game, NOMADS)


@pytest.mark.spec("INF-R13")
@pytest.mark.spec("INF-T06")
@pytest.mark.spec("INF-R14")
@pytest.mark.spec("INF-R15")
@pytest.mark.parametrize("skill", ["look_out", "other_long", "dodge", "reset", "other_roll"])
def test_INF_T06_declaring_these_cancels_the_state(skill: str) -> None:
    game = deployed()
    caliban = pid(game, "caliban")
    order(game, NOMADS, marker_of(game, "caliban"), {"skill": skill})
    assert game.state.pieces[caliban].public["state"] == "model"
    assert game.state.known(PANO, caliban).level is Level.IDENTIFIED
    opened = game.events()[-1].fair["openings"][PANO]  # type: ignore[index]
    assert [o["key"] for o in opened] == ["hides"]


@pytest.mark.spec("INF-T06")
def test_INF_T06_cautious_movement_keeps_the_state() -> None:
    game = deployed()
    marker = marker_of(game, "caliban")
    order(game, NOMADS, marker, {"skill": "cautious_move"})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    assert marker in game.state.pieces


@pytest.mark.spec("INF-T06")
@pytest.mark.spec("INF-R13")
def test_INF_T06_impetuous_and_retreat_cancel_the_state() -> None:
    game = deployed()
    caliban, zond = pid(game, "caliban"), pid(game, "zondbot")
    game.command(NOMADS, {"type": "impetuous", "piece": marker_of(game, "caliban")})
    assert game.state.pieces[caliban].public["state"] == "model"
    game.command(NOMADS, {"type": "retreat"})
    assert game.state.pieces[zond].public["state"] == "model"


@pytest.mark.spec("INF-A07")
@pytest.mark.spec("INF-T06")
def test_INF_A07_a_template_aimed_elsewhere_forces_a_save_and_cancels() -> None:
    game = deployed()
    end_turn(game, NOMADS)
    moran, zond = pid(game, "moran"), pid(game, "zondbot")
    marker = marker_of(game, "zondbot")
    attack = {
        "skill": "bs_attack",
        "target": moran,
        "measured": measured(8),
        "attack": {"weapon": "Light Grenade Launcher", "burst": 1},
        "caught": [marker],
    }
    order(game, PANO, pid(game, "fusilier"), attack)
    aros(game, NOMADS)
    second(game, PANO, {"skill": "idle"})
    aros(game, NOMADS)
    # The Attack hits the Moran (3, needing 12): the Template lands (a miss: test_exact).
    game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [3]}})
    assert game.state.pieces[zond].public["state"] == "model"
    assert any("forced to make a Saving Roll" in t for t in said(game, PANO))
    assert allowed_commands(game.state, NOMADS) == ["saving_rolls", "end_game"]


@pytest.mark.spec("INF-R13")
@pytest.mark.spec("INF-A03")
def test_INF_A03_contact_with_an_enemy_model_cancels() -> None:
    game = deployed()
    caliban = pid(game, "caliban")
    order(
        game,
        NOMADS,
        marker_of(game, "caliban"),
        {"skill": "move", "contact": pid(game, "fusilier")},
    )
    assert game.state.pieces[caliban].public["state"] == "model"
    assert any("entered Silhouette contact with an enemy model" in t for t in said(game, PANO))


@pytest.mark.spec("INF-A04")
def test_INF_A04_a_discover_made_by_the_marker_cancels_its_state() -> None:
    game = deployed()
    caliban = pid(game, "caliban")
    croc = marker_of(game, "croc_man")
    order(
        game,
        NOMADS,
        marker_of(game, "caliban"),
        {"skill": "discover", "target": croc, "measured": measured(10)},
    )
    assert game.state.pieces[caliban].public["state"] == "model"


@pytest.mark.spec("INF-T01")
def test_a_skill_declared_with_no_line_of_fire_entered_at_the_table_is_refused() -> None:
    """Issue 25: ``measured.line_of_sight = false`` was taken and ignored. A BS Attack (as a
    Discover) needs LoF to its target (RULES-SPEC §5.1); the players at the table said there
    is none, so it cannot be declared: refused, naming the field, nothing changed. With
    line of fire entered, the same declaration goes through."""
    game, fusilier = caliban_moves_and_fusilier_delays()
    skill = {"skill": "bs_attack", "target": fusilier, "attack": SHOTGUN}
    blind = {**skill, "measured": {**measured(6), "line_of_sight": False}}
    refusal = refused(game, NOMADS, {"type": "second_skill", "skill": blind})
    assert refusal.code == "no_line_of_sight"
    assert refusal.field == "skill.measured.line_of_sight"
    assert "line of fire" in refusal.detail
    second(game, NOMADS, {**skill, "measured": {**measured(6), "line_of_sight": True}})
    assert game.state.known(PANO, pid(game, "caliban")).level is Level.IDENTIFIED
