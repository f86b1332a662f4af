"""The scouts hide the Scout and move it a square a turn, in secret."""

from __future__ import annotations

import pytest

from ghillie import Refusal

from .play import H, S, move, new_game, said


def test_the_hunters_are_told_only_that_the_scout_was_hidden() -> None:
    game = new_game(hide=None)
    game.command(S, {"type": "hide", "square": "C3", "note": "in the hollow"})
    assert said(game, S) == ["You hid the Scout at C3."]
    assert said(game, H) == said(game, "spectator") == ["The scouts hid their Scout."]
    assert "hollow" not in str(game.view(H))
    assert [t["label"] for t in game.view(H)["map"]["tokens"]] == []
    assert game.view(H)["phase"] == "play"


def test_a_step_and_staying_put_read_the_same_to_the_hunters() -> None:
    stepped, stayed = new_game(), new_game()
    move(stepped, "C4")
    move(stayed, "C3")
    assert said(stepped, S) == ["The Scout moved to C4."]
    assert said(stayed, S) == ["The Scout stays at C3."]
    for observer in (H, "spectator"):
        assert said(stepped, observer) == said(stayed, observer) == ["The scouts moved."]
        assert stepped.view(observer)["map"] == stayed.view(observer)["map"]


@pytest.mark.parametrize("square", ["D4", "C5", "A1"])
def test_the_scout_moves_one_square_along_a_row_or_column(square: str) -> None:
    game = new_game()
    with pytest.raises(Refusal) as refused:
        move(game, square)
    assert refused.value.code == "not_a_step"
    assert refused.value.field == "square"


def test_the_scouts_move_then_the_hunters_search_in_turn() -> None:
    game = new_game()
    with pytest.raises(Refusal) as refused:
        game.command(H, {"type": "search", "hunter": "hunter", "square": "A1"})
    assert refused.value.code == "not_your_turn"
    move(game, "B3")
    with pytest.raises(Refusal) as again:
        move(game, "A3")
    assert again.value.code == "not_your_turn"
