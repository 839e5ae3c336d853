"""Is a 101 state (or move) well formed? Checked before any rule runs.

Any state that passes is a game (DESIGN.md): a hand-built puzzle position is
as good as a dealt one. Each check names the field that breaks it.
"""

from __future__ import annotations

from croupier.engine.cards import QUEEN, RANK_OF, SUIT_OF, SUITS, card_text, is_suited
from croupier.engine.conservation import check_conservation, holds_exactly
from croupier.engine.errors import InvalidInput
from croupier.games.hundred_and_one.rules import Rules, rules_for
from croupier.games.hundred_and_one.scoring import (
    LOWEST_DEAL_POINTS,
    lowest_total,
    most_hand_points,
    settle,
)
from croupier.games.hundred_and_one.table import COVER, DEAL_OVER, DRAWN, NAME_SUIT, PLAY, RESPOND
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb

P = "state.hundred_and_one"
_PHASES = (PLAY, DRAWN, COVER, RESPOND, NAME_SUIT, DEAL_OVER)


def validate(state: game_pb2.GameState) -> None:
    """Raise InvalidInput unless the 101 part of `state` is consistent."""
    options = state.options.hundred_and_one
    deal = state.hundred_and_one
    seats = state.seats
    if options.players != len(seats):
        raise InvalidInput(
            "state.options.hundred_and_one.players",
            f"says {options.players} players but the state has {len(seats)} seats",
        )
    if len(deal.hands) != len(seats):
        raise InvalidInput(
            f"{P}.hands", f"needs one hand per seat ({len(seats)}); got {len(deal.hands)}"
        )
    rules = rules_for(options)
    hands = [h.cards for h in deal.hands]
    if not holds_exactly([*hands, deal.stock, deal.discard], rules.deck):
        # Only a broken state pays for naming the fields.
        zones = [(f"{P}.hands[{i}].cards", cards) for i, cards in enumerate(hands)]
        zones += [(f"{P}.stock", deal.stock), (f"{P}.discard", deal.discard)]
        check_conservation(zones, rules.deck, P)
    match_phase = state.match.phase
    in_play = match_phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    playing = 0
    low = lowest_total(rules)
    for i, seat in enumerate(seats):  # one pass over the seats: the hot path reads each once
        if seat.team:
            raise InvalidInput(
                f"state.seats[{i}].team", f"101 has no partnerships: must be 0; got {seat.team}"
            )
        total = seat.score
        if not seat.eliminated:
            playing += 1
            # Between -101 and 100 no reset or bust applies (C8): the common case.
            if low <= total and -101 < total < 100:
                continue
        elif in_play and hands[i]:
            raise InvalidInput(f"{P}.hands[{i}].cards", "a seat out of the match holds no cards")
        _check_total(i, total, seat.eliminated, rules, low)
    if playing < 2 and match_phase != game_pb2.MATCH_PHASE_MATCH_OVER:
        raise InvalidInput("state.seats", "a match in play needs two seats still in it")
    _check_last_deal(state, rules)
    if deal.dealer >= len(seats):
        raise InvalidInput(f"{P}.dealer", f"seat {deal.dealer} does not exist")

    phase = deal.phase
    if phase not in _PHASES:
        raise InvalidInput(f"{P}.phase", f"unknown phase {phase}")
    over = phase == DEAL_OVER
    if over == in_play:
        raise InvalidInput(
            f"{P}.phase", "must be DEAL_OVER exactly when the match phase is not in progress"
        )
    _check_top(deal, phase)
    if not over and seats[state.current_seat].eliminated:
        raise InvalidInput("state.current_seat", "the seat to act is out of the match")
    _check_turn_fields(state, deal, phase, rules)


def _check_total(seat: int, total: int, eliminated: bool, rules: Rules, low: int) -> None:
    """C8: a total is stored settled, so a seat still in the match holds one
    the rules leave standing (nothing above 101, no total a reset would have
    changed, nothing below `low`) and an eliminated seat one that put it out.
    The bounds also keep the next deal's sums far inside sint64."""
    path, high = f"state.seats[{seat}].score", 101 + most_hand_points(rules)
    settled, out = settle(total, rules)
    if not eliminated:
        if out:
            raise InvalidInput(
                path, f"a total of {total} puts a seat out of the match; it is not eliminated"
            )
        if settled != total:
            raise InvalidInput(
                path, f"a total of {total} is reset to {settled} (C8): it never stands"
            )
        if total < low:
            raise InvalidInput(path, f"below the lowest total these options allow ({low})")
    elif not out or settled != total:
        raise InvalidInput(
            path, f"an eliminated seat holds a total that put it out; {total} does not"
        )
    elif not low + LOWEST_DEAL_POINTS <= total <= high:
        raise InvalidInput(
            path, f"no deal takes a total to {total} (the bounds are {low - 40} to {high})"
        )


def _check_last_deal(state: game_pb2.GameState, rules: Rules) -> None:
    """The record of the last finished deal: one winner, points one deal can give."""
    match = state.match
    if len(match.deal_winners) > 1:
        raise InvalidInput(
            "state.match.deal_winners", "a 101 deal has one winner (the seat that went out)"
        )
    if match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS and not match.deal_winners:
        raise InvalidInput("state.match.deal_winners", "a finished deal names its winner")
    if not match.deal_points:
        return
    high = most_hand_points(rules)
    for i, points in enumerate(match.deal_points):
        if not LOWEST_DEAL_POINTS <= points <= high:
            raise InvalidInput(
                f"state.match.deal_points[{i}]",
                f"one deal gives {LOWEST_DEAL_POINTS} to {high} points; got {points}",
            )


