"""Red team: attacks on the camouflage ruleset and the engine's reaction windows.

Each test is an attack that fails if the hole it looks for is there. The holes found are
kept as ``xfail(strict=True)`` with the reason saying exactly what leaks or breaks; the
attacks that found nothing stay as regression tests.

The main tool is two worlds (TRUST.md §3.7): two games from the same seed that differ only in
which of two markers that look alike (INF-A09: Silhouette and Mimetism) hides what. Markers
are numbered by random ids drawn in the order the owner lists them, so swapping two entries
of the Deploy swaps what the same two markers (same ids, same numbers) stand for. Whatever
PanOceania or the table screen receives must then be the same, proof material compared by
its pattern of repeated strings (``tests.contract.harness.comparable``), until a rule
reveals one of the two markers.
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from ghillie import Game, Refusal, examples
from ghillie.server.odds import odds_for
from ghillie.state import SPECTATOR, Level
from ghillie.view import view
from tests.contract.harness import comparable, first_difference

from .helpers import (
    NOMADS,
    PANO,
    aros,
    deployed,
    end_turn,
    ghillie_rolls,
    marker_of,
    measured,
    order,
    pid,
    revealed_caliban,
    said,
    second,
    table_game,
)

COMBI = {"weapon": "Combi Rifle", "burst": 1, "range_mod": 3, "ps": 5}
KEYS = ("caliban", "zondbot", "mine")


# --- helpers -------------------------------------------------------------------------------


def answer(game: Game, side: str, command: Any) -> tuple[str, ...]:
    """How the game answers ``command`` when it is given for real: ``("accepted",)``,
    ``("refused", code, detail, field)`` with the game unchanged, or ``("crashed", name)``
    for any other exception (a 500 on the server)."""
    before, log = game.state, game.events()
    try:
        game.command(side, command)
    except Refusal as refusal:
        assert game.state == before
        assert game.events() == log
        return ("refused", refusal.code, refusal.detail, str(refusal.field))
    except Exception as exc:  # any other exception is the finding
        assert game.state == before
        return ("crashed", type(exc).__name__)
    return ("accepted",)


def tried(game: Game, side: str, command: Any) -> tuple[str, ...]:
    """Like :func:`answer`, on a trial that changes nothing."""
    try:
        game.trial(side, command)
    except Refusal as refusal:
        return ("refused", refusal.code, refusal.detail, str(refusal.field))
    except Exception as exc:
        return ("crashed", type(exc).__name__)
    return ("accepted",)


def alike_data() -> dict[str, Any]:
    """The table scenario with a Zondbot that looks like the Caliban under a marker
    (Silhouette 2, Mimetism -3) but has another WIP (9, the Caliban's is 13)."""
    data = copy.deepcopy(examples.data("camouflage-table"))
    for trooper in data["troopers"]:
        if trooper["key"] == "zondbot":
            trooper.update(mimetism=-3, wip=9)
    return data


def worlds(
    swap: tuple[str, str] = ("zondbot", "mine"),
    data: dict[str, Any] | None = None,
    seed: int = 9,
    **switches: Any,
) -> tuple[Game, Game]:
    """Two games that differ only in which of the two markers ``swap`` names stands for
    which: in world B the two entries are swapped in the Nomads' Deploy."""

    def world(swapped: bool) -> Game:
        scenario = copy.deepcopy(data or examples.data("camouflage-table"))
        if switches:
            scenario["switches"] = {**scenario.get("switches", {}), **switches}
        game = Game.create(scenario, seed=seed)
        keys = list(KEYS)
        if swapped:
            i, j = keys.index(swap[0]), keys.index(swap[1])
            keys[i], keys[j] = keys[j], keys[i]
        game.command(NOMADS, {"type": "deploy", "markers": [{"piece": pid(game, k)} for k in keys]})
        game.command(PANO, {"type": "deploy", "markers": [{"piece": pid(game, "croc_man")}]})
        return game

    a, b = world(False), world(True)
    # The same two markers, each standing for the other piece in the other world.
    assert marker_of(a, swap[0]) == marker_of(b, swap[1])
    assert marker_of(a, swap[1]) == marker_of(b, swap[0])
    for marker in (marker_of(a, swap[0]), marker_of(a, swap[1])):
        assert a.state.pieces[marker].public == b.state.pieces[marker].public
        assert a.state.pieces[marker].secret != b.state.pieces[marker].secret
    return a, b


def assert_same(
    a: Game, b: Game, when: str, observers: tuple[str, ...] = (PANO, SPECTATOR)
) -> None:
    """Whatever each observer receives is the same in both worlds, proofs by the pattern of
    their repeated strings, everything else byte for byte."""
    for observer in observers:
        va, vb = comparable(view(a, observer)), comparable(view(b, observer))
        if json.dumps(va, sort_keys=True) != json.dumps(vb, sort_keys=True):
            pytest.fail(f"{when}: {observer} tells the worlds apart at {first_difference(va, vb)}")


def both(a: Game, b: Game, side: str, command: dict[str, Any]) -> tuple[str, ...]:
    """Give ``command`` in both worlds; it must be answered the same."""
    got_a, got_b = answer(a, side, command), answer(b, side, command)
    assert got_a == got_b, f"{command} answered {got_a} and {got_b} in the two worlds"
    return got_a


def recamouflaged_caliban(game: Game) -> Game:
    """The revealed Caliban goes back into Camouflaged State (INF-R02), then PanOceania's
    Player Turn begins."""
    order(game, NOMADS, pid(game, "caliban"), {"skill": "camouflage", "unseen": True})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    end_turn(game, NOMADS)
    return game


def map_game(seed: int = 3, **switches: Any) -> Game:
    data = copy.deepcopy(examples.data("camouflage"))
    if switches:
        data["switches"] = {**data.get("switches", {}), **switches}
    game = Game.create(data, seed=seed)
    points = {"caliban": [20, 10], "zondbot": [30, 30], "mine": [40, 40]}
    game.command(
        NOMADS,
        {"type": "deploy", "markers": [{"piece": k, "at": at} for k, at in points.items()]},
    )
    game.command(PANO, {"type": "deploy", "markers": [{"piece": "croc_man", "at": [12, 34]}]})
    return game


def quiet_order(game: Game, side: str, piece: str, skill: dict[str, Any], die: int) -> None:
    """An Order with no AROs and an Idle second skill, rolled with one entered die."""
    other = NOMADS if side == PANO else PANO
    order(game, side, piece, skill)
    aros(game, other)
    second(game, side, {"skill": "idle"})
    aros(game, other)
    game.command(side, {"type": "resolve_order", "rolls": {"dice": [die]}})


def discover_odds(game: Game, side: str, kind: str, marker: str, **extra: Any) -> dict[str, Any]:
    skill = {"skill": "discover", "target": marker, "measured": measured(6)}
    return odds_for(game.state, side, {"type": kind, "skill": skill, **extra})


# --- 1. the prompts and everything else PanOceania receives: two worlds --------------------


def test_red_two_worlds_zondbot_or_mine_through_orders_aros_and_failed_discovers() -> None:
    """The Zondbot and the mine (both S2, no Mimetism) swap markers. Through a Nomad Order
    with a delayed ARO, refused attacks, contacts and Discovers of each marker, failed
    Discovers (and a Discover + Attack) of both, and a failed ARO Discover, PanOceania and
    the table screen receive the same views — prompts (``commands`` with their choices and
    defaults, ``your_move``, ``waiting_for``, ``reaction``, ``status``), log lines, proofs
    — every command of PanOceania's is answered the same, the odds of a Discover on either
    marker are the same, and so are the candidates and the dice rolled."""
    a, b = worlds()
    x, y = marker_of(a, "zondbot"), marker_of(a, "mine")
    assert_same(a, b, "deployed")

    # The Nomads' Caliban marker acts; PanOceania is asked after each skill alike.
    steps: list[tuple[str, dict[str, Any]]] = [
        (
            NOMADS,
            {"type": "first_skill", "piece": marker_of(a, "caliban"), "skill": {"skill": "move"}},
        ),
        (PANO, {"type": "aros", "aros": [{"piece": pid(a, "fusilier"), "aro": "delay"}]}),
        (NOMADS, {"type": "second_skill", "skill": {"skill": "idle"}}),
        (PANO, {"type": "aros", "aros": []}),
        (NOMADS, {"type": "resolve_order"}),
        (NOMADS, {"type": "end_turn"}),
    ]
    for side, command in steps:
        assert answer(a, side, command) == answer(b, side, command) == ("accepted",)
        assert_same(a, b, f"after {command['type']}")

    # PanOceania's refused commands naming either marker, or either hidden piece.
    fusilier = pid(a, "fusilier")
    hidden = [pid(a, "zondbot"), pid(a, "mine"), "zondbot", "mine", "caliban", "no-such-piece"]
    for ref in (x, y, *hidden):
        for skill in (
            {"skill": "bs_attack", "target": ref, "measured": measured(8), "attack": COMBI},
            {"skill": "move", "contact": ref},
            {"skill": "discover", "target": ref, "measured": measured(97)},
            {
                "skill": "bs_attack",
                "target": pid(a, "moran"),
                "measured": measured(8),
                "caught": [ref],
            },
        ):
            command = {"type": "first_skill", "piece": fusilier, "skill": skill}
            assert tried(a, PANO, command) == tried(b, PANO, command)
        assert discover_odds(a, PANO, "first_skill", ref, piece=fusilier) == discover_odds(
            b, PANO, "first_skill", ref, piece=fusilier
        )
        for command in (
            {"type": "impetuous", "piece": ref},
            {"type": "first_skill", "piece": ref, "skill": {"skill": "move"}},
        ):
            assert tried(a, PANO, command) == tried(b, PANO, command)
    assert a.events()[-1].seq == b.events()[-1].seq  # the trials changed nothing

    # Failed Discovers of each marker, one a Discover + Attack: the same dice, lines, proofs.
    attack = {"skill": "bs_attack", "target": x, "measured": measured(6), "attack": COMBI}
    orders = [
        (fusilier, {"skill": "discover", "target": x, "measured": measured(6)}, attack),
        (pid(a, "fusilier_2"), {"skill": "discover", "target": y, "measured": measured(30)}, None),
    ]
    for by, first, then in orders:
        for side, command in (
            (PANO, {"type": "first_skill", "piece": by, "skill": first}),
            (NOMADS, {"type": "aros", "aros": []}),
            (PANO, {"type": "second_skill", "skill": then or {"skill": "idle"}}),
            (NOMADS, {"type": "aros", "aros": []}),
        ):
            assert both(a, b, side, command) == ("accepted",)
            assert_same(a, b, f"{first['target'][:6]} {command['type']}")
        both(a, b, PANO, {"type": "resolve_order", "rolls": {"dice": [20]}})
        ra, rb = a.events()[-1].rolls, b.events()[-1].rolls
        assert [(r.label, r.die, r.value) for r in ra] == [(r.label, r.die, r.value) for r in rb]
        assert_same(a, b, f"failed Discover of {first['target'][:6]}")
        assert x in a.state.pieces
        assert y in a.state.pieces

    # The Nomads' turn: a failed ARO Discover against the Caliban's marker.
    caliban = marker_of(a, "caliban")
    discover_aro = {"piece": fusilier, "aro": "discover", "measured": measured(6)}
    for side, command in (
        (PANO, {"type": "end_turn"}),
        (NOMADS, {"type": "first_skill", "piece": caliban, "skill": {"skill": "cautious_move"}}),
        (PANO, {"type": "aros", "aros": [discover_aro]}),
    ):
        assert both(a, b, side, command) == ("accepted",)
    # The Fusilier's die is PanOceania's: ghillie rolls it, the Nomads may not type it.
    with ghillie_rolls(a, 20), ghillie_rolls(b, 20):
        assert both(a, b, NOMADS, {"type": "resolve_order"}) == ("accepted",)
    assert_same(a, b, "failed ARO Discover")


def test_red_two_worlds_on_the_map_markers_in_the_same_places() -> None:
    """On the map: the same three points, the Zondbot's and the mine's entries swapped.
    The map (tokens, focus), the prompts and a failed Discover read the same."""

    def world(swapped: bool) -> Game:
        game = Game.create(examples.data("camouflage"), seed=4)
        pieces = ["caliban", "mine", "zondbot"] if swapped else list(KEYS)
        points = [[20, 10], [30, 30], [40, 40]]
        markers = [{"piece": k, "at": at} for k, at in zip(pieces, points, strict=True)]
        game.command(NOMADS, {"type": "deploy", "markers": markers})
        game.command(PANO, {"type": "deploy", "markers": [{"piece": "croc_man", "at": [12, 34]}]})
        return game

    a, b = world(False), world(True)
    x = marker_of(a, "zondbot")
    assert x == marker_of(b, "mine")
    assert a.state.pieces[x].public == b.state.pieces[x].public
    assert_same(a, b, "deployed")
    caliban = marker_of(a, "caliban")
    for side, command in (
        (
            NOMADS,
            {"type": "first_skill", "piece": caliban, "skill": {"skill": "move", "to": [21, 12]}},
        ),
        (PANO, {"type": "aros", "aros": [{"piece": "fusilier", "aro": "delay"}]}),
        (NOMADS, {"type": "second_skill", "skill": {"skill": "idle"}}),
        (PANO, {"type": "aros", "aros": []}),
        (NOMADS, {"type": "resolve_order"}),
        (NOMADS, {"type": "end_turn"}),
        (
            PANO,
            {
                "type": "first_skill",
                "piece": "fusilier",
                "skill": {"skill": "discover", "target": x},
            },
        ),
        (NOMADS, {"type": "aros", "aros": []}),
        (PANO, {"type": "second_skill", "skill": {"skill": "idle"}}),
        (NOMADS, {"type": "aros", "aros": []}),
    ):
        assert both(a, b, side, command) == ("accepted",)
        assert_same(a, b, f"after {command['type']}")
    with ghillie_rolls(a, 20), ghillie_rolls(b, 20):  # a map game takes no typed dice
        assert both(a, b, PANO, {"type": "resolve_order"}) == ("accepted",)
    assert_same(a, b, "after a failed Discover")
    assert x in a.state.pieces


def test_red_two_worlds_the_candidates_offered_do_not_depend_on_what_a_marker_hides() -> None:
    a, b = worlds()
    ruleset = a.state.ruleset
    end_turn(a, NOMADS)
    end_turn(b, NOMADS)
    assert ruleset.candidates(a.state, PANO) == ruleset.candidates(b.state, PANO)
    order(a, PANO, pid(a, "fusilier"), {"skill": "move"})
    order(b, PANO, pid(b, "fusilier"), {"skill": "move"})
    assert ruleset.candidates(a.state, PANO) == ruleset.candidates(b.state, PANO)
    assert_same(a, b, "PanOceania's Order waits for the Nomads")


def test_red_two_worlds_caliban_or_lookalike_zondbot_views_while_its_marker_acts() -> None:
    """The Caliban and a Zondbot that looks like it under a marker (S2, Mimetism -3, but
    WIP 9) swap markers, and the Nomads activate that marker: PanOceania's views (prompts
    and all) are the same in both worlds."""
    a, b = worlds(("caliban", "zondbot"), data=alike_data())
    acting = marker_of(a, "caliban")
    both(a, b, NOMADS, {"type": "first_skill", "piece": acting, "skill": {"skill": "move"}})
    assert_same(a, b, "the marker acts")
    both(a, b, PANO, {"type": "aros", "aros": []})
    assert_same(a, b, "the second skill is awaited")


def test_red_odds_of_the_enemys_second_skill_do_not_tell_the_hidden_troopers_wip() -> None:
    a, b = worlds(("caliban", "zondbot"), data=alike_data())
    acting, mine = marker_of(a, "caliban"), marker_of(a, "mine")
    both(a, b, NOMADS, {"type": "first_skill", "piece": acting, "skill": {"skill": "move"}})
    both(a, b, PANO, {"type": "aros", "aros": []})
    assert discover_odds(a, PANO, "second_skill", mine) == discover_odds(
        b, PANO, "second_skill", mine
    )


def test_red_odds_a_side_asks_for_its_own_discover_are_the_same_on_either_marker() -> None:
    a, b = worlds()
    end_turn(a, NOMADS)
    end_turn(b, NOMADS)
    fusilier = pid(a, "fusilier")
    for marker in (marker_of(a, "zondbot"), marker_of(a, "mine")):
        found = discover_odds(a, PANO, "first_skill", marker, piece=fusilier)
        assert found == discover_odds(b, PANO, "first_skill", marker, piece=fusilier)
        assert found["outcomes"][0]["probability"] == "4/5"  # WIP 13 + 3 (0-8"), no Mimetism
    # The second skill of its own Order: the odds of its own trooper.
    order(a, PANO, fusilier, {"skill": "move"})
    order(b, PANO, fusilier, {"skill": "move"})
    aros(a, NOMADS)
    aros(b, NOMADS)
    for marker in (marker_of(a, "zondbot"), marker_of(a, "mine")):
        assert discover_odds(a, PANO, "second_skill", marker) == discover_odds(
            b, PANO, "second_skill", marker
        )


# --- 1b. refusal oracles: a hidden piece is answered like no piece --------------------------


def test_red_a_hidden_trooper_named_by_id_or_key_is_refused_like_no_piece() -> None:
    game = deployed()
    end_turn(game, NOMADS)
    fusilier = pid(game, "fusilier")
    names = {
        "id of the hidden Caliban": pid(game, "caliban"),
        "id of the hidden mine": pid(game, "mine"),
        "key caliban": "caliban",
        "key mine": "mine",
    }
    shapes: dict[str, Callable[[str], dict[str, Any]]] = {
        "target": lambda r: {
            "type": "first_skill",
            "piece": fusilier,
            "skill": {"skill": "bs_attack", "target": r, "measured": measured(8)},
        },
        "discover": lambda r: {
            "type": "first_skill",
            "piece": fusilier,
            "skill": {"skill": "discover", "target": r, "measured": measured(8)},
        },
        "contact": lambda r: {
            "type": "first_skill",
            "piece": fusilier,
            "skill": {"skill": "move", "contact": r},
        },
        "caught": lambda r: {
            "type": "first_skill",
            "piece": fusilier,
            "skill": {
                "skill": "bs_attack",
                "target": pid(game, "moran"),
                "measured": measured(8),
                "caught": [r],
            },
        },
        "impetuous": lambda r: {"type": "impetuous", "piece": r},
        "piece": lambda r: {"type": "first_skill", "piece": r, "skill": {"skill": "move"}},
    }
    for shape, make in shapes.items():
        nothing = tried(game, PANO, make("0" * 32))
        assert nothing[0] == "refused"
        for what, ref in names.items():
            assert tried(game, PANO, make(ref)) == nothing, f"{shape}: {what}"
            odds = odds_for(game.state, PANO, make(ref))
            assert odds == odds_for(game.state, PANO, make("0" * 32)), f"odds {shape}: {what}"


def test_red_an_aro_naming_an_enemy_trooper_or_marker_is_refused_and_changes_nothing() -> None:
    game = deployed()
    order(game, NOMADS, pid(game, "moran"), {"skill": "move"})
    for ref, code in (
        (marker_of(game, "zondbot"), "not_yours"),
        (marker_of(game, "mine"), "not_yours"),
        (pid(game, "moran"), "not_yours"),
        (pid(game, "zondbot"), "unknown_piece"),
        ("zondbot", "unknown_piece"),
        ("mine", "unknown_piece"),
    ):
        got = answer(game, PANO, {"type": "aros", "aros": [{"piece": ref, "aro": "dodge"}]})
        assert got[:2] == ("refused", code)
    assert answer(game, PANO, {"type": "aros", "aros": []}) == ("accepted",)


# --- 1c. hostile and malformed commands --------------------------------------------------------


def _hostile(game: Game) -> list[tuple[str, Any, str]]:
    moran, fusilier = pid(game, "moran"), pid(game, "fusilier")
    croc = marker_of(game, "croc_man")
    attack = {"skill": "bs_attack", "target": fusilier, "measured": measured(8)}
    return [
        (NOMADS, ["not", "a", "command"], "unknown_command"),
        (NOMADS, {"aros": []}, "unknown_command"),
        (NOMADS, {"type": "teleport"}, "unknown_command"),
        (
            NOMADS,
            {"type": "first_skill", "piece": 5, "skill": {"skill": "move"}},
            "malformed_command",
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": moran, "skill": {"skill": "fly"}},
            "malformed_command",
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": moran, "skill": {**attack, "target": [fusilier]}},
            "malformed_command",
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": moran, "skill": {**attack, "caught": [croc] * 11}},
            "malformed_command",
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": moran, "skill": {**attack, "caught": [fusilier]}},
            "wrong_kind",
        ),
        (
            NOMADS,
            {
                "type": "first_skill",
                "piece": moran,
                "skill": {**attack, "caught": [marker_of(game, "mine")]},
            },
            "own_piece",
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": moran, "skill": {**attack, "measured": {"range": -1}}},
            "malformed_command",
        ),
        (
            NOMADS,
            {
                "type": "first_skill",
                "piece": moran,
                "skill": {**attack, "measured": {"range": float("nan")}},
            },
            "malformed_command",
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": moran, "skill": {**attack, "attack": {"burst": 99}}},
            "malformed_command",
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": fusilier, "skill": {"skill": "move"}},
            "not_yours",
        ),
        (NOMADS, {"type": "first_skill", "piece": croc, "skill": {"skill": "move"}}, "not_yours"),
        (
            NOMADS,
            {"type": "first_skill", "piece": marker_of(game, "mine"), "skill": {"skill": "move"}},
            "equipment_takes_no_orders",
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": moran, "skill": {"skill": "move", "contact": croc}},
            "contact_with_marker",
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": moran, "skill": {**attack, "target": croc}},
            "marker_not_discovered",
        ),
        (
            NOMADS,
            {
                "type": "first_skill",
                "piece": moran,
                "skill": {"skill": "discover", "target": fusilier, "measured": measured(8)},
            },
            "not_a_marker",
        ),
        (
            NOMADS,
            {
                "type": "first_skill",
                "piece": moran,
                "skill": {"skill": "discover", "target": croc, "measured": measured(97)},
            },
            "out_of_range",
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": moran, "skill": {"skill": "bs_attack"}},
            "needs_target",
        ),
        (NOMADS, {"type": "second_skill", "skill": {"skill": "move"}}, "not_your_turn"),
        (NOMADS, {"type": "resolve_order", "rolls": {"dice": [1]}}, "not_your_turn"),
        (NOMADS, {"type": "aros", "aros": []}, "not_your_turn"),
        (
            PANO,
            {"type": "first_skill", "piece": fusilier, "skill": {"skill": "move"}},
            "not_your_turn",
        ),
        (PANO, {"type": "saving_rolls"}, "not_your_turn"),
        (PANO, {"type": "end_turn"}, "not_your_turn"),
        (PANO, {"type": "impetuous", "piece": marker_of(game, "zondbot")}, "not_yours"),
        (NOMADS, {"type": "face", "piece": moran, "facing": 90}, "not_your_turn"),
        (NOMADS, {"type": "face", "piece": moran, "facing": 360}, "malformed_command"),
        (NOMADS, {"type": "deploy", "markers": []}, "not_now"),
        ("referee", {"type": "end_turn"}, "unknown_side"),
        (SPECTATOR, {"type": "end_game"}, "unknown_side"),
    ]


def test_red_hostile_commands_are_refused_with_a_stable_code_and_change_nothing() -> None:
    game = deployed()
    for side, command, code in _hostile(game):
        got = answer(game, side, command)
        assert got[:2] == ("refused", code), f"{side} {command}: {got}"


def test_red_hostile_answers_to_a_reaction_window_and_to_the_roll() -> None:
    game = deployed()
    fusilier = pid(game, "fusilier")
    order(game, NOMADS, pid(game, "moran"), {"skill": "move"})
    window = [
        (NOMADS, {"type": "second_skill", "skill": {"skill": "idle"}}, "awaiting_reaction"),
        (PANO, {"type": "end_turn"}, "awaiting_reaction"),
        (PANO, {"type": "retreat"}, "awaiting_reaction"),
        (NOMADS, {"type": "aros", "aros": []}, "not_your_turn"),
        (PANO, {"type": "aros", "aros": "dodge"}, "malformed_command"),
        (
            PANO,
            {"type": "aros", "aros": [{"piece": fusilier, "aro": "dodge"}] * 21},
            "malformed_command",
        ),
        (PANO, {"type": "aros", "aros": [{"piece": fusilier, "aro": "dodge"}] * 2}, "aro_given"),
        (PANO, {"type": "aros", "aros": [{"piece": fusilier, "aro": "move"}]}, "not_an_aro"),
        (PANO, {"type": "aros", "aros": [{"piece": fusilier, "aro": "delay"}]}, "nothing_to_delay"),
        (
            PANO,
            {
                "type": "aros",
                "aros": [{"piece": fusilier, "aro": "discover", "measured": measured(6)}],
            },
            "not_a_marker",
        ),
        (
            PANO,
            {"type": "aros", "aros": [{"piece": fusilier, "aro": "bs_attack"}]},
            "measurement_required",
        ),
    ]
    for side, command, code in window:
        got = answer(game, side, command)
        assert got[:2] == ("refused", code), f"{side} {command}: {got}"
    aros(game, PANO)
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    for dice, code in (
        # The Order (a Move, no ARO) rolls no die: any typed in is one too many.
        ([1, 1], "not_your_die"),
        ([0], "not_your_die"),
        ([21], "not_your_die"),
        ([1] * 41, "malformed_command"),
    ):
        got = answer(game, NOMADS, {"type": "resolve_order", "rolls": {"dice": dice}})
        assert got[:2] == ("refused", code), f"{dice}: {got}"
    assert answer(game, PANO, {"type": "resolve_order"})[:2] == ("refused", "not_your_turn")


def test_red_a_deploy_naming_enemy_or_unknown_pieces_is_refused() -> None:
    game = table_game()
    for markers, code in (
        ([{"piece": "fusilier"}], "not_yours"),
        ([{"piece": "croc_man"}], "unknown_piece"),
        ([{"piece": "caliban"}] * 41, "malformed_command"),
        ([{"piece": "caliban"}, {"piece": "caliban"}, {"piece": "mine"}], "bad_deployment"),
        ([{"piece": k} for k in (*KEYS, "moran")], "bad_deployment"),
        ([{"piece": "caliban", "note": "x" * 201}], "malformed_command"),
    ):
        got = answer(game, NOMADS, {"type": "deploy", "markers": markers})
        assert got[:2] == ("refused", code), f"{markers}: {got}"


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    ("side", "command"),
    [
        (
            PANO,
            {
                "type": "first_skill",
                "piece": "fusilier",
                "skill": {"skill": "move", "to": [INF, 1]},
            },
        ),
        (
            NOMADS,
            {"type": "first_skill", "piece": "moran", "skill": {"skill": "move", "to": [NAN, NAN]}},
        ),
    ],
    ids=["not-your-turn-infinity", "nan-move"],
)
def test_red_non_finite_coordinates_are_refused(side: str, command: dict[str, Any]) -> None:
    game = deployed()
    assert answer(game, side, command)[0] == "refused"


