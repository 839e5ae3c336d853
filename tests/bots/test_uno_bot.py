"""UnoBot: its key decisions on hand-built positions, its win rate against
the random bot, and that it only ever answers a move it was offered."""

from __future__ import annotations

from typing import Any

import pytest
from tests.bots.head_to_head import head_to_head
from tests.bots.positions import legal_moves, play_checked, preset_options

from croupier.engine.uno_cards import parse_uno_card
from croupier.games.uno.notation import parse_notation
from croupier.v1 import cards_pb2, game_pb2, service_pb2
from croupier.v1 import uno_pb2 as uno
from croupier_client.bots import RandomBot, heuristic_bot
from croupier_client.bots.uno import UnoBot

RED, BLUE = cards_pb2.UNO_COLOR_RED, cards_pb2.UNO_COLOR_BLUE
RESPOND = uno.UNO_PHASE_RESPOND
WILD_DRAW_FOUR = uno.UNO_PENDING_KIND_WILD_DRAW_FOUR


def view(
    hand: list[str],
    discard: list[str],
    colour: int,
    sizes: list[int],
    *,
    preset: str = "seed",
    phase: int = uno.UNO_PHASE_PLAY,
    **fields: Any,
) -> game_pb2.View:
    """Seat 0's view: its hand, every hand size, the pile and the colour."""
    return game_pb2.View(
        seat=0,
        game="uno",
        options=preset_options("uno", preset, len(sizes)),
        seats=[game_pb2.Seat() for _ in sizes],
        uno=uno.UnoView(
            hand=[parse_uno_card(card) for card in hand],
            hand_sizes=sizes,
            stock_size=50,
            discard=[parse_uno_card(card) for card in discard],
            colour=colour,  # type: ignore[arg-type]
            phase=phase,  # type: ignore[arg-type]
            **fields,
        ),
    )


def choice(v: game_pb2.View, texts: list[str]) -> str:
    moves = legal_moves(parse_notation, texts)
    chosen = UnoBot(game="uno", seed=5).choose(v, moves)
    assert any(chosen is move for move in moves)
    return chosen.notation


def wild_draw_four_on(under: str, hand: list[str], opponent_cards: int, **kw: Any) -> game_pb2.View:
    """The opponent (seat 1) just played a Wild Draw Four naming blue on
    `under`; the bot is its target."""
    return view(
        hand,
        [*kw.pop("pile", []), under, "W+4"],
        BLUE,
        [len(hand), opponent_cards],
        phase=RESPOND,
        pending_kind=WILD_DRAW_FOUR,
        pending_count=4,
        challengeable=True,
        top_player=1,
        **kw,
    )


# -- decisions ---------------------------------------------------------------


def test_an_opponent_who_forgot_uno_is_caught() -> None:
    # R8: seat 1 holds one card and did not call; catching him costs him 2.
    v = view(["R5", "G7", "B1"], ["R2"], RED, [3, 1], uno_offender=1, top_player=1)
    assert choice(v, ["R5", "DRAW", "CATCH 1"]) == "CATCH 1"


def test_uno_is_called_with_the_second_to_last_card() -> None:
    v = view(["R5", "G7"], ["R2"], RED, [2, 4])
    assert choice(v, ["R5", "R5 UNO", "DRAW"]) == "R5 UNO"


def test_h15_the_last_card_goes_out_on_the_label_worth_most() -> None:
    # H15 (C-UNO-7): wild "+2" takes 40 off the winner's total, "+1" 20.
    v = view(["R5"], ["R2"], RED, [1, 4])
    assert choice(v, ["R5", "R5 H2O+1", "R5 H2O+2", "DRAW"]) == "R5 H2O+2"


def test_the_wild_is_kept_while_a_coloured_card_plays() -> None:
    v = view(["W", "R5", "B7", "B8"], ["R2"], RED, [4, 4])
    assert choice(v, ["R5", "W>R", "W>Y", "W>G", "W>B", "DRAW"]) == "R5"


def test_a_wild_names_the_colour_held_most() -> None:
    # Two blues against one green: blue.
    v = view(["W", "B7", "B8", "G1"], ["R2"], RED, [4, 4])
    assert choice(v, ["W>R", "W>Y", "W>G", "W>B", "DRAW"]) == "W>B"


