"""CountingBot («Сто», One Hundred, 101 with chips): its key decisions on
hand-built positions, its win rate against random bots, and that it only
ever answers a move it was offered."""

from __future__ import annotations

import pytest
from tests.bots.at_the_table import heuristic_at_table
from tests.bots.positions import legal_moves, play_checked, preset_options

from croupier.engine.cards import parse_card
from croupier.games.counting.notation import parse_notation
from croupier.v1 import counting_pb2, game_pb2, service_pb2
from croupier_client.bots import RandomBot, heuristic_bot
from croupier_client.bots.counting import CountingBot

# «Сто» cards already on the pile in the positions below: the look-ahead
# counts them out of the cards the other seats may hold.
STO_PILE = ["10C", "AC", "9H", "8D", "10S", "AD", "9S", "8C", "10D", "JC", "KC"]


def view(
    game: str,
    preset: str,
    hand: list[str],
    total: int,
    sizes: list[int],
    *,
    pile: list[str] | None = None,
    scores: list[int] | None = None,
) -> game_pb2.View:
    """Seat 0's view: its hand, every hand size, the pile and the total."""
    v = game_pb2.View(
        seat=0,
        game=game,
        options=preset_options(game, preset, len(sizes)),
        seats=[game_pb2.Seat(score=s) for s in scores or [1] * len(sizes)],
    )
    getattr(v, game).CopyFrom(
        counting_pb2.CountingView(
            hand=[parse_card(card) for card in hand],
            hand_sizes=sizes,
            stock_size=0 if game == "sto" else 30,
            pile=[parse_card(card) for card in pile or []],
            leftovers_size=2 if game == "sto" else 0,
            total=total,
        )
    )
    return v


def choice(v: game_pb2.View, texts: list[str]) -> str:
    moves = legal_moves(lambda text, seat: parse_notation(v.game, text, seat), texts)
    chosen = CountingBot(game=v.game, seed=7).choose(v, moves)
    assert any(chosen is move for move in moves)
    return chosen.notation


# -- «Сто» -------------------------------------------------------------------


def test_sto_leaves_a_total_on_which_the_next_seat_must_bust() -> None:
    # 95: K♦ makes 99, and no «Сто» card is worth less than 2 (R-C1-02), so
    # the next seat goes over 100; J♥ (97) would let a Jack or Queen through.
    v = view("sto", "seed", ["AS", "JH", "KD"], 95, [3, 3, 4], pile=STO_PILE)
    assert choice(v, ["JH", "KD", "AS"]) == "KD"


def test_sto_busts_by_as_little_as_it_can() -> None:
    # 98 and every card goes over: the penalty is the overshoot (R-C1-05).
    v = view("sto", "seed", ["AS", "10H", "7C"], 98, [3, 3, 4], pile=STO_PILE)
    assert choice(v, ["7C", "10H", "AS"]) == "7C"


def test_sto_spends_its_biggest_card_while_the_total_is_low() -> None:
    # The lead: the ace now, the Jacks, Queens and King for the end.
    hand = ["AS", "JH", "KD", "10C", "7D", "8H", "9C", "QS", "QD", "JS"]
    v = view("sto", "seed", hand, 0, [10, 10, 10])
    assert choice(v, ["7D", "8H", "9C", "10C", "JH", "JS", "QS", "QD", "KD", "AS"]) == "AS"


def test_hundert_makes_exactly_100_to_collect() -> None:
    # Hundert (HUNDERT_CHIPS): A♠ on 89 makes exactly 100, which collects 3
    # chips from each opponent (O-C1-4, C-C-4).
    v = view("sto", "hundert", ["AS", "JH", "7D"], 89, [3, 3, 4], pile=STO_PILE[:9])
    assert choice(v, ["7D", "JH", "AS"]) == "AS"


# -- One Hundred --------------------------------------------------------------