def test_red_non_finite_points_on_the_map_are_refused() -> None:
    game = Game.create(examples.data("camouflage"), seed=3)
    deploy = {"type": "deploy", "markers": [{"piece": "caliban", "at": [NAN, 1]}]}
    assert answer(game, NOMADS, deploy)[0] == "refused"
    game = map_game()
    order(game, NOMADS, "caliban", {"skill": "move", "to": [22, 12]})
    aro = {"type": "aros", "aros": [{"piece": "fusilier", "aro": "dodge", "at": [NAN, NAN]}]}
    assert answer(game, PANO, aro)[0] == "refused"


@pytest.mark.parametrize("die", [2**53 + 1, -(2**70)])
def test_red_enormous_entered_dice_are_refused(die: int) -> None:
    game = deployed()
    assert answer(game, PANO, {"type": "resolve_order", "rolls": {"dice": [die]}})[0] == "refused"
    assert answer(game, NOMADS, {"type": "saving_rolls", "rolls": {"dice": [die]}})[0] == "refused"


@pytest.mark.parametrize(
    ("side", "command"),
    [
        (PANO, {"type": "first_skill", "piece": "\ud800", "skill": {"skill": "move"}}),
        (
            NOMADS,
            {
                "type": "first_skill",
                "piece": "moran",
                "skill": {"skill": "bs_attack", "target": "\udfff"},
            },
        ),
    ],
    ids=["piece", "target"],
)
def test_red_lone_surrogates_in_piece_references_are_refused(
    side: str, command: dict[str, Any]
) -> None:
    game = deployed()
    assert answer(game, side, command)[0] == "refused"


