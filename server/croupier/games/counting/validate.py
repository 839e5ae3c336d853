"""Is a counting state (or move) well formed? Checked before any rule runs.

Any state that passes is a game (DESIGN.md): a hand-built puzzle position is
as good as a dealt one. Each check names the field that breaks it.
"""

from __future__ import annotations

from croupier.engine.cards import is_suited
from croupier.engine.conservation import check_conservation, holds_exactly
from croupier.engine.errors import InvalidInput
from croupier.games.counting.rules import LIVES, PENALTY_POINTS, STO, Rules, rules_for
from croupier.v1 import counting_pb2 as pb
from croupier.v1 import game_pb2

IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
MATCH_OVER = game_pb2.MATCH_PHASE_MATCH_OVER
# The most one «Сто» deal can move a seat's standing, per opponent: an
# overshoot of 11 (an ace on 100) and the exact-100 payment of 3 (C-C-4).
_MOST_PER_OPPONENT = 14


def validate(state: game_pb2.GameState) -> None:
    """Raise InvalidInput unless the game's part of `state` is consistent."""
    game = state.game
    path = f"state.{game}"
    options = getattr(state.options, game)
    seats = state.seats
    if game == "one_hundred" and options.players != len(seats):
        raise InvalidInput(
            f"state.options.{game}.players",
            f"says {options.players} players but the state has {len(seats)} seats",
        )
    deal: pb.CountingState = getattr(state, game)
    rules = rules_for(state)
    if len(deal.hands) != len(seats):
        raise InvalidInput(
            f"{path}.hands", f"needs one hand per seat ({len(seats)}); got {len(deal.hands)}"
        )
    hands = [h.cards for h in deal.hands]
    if not holds_exactly([*hands, deal.stock, deal.pile, deal.leftovers], rules.deck):
        zones = [(f"{path}.hands[{i}].cards", cards) for i, cards in enumerate(hands)]
        zones += [(f"{path}.stock", deal.stock), (f"{path}.pile", deal.pile)]
        zones += [(f"{path}.leftovers", deal.leftovers)]
        check_conservation(zones, rules.deck, path)
    _check_zones(state, deal, rules, path)
    _check_seats(state, rules)
    _check_total(state, deal, rules, path)
    if deal.dealer >= len(seats):
        raise InvalidInput(f"{path}.dealer", f"seat {deal.dealer} does not exist")
    if state.match.phase == IN_PROGRESS:
        current = state.current_seat
        if seats[current].eliminated:
            raise InvalidInput("state.current_seat", "the seat to act is out of the match")
        if not hands[current]:
            raise InvalidInput("state.current_seat", "the seat to act holds no card")


def _check_zones(
    state: game_pb2.GameState, deal: pb.CountingState, rules: Rules, path: str
) -> None:
    """Where the cards may be: «Сто» deals the pack out, with 32 mod n
    leftovers and no stock; the others have a stock and hands of at most
    hand_size; a seat out of the match holds nothing while a deal is played."""
    seats = len(state.seats)
    if rules.game == STO:
        if deal.stock:
            raise InvalidInput(f"{path}.stock", "«Сто» deals the pack out: there is no stock")
        left = len(rules.deck) % seats
        if len(deal.leftovers) != left:
            raise InvalidInput(
                f"{path}.leftovers",
                f"{seats} seats leave {left} of the 32 cards over; got {len(deal.leftovers)}",
            )
        if deal.reversed:
            raise InvalidInput(f"{path}.reversed", "«Сто» has no card that reverses")
        most = len(rules.deck) // seats
    else:
        if deal.leftovers:
            raise InvalidInput(f"{path}.leftovers", "only «Сто» has leftovers")
        if deal.HasField("exact_hundred_seat"):
            raise InvalidInput(f"{path}.exact_hundred_seat", "only «Сто» with chips has it")
        most = rules.hand_size
    in_play = state.match.phase == IN_PROGRESS
    for i, hand in enumerate(deal.hands):
        if len(hand.cards) > most:
            raise InvalidInput(
                f"{path}.hands[{i}].cards", f"holds {len(hand.cards)} cards; at most {most}"
            )
        if in_play and state.seats[i].eliminated and hand.cards:
            raise InvalidInput(f"{path}.hands[{i}].cards", "a seat out of the match holds no cards")


