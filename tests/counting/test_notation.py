"""Canonical move texts (RULES.md, Moves): one text per move, and back."""

from __future__ import annotations

import pytest

from croupier.engine import registry

TEXTS = ["7D", "10H", "AC=73", "AS=0", "AC=-1", "AH+11", "AH+1", "10S-10", "10S+10", "CONCEDE"]


@pytest.mark.parametrize("game", ["sto", "one_hundred", "chips_101"])
@pytest.mark.parametrize("text", TEXTS)
def test_a_text_reads_back_as_the_same_move(game, text) -> None:
    rules = registry.find(game)
    move = rules.parse_notation(text, 2)
    assert move.seat == 2
    assert move.WhichOneof("game_move") == game
    assert rules.notation(move) == text


def test_the_choice_travels_in_its_own_field(table) -> None:
    game = registry.find("one_hundred")
    assert game.parse_notation("AC=73", 0).one_hundred.play.sets_total == 73
    assert game.parse_notation("AH+11", 0).one_hundred.play.adds == 11
    assert game.parse_notation("10S-10", 0).one_hundred.play.adds == -10
    assert game.parse_notation("ah+1", 0).one_hundred.play.adds == 1  # case-insensitive
    assert not game.parse_notation("7D", 0).one_hundred.play.HasField("adds")


@pytest.mark.parametrize("text", ["", "7", "1D", "7D+", "7D=", "AC=73+1", "PASS", "7D=99999999999"])
def test_a_text_that_is_no_move_is_refused(text) -> None:
    with pytest.raises(ValueError):
        registry.find("sto").parse_notation(text, 0)
