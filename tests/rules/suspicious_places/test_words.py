"""suspicious-places in the players' words: every order and field described, and a piece's
secrets spoken only to its owner and the referee."""

from __future__ import annotations

from ghillie import Game
from ghillie.state import REFEREE, SPECTATOR
from tests.rules.words_check import check_words

from .helpers import KENO, LIANRA, QueuedDice, setup_table, table_data


def test_every_command_and_field_is_in_players_words() -> None:
    check_words("suspicious-places")


def _details(game: Game, observer: str, kind: str) -> list[object]:
    view = game.view(observer)
    pieces = [*view["pieces"], *view.get("known", [])]
    return [p.get("details") for p in pieces if p["kind"] == kind]


def test_what_a_marker_hides_is_spoken_to_its_owner_and_the_referee_only() -> None:
    game = setup_table(table_data(), QueuedDice())
    for observer in (LIANRA, REFEREE):
        assert any(_details(game, observer, "marker")), observer
        assert any(_details(game, observer, "sniper_marker")), observer
    # The spectators see every marker, and must learn no more of them than the enemy does.
    for observer in (KENO, SPECTATOR):
        assert _details(game, observer, "marker"), observer
        assert not any(_details(game, observer, "marker")), observer
        assert not any(_details(game, observer, "sniper_marker")), observer