# --- rules holes the enemy can use to uncover markers, or hit hidden troopers ---------------


@pytest.mark.parametrize("skill", ["idle", "move", "cautious_move"])
def test_red_markers_are_caught_only_by_an_attack(skill: str) -> None:
    game = deployed()
    end_turn(game, NOMADS)
    markers = [marker_of(game, k) for k in KEYS]
    with contextlib.suppress(Refusal):
        order(game, PANO, pid(game, "fusilier"), {"skill": skill, "caught": markers})
        aros(game, NOMADS)
        if game.state.board.order is not None and game.state.board.order.stage.value == "second":
            second(game, PANO, {"skill": "idle"})
            aros(game, NOMADS)
        game.command(PANO, {"type": "resolve_order"})
    for key in KEYS:
        assert game.state.known(PANO, pid(game, key)).level is Level.UNKNOWN, key
    assert all(m in game.state.pieces for m in markers)


def test_red_a_recamouflaged_trooper_cannot_be_attacked_without_a_discover() -> None:
    game = recamouflaged_caliban(revealed_caliban())
    caliban = pid(game, "caliban")
    attack = {"skill": "bs_attack", "target": "caliban", "measured": measured(8), "attack": COMBI}
    got = answer(
        game, PANO, {"type": "first_skill", "piece": pid(game, "fusilier"), "skill": attack}
    )
    assert got[0] == "refused", got
    assert game.state.pieces[caliban].public["state"] == "camouflaged"


