"""ambush-fire speaks the game: every command and field in players' words."""

from __future__ import annotations

from tests.rules.words_check import check_words


def test_every_command_and_field_in_players_words() -> None:
    check_words("ambush-fire")