def _check_top(deal: pb.HundredAndOneState, phase: int) -> None:
    if not deal.discard:
        if phase != PLAY and phase != DEAL_OVER:
            raise InvalidInput(
                f"{P}.discard", "only a lead (phase PLAY) starts from an empty discard pile"
            )
        if deal.active_suit:
            raise InvalidInput(f"{P}.active_suit", "must be unset while the discard pile is empty")
        return
    top = deal.discard[-1]
    if deal.active_suit not in SUITS:
        raise InvalidInput(
            f"{P}.active_suit", "must name a suit when a card is on the discard pile"
        )
    if RANK_OF[top] != QUEEN and deal.active_suit != SUIT_OF[top]:
        raise InvalidInput(
            f"{P}.active_suit", "must be the top card's suit unless the top is a Queen"
        )


def _check_turn_fields(
    state: game_pb2.GameState, deal: pb.HundredAndOneState, phase: int, rules: Rules
) -> None:
    hand = deal.hands[state.current_seat].cards
    top = deal.discard[-1] if deal.discard else 0
    if phase == DRAWN:
        if deal.drawn_card not in hand:
            raise InvalidInput(f"{P}.drawn_card", "must be a card in the hand of the seat to act")
    elif deal.drawn_card:
        raise InvalidInput(f"{P}.drawn_card", "is set only in phase DRAWN")
    if phase == RESPOND:
        _check_pending(deal, top, rules)
    elif deal.pending_draw:
        raise InvalidInput(f"{P}.pending_draw", "is set only in phase RESPOND")
    if phase == COVER:
        if deal.cover_batch_drawn and not any(rules.covers(c, top, deal.active_suit) for c in hand):
            raise InvalidInput(f"{P}.cover_batch_drawn", "a drawn batch without a cover has lapsed")
    elif deal.cover_batch_drawn:
        raise InvalidInput(f"{P}.cover_batch_drawn", "is set only in phase COVER")
    if deal.cover_restocked and phase != COVER:
        raise InvalidInput(f"{P}.cover_restocked", "is set only in phase COVER")
    if phase == NAME_SUIT and RANK_OF[top] != QUEEN:
        raise InvalidInput(f"{P}.phase", "NAME_SUIT needs a Queen on the discard pile")
    if phase == PLAY and not top and not hand:
        raise InvalidInput(f"{P}.hands", "the seat that leads needs a card")


def _check_pending(deal: pb.HundredAndOneState, top: int, rules: Rules) -> None:
    """§1.3.4: the penalty pending on a transferable 6 or 7 is its own count,
    or with transfer_accumulates at most every transferable card's together."""
    effect = rules.effect.get(top)
    if effect is None or not effect.transferable:
        raise InvalidInput(
            f"{P}.phase", "RESPOND needs a transferable 6 or 7 on top (transfer_6_7)"
        )
    pending, own = deal.pending_draw, effect.draw_next
    if rules.transfer_accumulates:
        most = _whole_chain(rules)
        if not own <= pending <= most:
            raise InvalidInput(
                f"{P}.pending_draw", f"must be from {own} to {most} (a whole chain); got {pending}"
            )
    elif pending != own:
        raise InvalidInput(
            f"{P}.pending_draw", f"must be {own}, the count of {card_text(top)}; got {pending}"
        )


def _whole_chain(rules: Rules) -> int:
    """The most a pending penalty can grow to: every transferable card's count.
    (Not cached: only a state with a pending chain under transfer_accumulates
    asks, and a cache keyed by Rules kept compiled option sets alive after
    rules_for had let them go — fuzz F4.)"""
    return sum(e.draw_next for e in rules.effect.values() if e.transferable)


def check_move_shape(move: game_pb2.Move) -> None:
    """Raise InvalidInput unless the move is one action with the fields it needs:
    a Queen names one of the four suits or none (its own, spelling.py), no
    other card names one."""
    m = move.hundred_and_one
    path = "move.hundred_and_one"
    action = m.WhichOneof("action")
    if action is None:
        raise InvalidInput(path, "needs one action: play, draw, pass, accept or name_suit")
    if action == "play":
        card, suit = m.play.card, m.play.named_suit
        if not is_suited(card):
            raise InvalidInput(f"{path}.play.card", f"needs one of the 52 suited cards; got {card}")
        if RANK_OF[card] == QUEEN:
            # Unset is the Queen's own suit (A28; spelling.py reads it so).
            if suit and suit not in SUITS:
                raise InvalidInput(
                    f"{path}.play.named_suit",
                    f"a Queen names one of the four suits (unset: its own); got {suit}",
                )
        elif suit:
            raise InvalidInput(
                f"{path}.play.named_suit", f"only a Queen names a suit; {card_text(card)} does not"
            )
    elif action == "name_suit" and m.name_suit.suit not in SUITS:
        raise InvalidInput(f"{path}.name_suit.suit", f"needs a suit; got {m.name_suit.suit}")