def test_red_no_contact_with_a_recamouflaged_trooper() -> None:
    game = recamouflaged_caliban(revealed_caliban())
    move = {"skill": "move", "contact": "caliban"}
    got = answer(game, PANO, {"type": "first_skill", "piece": pid(game, "fusilier"), "skill": move})
    assert got[:2] == ("refused", "contact_with_marker"), got


def test_red_on_the_map_an_attack_on_a_recamouflaged_trooper_is_refused() -> None:
    game = map_game()
    order(game, NOMADS, "caliban", {"skill": "look_out"})
    aros(game, PANO)
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    recamouflaged_caliban(game)
    attack = {"skill": "bs_attack", "target": "caliban", "attack": COMBI}
    got = answer(game, PANO, {"type": "first_skill", "piece": "fusilier", "skill": attack})
    assert got[0] == "refused", got


def test_red_a_recamouflaged_trooper_is_discovered_through_its_marker() -> None:
    """Naming the trooper PanOceania watched go back under Marker 5 names that marker
    (INF-A12): the Discover is declared at the marker, and rolled against it."""
    game = recamouflaged_caliban(revealed_caliban())
    discover = {"skill": "discover", "target": "caliban", "measured": measured(6)}
    got = answer(
        game, PANO, {"type": "first_skill", "piece": pid(game, "fusilier"), "skill": discover}
    )
    assert got == ("accepted",)
    assert game.state.board.order is not None
    assert game.state.board.order.first["target"] == marker_of(game, "caliban")