def test_an_honest_wild_draw_four_is_played_a_guilty_one_is_not() -> None:
    # R7: without a red card the Wild Draw Four cannot be challenged with
    # success; with R7 in hand it could, and R7 plays anyway.
    honest = view(["W+4", "B7", "B8"], ["R2"], RED, [3, 4])
    assert choice(honest, ["W+4>R", "W+4>Y", "W+4>G", "W+4>B", "DRAW"]) == "W+4>B"
    guilty = view(["W+4", "R7", "B8"], ["R2"], RED, [3, 4])
    assert choice(guilty, ["R7", "W+4>R", "W+4>Y", "W+4>G", "W+4>B", "DRAW"]) == "R7"


def test_a_draw_two_against_an_opponent_about_to_go_out() -> None:
    v = view(["R+2", "R5", "G3"], ["R9"], RED, [3, 1])
    assert choice(v, ["R5", "R+2", "DRAW"]) == "R+2"


def test_high_points_are_shed_first() -> None:
    # R9 and R1 leave the same colours; R9 is worth 9 to a winning opponent.
    v = view(["R9", "R1", "G1"], ["R5"], RED, [3, 2])
    assert choice(v, ["R1", "R9", "DRAW"]) == "R9"


def test_a_wild_draw_four_from_a_big_hand_is_challenged() -> None:
    # Nine cards held besides it, a quarter of the unseen cards red: its
    # player almost surely held red (R7).
    v = wild_draw_four_on("R3", ["G7", "Y8", "G1"], 9)
    assert choice(v, ["ACCEPT", "CHALLENGE"]) == "CHALLENGE"


def test_a_wild_draw_four_that_cannot_be_guilty_is_accepted() -> None:
    # Every red card but those in the bot's hand is on the pile: its player
    # held no red, and a challenge would cost 6 cards instead of 4.
    reds = ["R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]
    pile = reds + reds[1:] + ["RSkip", "RSkip", "RRev", "RRev", "R+2"]
    v = wild_draw_four_on("R+2", ["G7", "Y8", "G1"], 3, pile=pile)
    assert choice(v, ["ACCEPT", "CHALLENGE"]) == "ACCEPT"


def test_a_draw_two_of_the_named_colour_passes_an_honest_looking_wild_draw_four_on() -> None:
    # One card left besides it: its player likely held no red, so U4's
    # answer (B+2, the named colour) beats both accepting and challenging.
    v = wild_draw_four_on("R3", ["G7", "Y8", "B+2"], 1)
    assert choice(v, ["B+2", "ACCEPT", "CHALLENGE"]) == "B+2"


def test_a_view_of_another_game_or_no_move_is_an_error() -> None:
    bot = UnoBot(seed=1)
    with pytest.raises(ValueError, match="no legal move"):
        bot.choose(view(["R1"], ["R2"], RED, [1, 3]), [])
    with pytest.raises(ValueError, match="uno view"):
        bot.choose(game_pb2.View(game="sto"), [service_pb2.LegalMove(), service_pb2.LegalMove()])


# -- against the random bot ----------------------------------------------------


def test_beats_the_random_bot_at_the_default_preset() -> None:
    # 40 seeded matches to 500 points, 2 seats, alternating first seat;
    # measured 1.000.
    result = head_to_head("uno", "seed", 40)
    assert result.rate >= 0.8, result


# -- only offered moves --------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "seats", "options"),
    [
        ("seed", 2, {"target": 200}),
        ("mattel", 3, {"target": 200}),
        # House rules that list more kinds of moves: jump-ins, stacking,
        # exchanges, and every card under the misplay penalty.
        ("seed", 3, {"target": 100, "jump_in": True, "stacking": True, "seven_zero": True}),
        ("mattel", 2, {"target": 100, "misplay_penalty": True, "swap_on_five": True}),
    ],
)
def test_only_offered_moves_are_chosen(preset: str, seats: int, options: dict[str, Any]) -> None:
    bots = [
        heuristic_bot("uno", seat) if seat % 2 == 0 else RandomBot(seed=seat)
        for seat in range(seats)
    ]
    final, moves = play_checked("uno", preset, bots, seed=seats, options=options)
    assert final.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert moves > 50
