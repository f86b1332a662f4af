"""The hunters search a square a turn: found, heard next door on a 6, or nothing."""

from __future__ import annotations

import pytest

from ghillie import Refusal

from .play import H, S, last_lines, move, new_game, said, search


def test_a_search_of_the_scouts_square_finds_it_and_opens_its_square() -> None:
    game = new_game(dice=[1])
    move(game, "C4")
    event = search(game, "C4")
    assert said(game, H) == said(game, S) == ["The hunters found the Scout at C4."]
    hunters = game.view(H)
    assert hunters["phase"] == "over"
    assert hunters["board"]["winner"] == H
    scout = next(t for t in hunters["map"]["tokens"] if t["label"] == "Scout")
    assert scout["at"] == [2.5, 3.5]
    assert any(type(e).__name__ == "Open" and e.side == H for e in event.effects)
    assert "The game is over: the hunters found the Scout." in hunters["status"]


@pytest.mark.parametrize(
    ("searched", "face", "heard"),
    [("C5", 6, True), ("B4", 6, True), ("C5", 5, False), ("A1", 6, False)],
)
def test_a_search_next_to_the_scout_hears_it_on_a_6(searched: str, face: int, heard: bool) -> None:
    game = new_game(dice=[face])
    move(game, "C4")
    search(game, searched)
    (line,) = last_lines(game, H)
    assert line["heard"] is heard
    ending = "You hear something nearby." if heard else "You hear nothing."
    assert said(game, H) == [f"{searched} is empty. {ending}"]
    assert (searched in game.view(H)["board"]["heard"]) is heard


def test_every_search_rolls_the_die_and_the_scouts_read_the_same_line_either_way() -> None:
    heard, silent, far = new_game(dice=[6]), new_game(dice=[1]), new_game(dice=[6])
    for game, square in ((heard, "C5"), (silent, "C5"), (far, "A1")):
        move(game, "C4")
        event = search(game, square)
        assert [r.label for r in event.rolls] == ["hear"]
        assert event.rolls[0].secret
    assert said(heard, S) == said(silent, S) == ["The hunters searched C5: empty."]
    assert heard.view(S)["board"] == silent.view(S)["board"]
    assert [set(line) for line in last_lines(heard, H)] == [
        set(line) for line in last_lines(far, H)
    ]


def test_the_scouts_win_when_every_search_comes_up_empty() -> None:
    game = new_game(dice=[1] * 3, **{"ss.searches": 3})
    for square in ("A1", "A2", "A3"):
        move(game, "C3")
        search(game, square)
    view = game.view(H)
    assert view["phase"] == "over"
    assert view["board"]["winner"] == S
    assert said(game, H)[-1] == "The Scout was never found: the scouts win."


def test_naming_the_unseen_scout_as_the_searcher_reads_like_naming_nothing() -> None:
    game = new_game()
    move(game, "C4")
    scout = next(p.id for p in game.state.pieces.values() if p.kind == "scout")
    answers = []
    for ref in (scout, "0" * 32):
        with pytest.raises(Refusal) as refused:
            game.command(H, {"type": "search", "hunter": ref, "square": "A1"})
        answers.append(refused.value.as_dict())
    assert answers[0] == answers[1]
    assert answers[0]["code"] == "unknown_piece"