def _check_seats(state: game_pb2.GameState, rules: Rules) -> None:
    """Seat.score is the match standing (scoring.py); no partnerships."""
    seats = state.seats
    playing = 0
    finished = state.match.deal_number - (1 if state.match.phase == IN_PROGRESS else 0)
    for i, seat in enumerate(seats):
        path = f"state.seats[{i}]"
        if seat.team:
            raise InvalidInput(f"{path}.team", f"no partnerships here: must be 0; got {seat.team}")
        score = seat.score
        if rules.settlement == LIVES:
            if not 0 <= score <= rules.lives:
                raise InvalidInput(
                    f"{path}.score", f"lives (chips) left go from 0 to {rules.lives}; got {score}"
                )
            if seat.eliminated != (score == 0):
                raise InvalidInput(
                    f"{path}.eliminated", "a seat is out of the match exactly when it has 0 left"
                )
        else:
            if seat.eliminated:
                raise InvalidInput(f"{path}.eliminated", "nobody leaves a «Сто» match")
            if rules.settlement == PENALTY_POINTS:
                low, high = 0, 11 * finished
            else:
                high = _MOST_PER_OPPONENT * (len(seats) - 1) * state.match.deal_number
                low = -high
            if not low <= score <= high:
                raise InvalidInput(
                    f"{path}.score",
                    f"{finished} finished deals give {low} to {high}; got {score}",
                )
        playing += not seat.eliminated
    over = state.match.phase == MATCH_OVER
    if rules.settlement == LIVES and (playing == 1) != over:
        raise InvalidInput(
            "state.seats", "the match is over exactly when one seat is left with lives (chips)"
        )
    if rules.game == STO:
        _check_sto_deals(state, rules)


def _check_sto_deals(state: game_pb2.GameState, rules: Rules) -> None:
    match = state.match
    if match.deal_number > rules.deals_per_match:
        raise InvalidInput(
            "state.match.deal_number",
            f"the match has {rules.deals_per_match} deals; got deal {match.deal_number}",
        )
    last = match.deal_number == rules.deals_per_match and match.phase != IN_PROGRESS
    if last != (match.phase == MATCH_OVER):
        raise InvalidInput("state.match.phase", "the match is over exactly after its last deal")


def _check_total(
    state: game_pb2.GameState, deal: pb.CountingState, rules: Rules, path: str
) -> None:
    """In play the total is a safe one; after the deal it may be the bust."""
    total = deal.total
    high = rules.limit if state.match.phase == IN_PROGRESS else rules.highest_total
    low = rules.floor
    if rules.game == STO and rules.leftovers_face_up:
        low = sum(rules.effects[c].adds for c in deal.leftovers)
    if not low <= total <= high:
        raise InvalidInput(f"{path}.total", f"must be from {low} to {high} here; got {total}")
    if deal.HasField("exact_hundred_seat"):
        if not rules.exact_hundred_chips:
            raise InvalidInput(f"{path}.exact_hundred_seat", "only «Сто» with chips has it")
        if deal.exact_hundred_seat >= len(state.seats) or total < 100:
            raise InvalidInput(
                f"{path}.exact_hundred_seat",
                "names a seat of the table, once the total has reached 100",
            )


def check_move_shape(game: str, move: game_pb2.Move) -> None:
    """Raise InvalidInput unless the move is one action with a card of the
    52 (the choice it carries is judged by the rules: RULES.md, Moves)."""
    m = getattr(move, game)
    path = f"move.{game}"
    action = m.WhichOneof("action")
    if action is None:
        raise InvalidInput(path, "needs one action: play or concede")
    if action == "play" and not is_suited(m.play.card):
        raise InvalidInput(
            f"{path}.play.card", f"needs one of the 52 suited cards; got {m.play.card}"
        )
