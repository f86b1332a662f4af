"""Fireteams as far as the Camouflaged State text reaches them (INF-R08, INF-T05): a trooper
in Camouflaged State cannot be part of one, and a member that enters the state leaves it.
Forming and joining one is the ``fireteam`` command; who may be in which kind of Fireteam,
and how big it is, is the base game's."""

from __future__ import annotations

import pytest

from ghillie.engine import allowed_commands
from ghillie.view import view

from .helpers import (
    NOMADS,
    PANO,
    aros,
    deployed,
    end_turn,
    last_said,
    marker_of,
    order,
    pid,
    refused,
    revealed_caliban,
)


def fireteam(team: str, *members: str) -> dict[str, object]:
    return {"type": "fireteam", "team": team, "members": list(members)}


def details(game, side: str, piece: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The details a side's page shows of a piece, its own or the enemy's."""
    v = view(game, side)
    entry = next(p for p in (*v["known"], *v["pieces"]) if p["id"] == piece)
    return {d["label"]: d["value"] for d in entry["details"]}


@pytest.mark.spec("INF-R08")
def test_INF_R08_a_camouflaged_trooper_cannot_form_or_join_a_fireteam() -> None:
    game = deployed()
    moran = pid(game, "moran")
    for caliban in (marker_of(game, "caliban"), pid(game, "caliban")):
        refusal = refused(game, NOMADS, fireteam("Nomad link", moran, caliban))
        assert refusal.code == "camouflaged_in_fireteam"
        assert refusal.field == "members.1"
        assert refusal.detail == "A trooper in Camouflaged State cannot be part of a Fireteam."
    # A camouflaged item takes no part either, as it takes no Orders.
    refusal = refused(game, NOMADS, fireteam("Nomad link", moran, pid(game, "mine")))
    assert refusal.code == "equipment_takes_no_orders"


@pytest.mark.spec("INF-R08")
@pytest.mark.spec("INF-T05")
def test_INF_R08_a_model_forms_a_fireteam_shown_to_both_sides_and_leaves_it_going_back() -> None:
    """The Caliban, revealed, forms a Fireteam with the Moran; both sides read it and see it
    on the pieces. It then goes back into Camouflaged State and leaves the Fireteam at once
    (INF-T05); the Moran stays in it."""
    game = revealed_caliban()
    caliban, moran = pid(game, "caliban"), pid(game, "moran")
    assert "fireteam" in allowed_commands(game.state, NOMADS)
    game.command(NOMADS, fireteam("Nomad link", "caliban", "moran"))
    for side in (NOMADS, PANO):
        assert "Fireteam Nomad link: Caliban and Moran." in last_said(game, side)
    assert details(game, PANO, caliban)["Fireteam"] == "Nomad link"
    assert details(game, NOMADS, moran)["Fireteam"] == "Nomad link"
    order(game, NOMADS, caliban, {"skill": "camouflage", "unseen": True})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    assert game.state.pieces[caliban].public["fireteam"] == ""
    assert game.state.pieces[moran].public["fireteam"] == "Nomad link"
    assert "Caliban is no longer part of Fireteam Nomad link." in last_said(game, PANO)


@pytest.mark.spec("INF-R08")
def test_INF_R08_joining_and_leaving_a_fireteam_in_ones_own_player_turn() -> None:
    game = deployed()
    # Not in the enemy's Player Turn, nor in the middle of an Order.
    assert refused(game, PANO, fireteam("Fusiliers", "seraph")).code == "not_your_turn"
    end_turn(game, NOMADS)
    game.command(PANO, fireteam("Fusiliers", "seraph"))  # joins the two Fusiliers
    lines = last_said(game, NOMADS)
    assert "Fireteam Fusiliers: Fusilier, Fusilier Lieutenant, and Seraph." in lines
    game.command(PANO, fireteam("", "fusilier_2"))  # leaves it
    assert "Fusilier Lieutenant is no longer part of a Fireteam." in last_said(game, NOMADS)
    assert game.state.pieces[pid(game, "fusilier_2")].public["fireteam"] == ""
    order(game, PANO, pid(game, "fusilier"), {"skill": "move"})
    aros(game, NOMADS)
    assert refused(game, PANO, fireteam("Fusiliers", "fusilier_2")).code == "not_your_turn"