# --- 3. the log and the proof material ----------------------------------------------------------


def _openings(game: Game, observer: str) -> list[list[dict[str, Any]]]:
    return [entry.get("proof", {}).get("openings", []) for entry in view(game, observer)["log"]]


def test_red_openings_appear_only_when_a_marker_is_revealed() -> None:
    game = deployed()
    zond, caliban = marker_of(game, "zondbot"), marker_of(game, "caliban")
    end_turn(game, NOMADS)
    fusilier = pid(game, "fusilier")
    quiet_order(
        game, PANO, fusilier, {"skill": "discover", "target": zond, "measured": measured(6)}, 20
    )
    assert not any(_openings(game, PANO)), "a failed Discover opened something"
    seen = len(game.events())
    quiet_order(
        game,
        PANO,
        pid(game, "fusilier_2"),
        {"skill": "discover", "target": zond, "measured": measured(6)},
        1,
    )
    later = _openings(game, PANO)[seen:]
    assert [[(o["piece"], o["key"]) for o in entry] for entry in later if entry] == [
        [(zond, "hides")]
    ]
    assert later[-1]  # in the event that rolled the Discover only
    assert not any(later[:-1])
    # The Nomads never get openings of their own secrets; the table screen never any.
    assert not any(_openings(game, NOMADS))
    assert not any(_openings(game, SPECTATOR))
    # The end of the game opens every marker still on the table, and no note.
    seen = len(game.events())
    game.command(PANO, {"type": "end_game"})
    opened = {(o["piece"], o["key"]) for entry in _openings(game, PANO)[seen:] for o in entry}
    assert opened == {(caliban, "hides"), (marker_of(game, "mine"), "hides")}
    assert not any(_openings(game, SPECTATOR))


