"""Lone figures (RULES-SPEC SW-R18..R22, SW-T14, SW-A09)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.errors import ScenarioError
from ghillie.rules.suspicious_places.odds import ODDS, FireParams, ObserveParams
from ghillie.rules.suspicious_places.scenario import SuspiciousPlacesSwitches

from .helpers import (
    KENO,
    LIANRA,
    QueuedDice,
    act,
    activate,
    add_units,
    at_table,
    create,
    end,
    known,
    line,
    map_data,
    observe,
    piece,
    rolls,
    said,
    setup_map,
    setup_table,
    table_data,
    unit,
)

MEDIC = unit("medic", KENO, kind="lone", quality="d6", name="Medic Ilya")
CAPTAIN = unit("captain", KENO, kind="lone", officer=True, quality="d10", leadership=3)


def _game(
    *extra: dict[str, Any], switches: dict[str, Any] | None = None
) -> tuple[Game, QueuedDice]:
    dice = QueuedDice()
    game = setup_table(add_units(table_data(switches), *extra), dice)
    return game, dice


def _refused(game: Game, side: str, command: dict[str, Any]) -> str:
    with pytest.raises(Refusal) as refused:
        game.command(side, command)
    return refused.value.code


def _status(game: Game, key: str) -> dict[str, Any]:
    return dict(piece(game, key).public)


# --- SW-R18: a group of one man, with two actions and no morale level -----------------------------


@pytest.mark.spec("SW-R18")
def test_a_lone_figure_activates_with_two_actions() -> None:
    game, dice = _game(MEDIC)
    activate(game, KENO, "medic")
    assert game.view(KENO)["board"]["activation"]["actions_left"] == 2
    observe(game, dice, "M1", (1, 1, 1), measured=at_table(10))
    assert rolls(game.events()[-1])["quality"].die == "d6"  # its own quality die
    game.command(KENO, {"type": "other_action", "what": "bandage"})
    assert _refused(game, KENO, {"type": "other_action"}) == "no_actions_left"


@pytest.mark.spec("SW-R18", "SW-R10")
def test_a_unit_activates_once_a_turn() -> None:
    game, _dice = _game(MEDIC)
    activate(game, KENO, "medic")
    end(game, KENO)
    game.command(LIANRA, {"type": "pass"})
    assert _refused(game, KENO, {"type": "activate", "unit": "medic"}) == "already_activated"
    game.command(KENO, {"type": "pass"})  # two passes in a row: the next turn
    assert game.view(KENO)["board"]["turn"] == 2
    activate(game, KENO, "medic")


@pytest.mark.spec("SW-R18")
@pytest.mark.parametrize("kind", ["lone", "sniper"])
def test_a_lone_figure_or_sniper_is_one_man(kind: str) -> None:
    data = add_units(table_data(), unit("crowd", KENO, kind=kind, models=3, leadership=4))
    with pytest.raises(ScenarioError, match="one model"):
        create(data, QueuedDice([3]))


@pytest.mark.spec("SW-R18", "SW-R01")
def test_a_lone_figure_does_not_hide_under_suspicious_place_markers() -> None:
    data = add_units(table_data(), unit("officer", LIANRA, kind="lone", camouflaged=True))
    with pytest.raises(ScenarioError, match="lone figures"):
        create(data, QueuedDice([3]))


# --- SW-R21 / SW-T14: firing at a lone figure outside a squad -------------------------------------


def _mg_fires_at(game: Game, dice: QueuedDice, target: str, rng: float, cover: str) -> Any:
    return act(
        game,
        dice,
        LIANRA,
        {"type": "fire", "target": target, "measured": at_table(rng, cover=cover)},
        (1, 1, 1),
    )


@pytest.mark.spec("SW-R21", "SW-T14")
@pytest.mark.parametrize(
    ("target", "cover", "die"),
    [
        ("medic", "none", "d10"),  # 20": 8" zones → zone 3 (d8), +1 step for a lone figure
        ("sergeant", "none", "d8"),  # a squad at the same range: no extra step
        ("medic", "soft", "d12"),
        ("medic", "hard", "d12+1"),
    ],
)
def test_a_lone_figure_outside_a_squad_is_one_step_harder_to_hit(
    target: str, cover: str, die: str
) -> None:
    game, dice = _game(MEDIC)
    game.command(KENO, {"type": "pass"})
    activate(game, LIANRA, "mg")  # the d8 machine gun is revealed (SW-R06)
    event = _mg_fires_at(game, dice, target, 20, cover)
    assert line(event, KENO)["range_die"] == die


@pytest.mark.spec("SW-R21", "SW-R05")
def test_a_revealed_sniper_is_not_a_lone_figure_when_fired_at() -> None:
    data = add_units(
        table_data(), unit("marksman", KENO, kind="sniper", quality="d8", leadership=4)
    )
    game = setup_table(data, dice := QueuedDice())
    game.command(KENO, {"type": "pass"})
    activate(game, LIANRA, "mg")
    assert line(_mg_fires_at(game, dice, "marksman", 20, "none"), KENO)["range_die"] == "d8"


@pytest.mark.spec("SW-A09", "SW-T14")
@pytest.mark.parametrize(("bonus", "die"), [(False, "d6"), (True, "d8")])
def test_the_lone_figures_extra_step_and_observation(bonus: bool, die: str) -> None:
    # Lone figures never hide under markers, so only the odds query can observe one: 20"
    # is zone 2 (d6) for observation, with the extra step only under the switch.
    switches = SuspiciousPlacesSwitches.model_validate({"sw.lone_bonus_on_observation": bonus})
    query = ODDS["observe"]
    check = query.check(ObserveParams(range=20, lone=True), switches)
    assert str(check.dice[0][1]) == die
    plain = query.check(ObserveParams(range=20), switches)
    assert str(plain.dice[0][1]) == "d6"
    # Shooting at it gets the step either way (SW-R21).
    fire = ODDS["fire"]
    assert str(fire.check(FireParams(range=20, lone=True), switches).dice[0][1]) == "d10"
    assert sum(check.odds().values()) == Fraction(1)


@pytest.mark.spec("SW-T14", "SW-R21")
def test_a_lone_figure_is_not_a_marker_to_observe() -> None:
    game, _dice = _game(MEDIC)
    game.command(KENO, {"type": "pass"})
    activate(game, LIANRA, "sniper")
    command = {"type": "observe", "marker": "medic", "measured": at_table(20, cover="none")}
    assert _refused(game, LIANRA, command) == "wrong_kind"


# --- SW-R22 / SW-T14: morale --------------------------------------------------------------------


def _morale(game: Game, result: str) -> dict[str, Any]:
    event = game.command(KENO, {"type": "morale", "unit": "medic", "result": result})
    return line(event, LIANRA)


@pytest.mark.spec("SW-R22", "SW-T14")
def test_a_failed_morale_test_gives_suppression_then_panic() -> None:
    game, _dice = _game(MEDIC)
    _morale(game, "passed")
    assert (_status(game, "medic")["suppression"], _status(game, "medic")["panic"]) == (0, False)
    _morale(game, "failed")
    assert _status(game, "medic")["suppression"] == 1  # not a morale step: a suppression marker
    _morale(game, "failed")
    assert _status(game, "medic")["suppression"] == 2
    told = _morale(game, "failed")  # with two already: a panic marker instead
    assert (_status(game, "medic")["suppression"], _status(game, "medic")["panic"]) == (2, True)
    assert said(told) == (
        "Medic Ilya fails the morale test and panics: with two suppression markers already, "
        "a panic marker."
    )
    seen = known(game, LIANRA, "medic")
    assert seen is not None
    assert seen["public"]["panic"] is True


@pytest.mark.spec("SW-R22", "SW-T14")
def test_a_two_step_failure_gives_panic_at_once() -> None:
    game, _dice = _game(MEDIC)
    _morale(game, "failed_two_steps")
    assert (_status(game, "medic")["suppression"], _status(game, "medic")["panic"]) == (0, True)


@pytest.mark.spec("SW-R22", "SW-T14")
def test_a_failed_attempt_to_remove_panic_takes_the_figure_off_the_table() -> None:
    game, _dice = _game(MEDIC)
    command = {"type": "remove_panic", "unit": "medic", "passed": False}
    assert _refused(game, KENO, command) == "not_panicked"
    _morale(game, "failed_two_steps")
    game.command(KENO, {**command, "passed": True})
    assert _status(game, "medic")["panic"] is False
    _morale(game, "failed_two_steps")
    event = game.command(KENO, command)
    assert said(line(event, LIANRA)).endswith("leaves the table: fled or surrendered.")
    assert known(game, LIANRA, "medic")["public"]["status"] == "off_table"  # type: ignore[index]
    assert _refused(game, KENO, {"type": "activate", "unit": "medic"}) == "not_on_table"


@pytest.mark.spec("SW-R22")
def test_morale_of_lone_figures_is_not_the_rule_for_squads() -> None:
    game, _dice = _game(MEDIC)
    command = {"type": "morale", "unit": "sergeant", "result": "failed"}
    assert _refused(game, KENO, command) == "not_lone"
    assert _refused(game, LIANRA, {**command, "unit": "medic"}) == "not_yours"


# --- SW-R19: joining and leaving squads; officers transfer actions ------------------------------


@pytest.mark.spec("SW-R19")
def test_a_lone_figure_joins_and_leaves_at_will_without_spending_actions() -> None:
    game, _dice = _game(MEDIC)
    game.command(KENO, {"type": "join", "unit": "medic", "squad": "sergeant"})
    assert _status(game, "medic")["attached_to"] == piece(game, "sergeant").id
    activate(game, KENO, "sergeant")
    game.command(KENO, {"type": "leave", "unit": "medic"})
    assert _status(game, "medic")["attached_to"] is None
    assert game.view(KENO)["board"]["activation"]["actions_left"] == 2


@pytest.mark.spec("SW-R19")
def test_a_lone_figure_joins_only_a_squad_of_its_own_side_on_the_table() -> None:
    game, _dice = _game(MEDIC)
    assert _refused(game, KENO, {"type": "join", "unit": "medic", "squad": "mg"}) == "not_yours"
    assert _refused(game, KENO, {"type": "join", "unit": "sergeant", "squad": "sergeant"}) == (
        "not_lone"
    )
    assert _refused(game, KENO, {"type": "leave", "unit": "medic"}) == "not_attached"


@pytest.mark.spec("SW-R19")
def test_an_attached_figure_follows_its_squad() -> None:
    game, _dice = _game(MEDIC)
    game.command(KENO, {"type": "join", "unit": "medic", "squad": "sergeant"})
    activate(game, KENO, "medic")
    assert _refused(game, KENO, {"type": "move"}) == "attached"


@pytest.mark.spec("SW-R19")
def test_an_officer_gives_its_actions_to_the_squad_it_is_with() -> None:
    game, dice = _game(CAPTAIN)
    game.command(KENO, {"type": "join", "unit": "captain", "squad": "sergeant"})
    activate(game, KENO, "captain")
    event = observe(game, dice, "M1", (1, 1, 1), unit="sergeant", measured=at_table(10))
    assert line(event, KENO)["unit"] == piece(game, "sergeant").id
    assert rolls(event)["quality"].die == "d8"  # the squad observes with its own dice
    act(game, dice, KENO, {"type": "other_action", "unit": "sergeant"})
    assert game.view(KENO)["board"]["activation"]["actions_left"] == 0
    end(game, KENO)


@pytest.mark.spec("SW-R19")
def test_a_lone_figure_that_is_no_officer_cannot_give_actions() -> None:
    game, _dice = _game(MEDIC)
    game.command(KENO, {"type": "join", "unit": "medic", "squad": "sergeant"})
    activate(game, KENO, "medic")
    command = {"type": "other_action", "unit": "sergeant"}
    assert _refused(game, KENO, command) == "not_activated"


@pytest.mark.spec("SW-R19")
def test_an_officer_gives_actions_only_to_the_squad_it_is_with() -> None:
    game, _dice = _game(CAPTAIN)
    activate(game, KENO, "captain")
    command = {"type": "other_action", "unit": "sergeant"}
    assert _refused(game, KENO, command) == "not_activated"


@pytest.mark.spec("SW-R19")
def test_on_a_map_an_attached_figure_sees_and_is_measured_from_its_squad() -> None:
    dice = QueuedDice()
    game = setup_map(map_data(), dice)
    # Orlov (24, 4) walks up to Volk (33..39, 6) and joins; Volk is 30" from M1.
    activate(game, KENO, "orlov")
    game.command(KENO, {"type": "move", "to": [32, 6]})
    game.command(KENO, {"type": "join", "unit": "orlov", "squad": "volk"})
    assert _status(game, "orlov")["at"] is None
    event = observe(game, dice, "M1", (1, 1, 1), means="binoculars")
    assert line(event, KENO)["range_die"] == "d10"
    game.command(KENO, {"type": "leave", "unit": "orlov", "at": [31.5, 6]})
    assert _status(game, "orlov")["at"] == [31.5, 6]


@pytest.mark.spec("SW-R19")
def test_on_a_map_joining_and_leaving_do_not_carry_a_figure_across_the_table() -> None:
    dice = QueuedDice()
    game = setup_map(map_data(), dice)
    # Orlov at (24, 4) is 9" from Volk's nearest man: he must walk there first.
    assert _refused(game, KENO, {"type": "join", "unit": "orlov", "squad": "volk"}) == "too_far"
    activate(game, KENO, "orlov")
    game.command(KENO, {"type": "move", "to": [32, 6]})
    game.command(KENO, {"type": "join", "unit": "orlov", "squad": "volk"})
    command = {"type": "leave", "unit": "orlov", "at": [60, 40]}
    assert _refused(game, KENO, command) == "too_far"
    game.command(KENO, {"type": "leave", "unit": "orlov"})  # where the squad stands
    assert _status(game, "orlov")["at"] == [36, 6]
