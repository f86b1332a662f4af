"""camouflage on ghillie's map: ranges measured between the points each skill and ARO is
declared at, cover read from the terrain, entered values refused (RULES-SPEC §5.6)."""

from __future__ import annotations

import pytest

from ghillie import Game, examples, registry
from ghillie.forms import describe
from ghillie.rules.camouflage import map as camouflage_map
from ghillie.view import view
from ghillie.words import speaker

from .helpers import NOMADS, PANO, aros, ghillie_rolls, last_said, marker_of, pid, refused, second

SHOTGUN = {"weapon": "Boarding Shotgun", "burst": 2, "range_mod": 6, "ps": 6}
COMBI = {"weapon": "Combi Rifle", "burst": 1, "range_mod": 3, "ps": 5}
# The Caliban waits at (22, 10); the crates (soft cover) are x 20-26, y 20-24.
PLACES = {"caliban": [22, 10], "zondbot": [34, 20], "mine": [20, 30]}


def on_the_map() -> Game:
    game = Game.create(examples.data("camouflage"), seed=5)
    game.command(
        NOMADS,
        {"type": "deploy", "markers": [{"piece": k, "at": at} for k, at in PLACES.items()]},
    )
    game.command(PANO, {"type": "deploy", "markers": [{"piece": "croc_man", "at": [12, 34]}]})
    return game


@pytest.mark.spec("INF-T01")
def test_INF_T01_on_the_map_each_shot_is_measured_from_its_own_points() -> None:
    game = on_the_map()
    fusilier = pid(game, "fusilier")  # at (24, 40)
    game.command(
        NOMADS,
        {
            "type": "first_skill",
            "piece": marker_of(game, "caliban"),
            "skill": {"skill": "move", "to": [22, 22]},  # into the crates: soft cover
        },
    )
    aros(game, PANO, {"piece": fusilier, "aro": "delay"})
    second(game, NOMADS, {"skill": "bs_attack", "target": fusilier, "attack": SHOTGUN})
    # The Fusilier shoots at a point of the route before the Cover: (22, 16), in the open.
    off_route = {"piece": fusilier, "aro": "bs_attack", "at": [30, 16], "attack": COMBI}
    assert refused(game, PANO, {"type": "aros", "aros": [off_route]}).code == "not_on_route"
    entered = {"piece": fusilier, "aro": "bs_attack", "measured": {"range": 5}, "attack": COMBI}
    assert refused(game, PANO, {"type": "aros", "aros": [entered]}).code == "measured_by_map"
    aros(game, PANO, {"piece": fusilier, "aro": "bs_attack", "at": [22, 16], "attack": COMBI})
    with ghillie_rolls(game, 3, 4, 9):  # a map game takes no typed dice
        game.command(NOMADS, {"type": "resolve_order"})
    # The Caliban from (22, 22) to the Fusilier at (24, 40): 18.11"; BS 11 + 6 = 17.
    # The Fusilier from (24, 40) to (22, 16): 24.08"; BS 12 + 3 - 3 (Mimetism) = 12, and no
    # Cover there. Its 9 beats the Caliban's 3 and 4.
    lines = last_said(game, PANO)
    assert (
        'Face to Face Roll: Caliban rolls 3, 4 needing 17 or less (range 18.11"), Fusilier '
        'rolls 9 needing 12 or less (range 24.08").'
    ) in lines
    assert "Fusilier hits Caliban once." in lines
    assert game.state.pieces[pid(game, "caliban")].public["at"] == [22, 22]


def test_on_the_map_a_discover_reads_the_cover_from_the_terrain() -> None:
    game = on_the_map()
    game.command(NOMADS, {"type": "end_turn"})
    mine = marker_of(game, "mine")  # at (20, 30), in the open
    seraph = pid(game, "seraph")  # at (34, 44)
    game.command(
        PANO,
        {"type": "first_skill", "piece": seraph, "skill": {"skill": "discover", "target": mine}},
    )
    aros(game, NOMADS)
    second(game, PANO, {"skill": "idle"})
    aros(game, NOMADS)
    with ghillie_rolls(game, 14):
        game.command(PANO, {"type": "resolve_order"})
    # 19.8" away: WIP 13 + 0, no Mimetism, no cover: 13 or less; 14 fails.
    assert last_said(game, NOMADS)[0].startswith("Seraph fails to Discover Marker")
    assert "needing 13 or less" in last_said(game, NOMADS)[0]