def test_red_the_owners_lines_never_reach_the_enemy_or_the_table_screen() -> None:
    """'Marker n stands for …', a private note, the A02 warning: the owner's alone."""
    canary = "canary-7f3a"
    game = Game.create(examples.data("camouflage"), seed=3)
    points = {"caliban": [22, 22], "zondbot": [34, 20], "mine": [20, 30]}
    markers = [{"piece": k, "at": at, "note": f"{k} {canary}"} for k, at in points.items()]
    game.command(NOMADS, {"type": "deploy", "markers": markers})
    game.command(PANO, {"type": "deploy", "markers": [{"piece": "croc_man", "at": [12, 34]}]})
    numbers = [m.public["number"] for m in game.state.owned(NOMADS, "marker")]
    for observer in (PANO, SPECTATOR):
        text = json.dumps(view(game, observer), ensure_ascii=False)
        for number in numbers:
            assert f"Marker {number} stands for" not in text
        if observer == SPECTATOR:
            assert not re.search(r"Marker \d+ stands for", text)
        for name in ("Zondbot", "Antipersonnel Mine", "Caliban"):
            assert name not in text
        assert canary not in text
    order(game, NOMADS, marker_of(game, "caliban"), {"skill": "look_out"})
    aros(game, PANO)
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    order(game, NOMADS, pid(game, "caliban"), {"skill": "camouflage", "unseen": True})
    assert any(line.startswith("On the map nothing blocks") for line in said(game, NOMADS))
    for observer in (PANO, SPECTATOR):
        lines = said(game, observer)
        assert not any("On the map" in line for line in lines)
        assert not any(f"Marker {n} stands for" in line for n in numbers for line in lines)
        text = json.dumps(view(game, observer), ensure_ascii=False)
        for name in ("Zondbot", "Antipersonnel Mine"):
            assert name not in text
        assert canary not in text


