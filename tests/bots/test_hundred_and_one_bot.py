"""HundredAndOneBot: its key decisions on hand-built positions, its win rate
against the random bot, and that it only ever answers a move it was offered."""

from __future__ import annotations

import pytest
from tests.bots.head_to_head import head_to_head
from tests.bots.positions import legal_moves, play_checked, preset_options

from croupier.engine.cards import parse_card
from croupier.games.hundred_and_one.notation import parse_notation
from croupier.v1 import game_pb2, service_pb2
from croupier.v1 import hundred_and_one_pb2 as h101
from croupier_client.bots import RandomBot, heuristic_bot
from croupier_client.bots.hundred_and_one import HundredAndOneBot

CLUBS, DIAMONDS, HEARTS = 1, 2, 3
PLAY = h101.HUNDRED_AND_ONE_PHASE_PLAY


def view(
    preset: str,
    hand: list[str],
    top: str,
    active: int,
    sizes: list[int],
    *,
    phase: int = PLAY,
    scores: list[int] | None = None,
    pending: int = 0,
    drawn: str = "",
) -> game_pb2.View:
    """Seat 0's view: its hand, every hand size, the top card and the suit."""
    return game_pb2.View(
        seat=0,
        game="hundred_and_one",
        options=preset_options("hundred_and_one", preset, len(sizes)),
        seats=[game_pb2.Seat(score=s) for s in scores or [0] * len(sizes)],
        hundred_and_one=h101.HundredAndOneView(
            hand=[parse_card(card) for card in hand],
            hand_sizes=sizes,
            stock_size=12,
            discard=[parse_card(top)],
            active_suit=active,  # type: ignore[arg-type]
            phase=phase,  # type: ignore[arg-type]
            pending_draw=pending,
            drawn_card=parse_card(drawn) if drawn else 0,  # type: ignore[arg-type]
        ),
    )


def choice(v: game_pb2.View, texts: list[str]) -> str:
    moves = legal_moves(parse_notation, texts)
    chosen = HundredAndOneBot(game="hundred_and_one", seed=3).choose(v, moves)
    assert any(chosen is move for move in moves)
    return chosen.notation


# -- decisions ---------------------------------------------------------------


def test_sheds_the_high_card_and_keeps_the_nine() -> None:
    # 10♥ scores 10 if the deal is lost, 9♠ scores 0 (C1): shed the ten.
    v = view("hd", ["10H", "9S", "JC"], "9H", HEARTS, [3, 5])
    assert choice(v, ["10H", "9S"]) == "10H"


def test_keeps_the_queen_while_another_card_follows() -> None:
    # K♣ follows the clubs; the Queen is the way out of a suit it cannot
    # follow later, so it stays in hand.
    v = view("hd", ["QH", "KC", "7D"], "9C", CLUBS, [3, 5])
    assert choice(v, ["KC", "QH>C", "QH>D", "QH>H", "QH>S"]) == "KC"


def test_the_ace_first_keeps_the_turn_and_the_ten_goes_out() -> None:
    # Heads up, the ace skips the opponent: A♦ then 10♦ ends the deal, while
    # 10♦ first would leave the ace (11 points) in hand.
    v = view("hd", ["AD", "10D"], "JD", DIAMONDS, [2, 5])
    assert choice(v, ["10D", "AD"]) == "AD"


def test_a_seven_aimed_at_it_is_passed_on() -> None:
    # A5: 7♠ passes the pending 2 cards on instead of drawing them.
    v = view(
        "hd",
        ["7S", "9H", "KD"],
        "7H",
        HEARTS,
        [3, 5],
        phase=h101.HUNDRED_AND_ONE_PHASE_RESPOND,
        pending=2,
    )
    assert choice(v, ["7S", "ACCEPT"]) == "7S"


def test_a_forbidden_finishing_card_is_played_before_the_last_card() -> None:
    # RU, three seats (the ace skips a seat, the turn does not come back):
    # the ace may not be a last card (O25), the nine may, so the ace goes now.
    v = view("ru", ["AC", "9C"], "10C", CLUBS, [2, 5, 5])
    assert choice(v, ["9C", "AC"]) == "AC"


def test_a_queen_names_the_suit_the_hand_holds_most() -> None:
    # Nothing but the Queen follows J♦; naming hearts lets 8♥ and 10♥ follow.
    v = view("hd", ["QS", "8H", "10H", "7C"], "JD", DIAMONDS, [4, 5])
    assert choice(v, ["QS>C", "QS>D", "QS>H", "QS>S"]) == "QS>H"


@pytest.mark.parametrize(("opponent_cards", "expected"), [(1, "8H"), (5, "10H")])
def test_the_deal_end_is_scored_as_the_total_will_settle(
    opponent_cards: int, expected: str
) -> None:
    # CL, total 83. With the opponent on his last card the deal may end now:
    # keeping 10♥ + 8♣ (18) makes exactly 101, reset to 0 (O22), while
    # keeping 8♥ + 8♣ (16) makes 99. Far from the end it sheds the ten.
    v = view("cl", ["10H", "8H", "8C"], "JH", HEARTS, [3, opponent_cards], scores=[83, 20])
    assert choice(v, ["8H", "10H"]) == expected


def test_a_playable_drawn_card_is_played() -> None:
    v = view(
        "hd",
        ["KH", "9H", "7C"],
        "9D",
        DIAMONDS,
        [3, 5],
        phase=h101.HUNDRED_AND_ONE_PHASE_DRAWN,
        drawn="9H",
    )
    assert choice(v, ["9H", "PASS"]) == "9H"


def test_a_view_of_another_game_or_no_move_is_an_error() -> None:
    bot = HundredAndOneBot(seed=1)
    with pytest.raises(ValueError, match="no legal move"):
        bot.choose(view("hd", ["KH"], "9H", HEARTS, [1, 5]), [])
    with pytest.raises(ValueError, match="hundred_and_one view"):
        bot.choose(game_pb2.View(game="uno"), [service_pb2.LegalMove(), service_pb2.LegalMove()])


# -- against the random bot ----------------------------------------------------


def test_beats_the_random_bot_at_the_default_preset() -> None:
    # 60 seeded matches, 2 seats, alternating first seat; measured 0.917.
    result = head_to_head("hundred_and_one", "hd", 60)
    assert result.rate >= 0.75, result


# -- only offered moves --------------------------------------------------------


@pytest.mark.parametrize(("preset", "seats"), [("hd", 2), ("cl", 3), ("ru", 2), ("alt", 4)])
def test_only_offered_moves_are_chosen(preset: str, seats: int) -> None:
    bots = [
        heuristic_bot("hundred_and_one", seat) if seat % 2 == 0 else RandomBot(seed=seat)
        for seat in range(seats)
    ]
    final, moves = play_checked("hundred_and_one", preset, bots, seed=seats)
    assert final.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert moves > 50
