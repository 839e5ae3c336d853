"""The action numbering's sizes and bounds (croupier/rl/games/__init__.py).

Stable vocabularies have the sizes their docstrings derive. Scala 40 and
«Мост» index the listing, bounded by N: a position listing more is refused
(ActionBoundExceeded), never cut short; and crafted, legal positions show
why N is large — far above what random play ever lists.
"""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.cards import parse_card
from croupier.engine.session import Session
from croupier.rl import raw_env
from croupier.rl.actions import ActionBoundExceeded
from croupier.rl.games import LISTING_BOUNDS
from croupier.v1 import game_pb2, service_pb2
from rl.tables import random_episode

_PLAY_PHASE = 2  # Scala40Phase.PLAY and MostPhase.PLAY


def test_stable_vocabulary_sizes() -> None:
    # 101: 48 cards, 4 Queens x 4 suits named, DRAW PASS ACCEPT, NAME x 4; + DECLINE.
    assert raw_env(game="hundred_and_one", preset="hd").actions.size == 48 + 16 + 3 + 4 + 1
    # UNO at 2 seats: plays and jump-ins of 52 coloured cards and of W, W+4
    # with 4 colours, each without and with "UNO!"; DRAW PASS ACCEPT CHALLENGE
    # UNO, CATCH +1, SLAP TIME, REPORT +1, GIVE x 54 cards, COLOUR x 4, READY; + DECLINE.
    plays = (52 + 2 * 4) * 2
    assert (
        raw_env(game="uno", preset="seed").actions.size
        == 2 * plays + 5 + 1 + 2 + 1 + 54 + 4 + 1 + 1
    )
    # H6 adds a 5's exchange with each other seat and each card (and H3 a 7's swap).
    wide = raw_env(game="uno", preset="seed", seats=3, options={"swap_on_five": True})
    assert wide.actions.size > 2 * 4 * 2 * 2 * 54
    # «Сто»: 32 cards, no choices, and CONCEDE; + DECLINE.
    assert raw_env(game="sto", preset="seed", seats=3).actions.size == 32 + 1 + 1


def crafted(game: str, preset: str, hand: str) -> game_pb2.GameState:
    """A legal state where the seat to act, in its play phase, holds `hand`
    (every other card where the deal put it, swapped with the stock)."""
    session = Session.new(game, preset=preset, seat_count=2, seed=1)
    while getattr(session.state, game).phase != _PLAY_PHASE:
        session.play(session.legal_moves(session.acting_seats[0])[0])
    state = game_pb2.GameState()
    state.CopyFrom(session.state)
    deal = getattr(state, game)
    seat = state.current_seat
    own, stock = deal.hands[seat].cards, deal.stock
    stock.extend(own)
    del own[:]
    wanted = [parse_card(text) for text in hand.split()]
    for value in wanted:
        for place in [stock, *(h.cards for h in deal.hands)]:
            if value in place and place is not own:
                break
        else:
            raise AssertionError(f"{value} is nowhere to take")
        if place is not stock:  # another hand: it gets a stock card instead
            spare = next(c for c in stock if c not in wanted)
            place[list(place).index(value)] = spare
            stock.remove(spare)
            stock.append(value)
        stock.remove(value)
        own.append(value)
    if deal.drawn_card:  # the card drawn this turn is one of the hand's
        deal.drawn_card = wanted[-1]
    api.check_state(state)  # legal: conservation, sizes, acting seats
    return state


def listing(state: game_pb2.GameState) -> int:
    request = service_pb2.ListLegalMovesRequest(state=state, seat=state.current_seat)
    return len(api.list_legal_moves(request).moves)


def test_crafted_hands_list_far_more_than_random_play() -> None:
    """Random play lists at most 33 Scala 40 moves and 139 «Мост» moves in a
    position (README); hands rich in jokers list hundreds or thousands, so N
    is set well above them."""
    scala40 = crafted("scala40", "fisc", "RJ RJ BJ BJ 2H 3H 4H 5H 6H 7H 8H 9H 10H JH")
    assert 150 < listing(scala40) <= LISTING_BOUNDS["scala40"]
    most = crafted("most", "seed", "RJ BJ 2H 3H 4H 5H 6H 7H 8H 9H 10H")
    assert 1024 < listing(most) <= LISTING_BOUNDS["most"]


def test_a_listing_beyond_the_bound_is_refused_not_cut() -> None:
    env = raw_env(game="scala40", preset="fisc", seats=2, max_actions=3)
    with pytest.raises(ActionBoundExceeded, match="more than the 3 actions .* larger max_actions"):
        random_episode(env, 1, max_steps=200)