def test_red_the_enemys_note_reaches_it_only_in_its_own_view() -> None:
    """PanOceania's own note on its Croc Man marker: the Nomads and the table never see it."""
    canary = "canary-croc"
    game = table_game()
    game.command(NOMADS, {"type": "deploy", "markers": [{"piece": k} for k in KEYS]})
    game.command(PANO, {"type": "deploy", "markers": [{"piece": "croc_man", "note": canary}]})
    assert canary in json.dumps(view(game, PANO))
    for observer in (NOMADS, SPECTATOR):
        assert canary not in json.dumps(view(game, observer))
    game.command(NOMADS, {"type": "end_game"})
    for observer in (NOMADS, SPECTATOR):
        assert canary not in json.dumps(view(game, observer))


def test_red_a_failed_discover_reads_the_same_on_a_trooper_and_on_a_mine() -> None:
    """§6.2: a failed Discover shows only 'failed' — the same lines, as many, as long."""
    a, b = worlds()
    for game in (a, b):
        end_turn(game, NOMADS)
        quiet_order(
            game,
            PANO,
            pid(game, "fusilier"),
            {"skill": "discover", "target": marker_of(a, "zondbot"), "measured": measured(6)},
            17,
        )
    la, lb = view(a, PANO)["log"][-1], view(b, PANO)["log"][-1]
    assert la["lines"] == lb["lines"]
    assert la["said"] == lb["said"]
    assert len(json.dumps(la["lines"])) == len(json.dumps(lb["lines"]))
    assert la["said"][0]["text"].startswith("Fusilier fails to Discover Marker")