def _routes(game: Game, observer: str) -> list[list[list[float]]]:
    """The routes drawn on ``observer``'s map, each as its points."""
    lines = view(game, observer)["map"].get("lines", [])
    return [line["points"] for line in lines if line["name"] == "route"]


@pytest.mark.spec("INF-R12")
def test_INF_R12_the_reacting_side_sees_the_route_it_answers_and_no_more() -> None:
    """Infinity declares each skill aloud and measures the move on the table: the reacting
    side sees the route the marker declared, the second skill's part of it only once that
    skill is declared, and no route once the move is carried out."""
    game = on_the_map()
    fusilier = pid(game, "fusilier")
    assert _routes(game, PANO) == []  # no Order under way
    game.command(
        NOMADS,
        {
            "type": "first_skill",
            "piece": marker_of(game, "caliban"),
            "skill": {"skill": "move", "to": [22, 16]},
        },
    )
    first_leg = [[22, 10], [22, 16]]
    for observer in (PANO, NOMADS, "spectator", "referee"):
        assert _routes(game, observer) == [first_leg], observer
    # The marker still stands where it started; the route shows where it goes.
    caliban = marker_of(game, "caliban")
    token = next(t for t in view(game, PANO)["map"]["tokens"] if t.get("id") == caliban)
    assert token["at"] == [22, 10]
    legend = [entry["words"] for entry in view(game, PANO)["map"]["legend"]]
    assert "The route of the Order under way: an ARO answers a point of it" in legend
    aros(game, PANO, {"piece": fusilier, "aro": "delay"})
    assert _routes(game, PANO) == [first_leg]  # nothing of a second skill yet
    second(game, NOMADS, {"skill": "move", "to": [22, 22]})
    assert _routes(game, PANO) == [[*first_leg, [22, 22]]]
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    assert _routes(game, PANO) == []  # carried out: the marker stands at its end


@pytest.mark.spec("INF-R12")
def test_INF_R12_an_aro_point_on_the_drawn_route_is_taken_and_one_beside_it_refused() -> None:
    """The route drawn is exactly the route an ARO's point must lie on."""
    game = on_the_map()
    seraph = pid(game, "seraph")
    game.command(
        NOMADS,
        {
            "type": "first_skill",
            "piece": marker_of(game, "caliban"),
            "skill": {"skill": "move", "to": [22, 22]},
        },
    )
    ((start, _end),) = _routes(game, PANO)
    beside = {"piece": seraph, "aro": "dodge", "at": [start[0] + 0.3, 16]}
    assert refused(game, PANO, {"type": "aros", "aros": [beside]}).code == "not_on_route"
    aros(game, PANO, {"piece": seraph, "aro": "dodge", "at": [start[0], 16]})
    assert game.state.board.order.aros[seraph]["at"] == [22, 16]


def test_an_aro_point_snaps_to_the_route_and_says_what_empty_means() -> None:
    ask = describe(registry.get("camouflage"), speaker("camouflage"))["aros"]["fields"]["aros.at"]
    assert ask["snap"] == "route"
    assert "Left empty, the ARO answers the end of the route" in ask["help"]


@pytest.mark.spec("INF-R12")
def test_INF_R12_no_route_is_drawn_of_a_piece_the_reader_cannot_see() -> None:
    """The route is drawn on the map of whoever sees what takes it, and only there (none can
    be unseen in this ruleset today: the guard keeps it so if one ever can)."""
    game = on_the_map()
    caliban = marker_of(game, "caliban")
    game.command(
        NOMADS,
        {"type": "first_skill", "piece": caliban, "skill": {"skill": "move", "to": [22, 16]}},
    )
    assert [line.name for line in camouflage_map._route(game.state, {caliban})] == ["route"]
    assert camouflage_map._route(game.state, set()) == []