def test_one_hundred_plays_the_only_card_that_does_not_bust() -> None:
    # 97: 9♣, 8♦ and 7♠ go over 100 and put the bot out (R-C2-06); J♥ takes 10 off.
    v = view("one_hundred", "seed", ["9C", "8D", "7S", "JH"], 97, [4, 4, 4], pile=["10C"])
    assert choice(v, ["8D", "9C", "7S", "JH"]) == "JH"


def test_one_hundred_keeps_the_cards_that_hold_the_total() -> None:
    # 20: the King and the four leave the total as it is, which is what a
    # hand needs near 100; the seven is spent now.
    v = view("one_hundred", "seed", ["7C", "6D", "KH", "4S"], 20, [4, 4, 4], pile=["8C"])
    assert choice(v, ["6D", "7C", "KH", "4S"]) == "7C"


# -- 101 with chips -------------------------------------------------------------


def test_chips_101_uses_the_ace_as_11_to_reach_the_limit() -> None:
    # 90: A♥ as 11 makes 101 (legal, A-C3-02), where the opponent needs a 4,
    # 9, 10 or King; the bot keeps its 4 to answer one.
    v = view("chips_101", "seed", ["AH", "4C", "JD"], 90, [3, 3], pile=["8C"])
    assert choice(v, ["4C", "AH+1", "AH+11"]) == "AH+11"


def test_chips_101_keeps_the_ten_that_can_go_down() -> None:
    # pagat, 85: 8♦ (93) is safe now, and the ten (±10, O-C3-3) stays in
    # hand as the card that saves a total near the limit.
    v = view("chips_101", "pagat", ["10H", "7C", "8D"], 85, [3, 3], pile=["8C"])
    assert choice(v, ["7C", "8D", "10H-10", "10H+10"]) == "8D"


def test_chips_101_does_not_spend_its_king_without_a_card_to_follow() -> None:
    # 50: the King (101) would leave 5♣ and J♦, neither playable on 101 if the
    # opponent holds a 4, 9 or King; J♦ keeps the King for later.
    v = view("chips_101", "seed", ["KH", "5C", "JD"], 50, [3, 3], pile=["8C"])
    assert choice(v, ["5C", "JD", "KH"]) == "JD"


def test_a_view_of_another_game_or_no_move_is_an_error() -> None:
    bot = CountingBot(seed=1)
    with pytest.raises(ValueError, match="no legal move"):
        bot.choose(view("sto", "seed", ["AS"], 0, [1, 1, 1]), [])
    with pytest.raises(ValueError, match="counting view"):
        bot.choose(game_pb2.View(game="uno"), [service_pb2.LegalMove(), service_pb2.LegalMove()])


# -- against random bots ---------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "seats", "matches", "least"),
    [
        # 2 seats: a random bot's share is 1/2; measured 0.883.
        ("chips_101", 2, 60, 0.70),
        # 3 seats (the least these games allow): a random bot's share is 1/3;
        # measured 0.633 and 0.911.
        ("sto", 3, 45, 0.50),
        ("one_hundred", 3, 45, 0.70),
    ],
)
def test_beats_random_bots_at_the_default_preset(
    game: str, seats: int, matches: int, least: float
) -> None:
    result = heuristic_at_table(game, "seed", matches, seats)
    assert result.rate >= least, result


# -- only offered moves ------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "preset", "seats"),
    [
        ("sto", "seed", 3),
        ("sto", "hundert", 4),
        ("one_hundred", "seed", 3),
        ("one_hundred", "gamerules", 4),
        ("chips_101", "seed", 2),
        ("chips_101", "pagat", 3),
    ],
)
def test_only_offered_moves_are_chosen(game: str, preset: str, seats: int) -> None:
    bots = [
        heuristic_bot(game, seat) if seat % 2 == 0 else RandomBot(seed=seat)
        for seat in range(seats)
    ]
    final, moves = play_checked(game, preset, bots, seed=seats)
    assert final.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert moves > 10