# --- 5. the end of the game, re-entry ---------------------------------------------------------


def test_red_the_end_of_the_game_opens_every_marker_to_the_enemy() -> None:
    game = deployed()
    game.command(PANO, {"type": "end_game"})
    for key in KEYS:
        assert game.state.known(PANO, pid(game, key)).level is Level.IDENTIFIED
    lines = said(game, SPECTATOR)
    for name in ("Caliban", "Zondbot", "Antipersonnel Mine"):
        assert any(line.startswith("Marker") and f"stood for {name}" in line for line in lines)


def test_red_with_recamo_keeps_identity_off_the_trooper_is_unknown_to_commands() -> None:
    game = recamouflaged_caliban(revealed_caliban(**{"inf.recamo_keeps_identity": False}))
    caliban = pid(game, "caliban")
    assert game.state.known(PANO, caliban).level is Level.UNKNOWN
    fusilier = pid(game, "fusilier")
    for ref in ("caliban", caliban):
        for skill in (
            {"skill": "bs_attack", "target": ref, "measured": measured(8)},
            {"skill": "move", "contact": ref},
        ):
            got = answer(game, PANO, {"type": "first_skill", "piece": fusilier, "skill": skill})
            assert got[:2] == ("refused", "unknown_piece")
    for observer in (PANO, SPECTATOR):
        known = view(game, observer)["known"]
        assert caliban not in {k["id"] for k in known}
        assert all(k["facts"] == {} for k in known)


def test_red_with_recamo_keeps_identity_off_no_line_ties_the_new_marker_to_the_trooper() -> None:
    """With the switch off the new marker is an unknown marker: the Long Skill was declared
    by a model in plain view (its log line names it, as the table shows it), but no line
    says which marker replaced which model, and no line names the trooper after that."""
    game = revealed_caliban(**{"inf.recamo_keeps_identity": False})
    order(game, NOMADS, pid(game, "caliban"), {"skill": "camouflage", "unseen": True})
    aros(game, PANO)
    seen = len(game.events())
    game.command(NOMADS, {"type": "resolve_order"})
    lines = [line["text"] for entry in view(game, PANO)["log"][seen:] for line in entry["said"]]
    assert lines == ["A model goes back into Camouflaged State: Marker 5 replaces it."]


# --- smaller rules holes -------------------------------------------------------------------------


def test_red_delay_is_not_an_order_skill() -> None:
    game = deployed()
    got = answer(
        game,
        NOMADS,
        {"type": "first_skill", "piece": pid(game, "moran"), "skill": {"skill": "delay"}},
    )
    assert got[0] == "refused", got


def test_red_the_end_of_the_game_closes_an_open_reaction_window() -> None:
    game = deployed()
    order(game, NOMADS, pid(game, "moran"), {"skill": "move"})
    game.command(PANO, {"type": "end_game"})
    got = view(game, SPECTATOR)
    assert "reaction" not in got
    assert got["status"] == ["The game is over."]


def test_red_a_trooper_out_of_the_game_is_no_target() -> None:
    game = deployed()
    fusilier = pid(game, "fusilier")
    attack = {
        "skill": "bs_attack",
        "target": fusilier,
        "measured": measured(8),
        "attack": {"burst": 3, "ps": 13},
    }
    order(game, NOMADS, pid(game, "moran"), attack)
    aros(game, PANO)
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order", "rolls": {"dice": [1, 1, 1]}})
    game.command(PANO, {"type": "saving_rolls", "rolls": {"dice": [20, 20, 20]}})
    assert game.state.pieces[fusilier].public["state"] == "down"
    got = answer(
        game, NOMADS, {"type": "first_skill", "piece": pid(game, "moran"), "skill": attack}
    )
    assert got[0] == "refused", got
