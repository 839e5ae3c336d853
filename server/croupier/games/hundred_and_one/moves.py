"""Checking and applying one 101 move, by phase of the turn (C3–C6, §1.3.4).

Each handler either raises IllegalMove with the rule that forbids the move or
changes the table. `legal.py` generates the same moves independently; a
property test holds the two to agreement.
"""

from __future__ import annotations

from collections.abc import Callable

from croupier.engine.cards import QUEEN, RANK_OF, card_text, suit_text
from croupier.engine.errors import IllegalMove
from croupier.games.hundred_and_one.table import COVER, DRAWN, NAME_SUIT, PLAY, RESPOND, Table
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb

A_PLAY = pb.HUNDRED_AND_ONE_ACTION_PLAY
A_DRAW = pb.HUNDRED_AND_ONE_ACTION_DRAW
A_PASS = pb.HUNDRED_AND_ONE_ACTION_PASS
A_ACCEPT = pb.HUNDRED_AND_ONE_ACTION_ACCEPT
A_NAME_SUIT = pb.HUNDRED_AND_ONE_ACTION_NAME_SUIT

R = game_pb2


def apply(state: game_pb2.GameState, move: game_pb2.Move) -> list[game_pb2.Event]:
    """Play `move` on `state` in place, or raise IllegalMove."""
    match_phase = state.match.phase
    if match_phase == game_pb2.MATCH_PHASE_MATCH_OVER:
        raise IllegalMove(R.REJECTION_REASON_MATCH_OVER, "the match is over")
    if match_phase == game_pb2.MATCH_PHASE_DEAL_OVER:
        raise IllegalMove(R.REJECTION_REASON_DEAL_OVER, "the deal is over: call NextDeal")
    if move.seat != state.current_seat:
        raise IllegalMove(
            R.REJECTION_REASON_NOT_YOUR_TURN,
            f"seat {state.current_seat} is to act, not seat {move.seat}",
        )
    table = Table(state)
    _HANDLERS[table.deal.phase](table, move.seat, move.hundred_and_one)
    return table.events


def _hold(table: Table, seat: int, card: int) -> None:
    if card not in table.hand(seat):
        raise IllegalMove(
            R.REJECTION_REASON_CARD_NOT_IN_HAND, f"{card_text(card)} is not in the hand"
        )


def _suit_only_on_queen(card: int, suit: int) -> None:
    if suit and RANK_OF[card] != QUEEN:
        raise IllegalMove(
            R.REJECTION_REASON_ONLY_QUEEN_NAMES_SUIT,
            f"only a Queen names a suit; {card_text(card)} cannot name {suit_text(suit)}",
        )


def _not_matching(table: Table, card: int) -> IllegalMove:
    return IllegalMove(
        R.REJECTION_REASON_MUST_FOLLOW_SUIT_OR_RANK,
        f"{card_text(card)} follows neither the active suit {suit_text(table.deal.active_suit)} "
        f"nor the rank of {card_text(table.top)} (C2)",
    )


def _play_phase(table: Table, seat: int, m: pb.HundredAndOneMove) -> None:
    """C3: play a legal card; draw only without one (or with voluntary_draw)."""
    if m.action == A_PLAY:
        _hold(table, seat, m.card)
        _suit_only_on_queen(m.card, m.suit)
        if not table.playable(m.card):
            raise _not_matching(table, m.card)
        table.play(seat, m.card, m.suit)
    elif m.action == A_DRAW:
        if not table.top and table.hand(seat):
            raise IllegalMove(R.REJECTION_REASON_MUST_PLAY_LEGAL_CARD, "the leader leads a card")
        if not table.rules.voluntary_draw and any(table.playable(c) for c in table.hand(seat)):
            raise IllegalMove(
                R.REJECTION_REASON_MUST_PLAY_LEGAL_CARD,
                "a player holding a legal card must play (voluntary_draw is off, C3.1)",
            )
        _draw_for_turn(table, seat)
    elif m.action == A_PASS:
        raise IllegalMove(R.REJECTION_REASON_MUST_DRAW_BEFORE_PASSING, "draw before passing (C3.4)")
    else:
        _nothing_pending(m.action)


def _draw_for_turn(table: Table, seat: int) -> None:
    drawn = table.draw(seat, 1)
    if not drawn:
        table.pass_turn(seat)  # C3.5: nothing left to draw ends the turn
        return
    table.deal.phase = DRAWN  # type: ignore[assignment]
    table.deal.drawn_card = drawn[0]  # type: ignore[assignment]


def _drawn_phase(table: Table, seat: int, m: pb.HundredAndOneMove) -> None:
    """C3.3: after a draw only the drawn card may be played, or the turn passed."""
    drawn = table.deal.drawn_card
    legal = table.playable(drawn)
    until = table.rules.draw_until_playable
    if m.action == A_PLAY:
        _hold(table, seat, m.card)
        if m.card != drawn:
            raise IllegalMove(
                R.REJECTION_REASON_ONLY_DRAWN_CARD_PLAYABLE,
                f"after drawing only the drawn {card_text(drawn)} may be played (C3.3)",
            )
        _suit_only_on_queen(m.card, m.suit)
        if not legal:
            raise _not_matching(table, m.card)
        table.play(seat, m.card, m.suit)
    elif m.action == A_DRAW:
        if until and not legal:
            _draw_for_turn(table, seat)
        elif until:
            raise IllegalMove(
                R.REJECTION_REASON_MUST_PLAY_DRAWN_CARD,
                f"the drawn {card_text(drawn)} is legal and must be played (UNTIL_PLAYABLE)",
            )
        else:
            raise IllegalMove(R.REJECTION_REASON_ALREADY_DRAWN, "one draw per turn (C3.4)")
    elif m.action == A_PASS:
        if until and not legal:
            raise IllegalMove(
                R.REJECTION_REASON_MUST_DRAW_BEFORE_PASSING,
                "keep drawing until a legal card comes (draw_rule UNTIL_PLAYABLE)",
            )
        if legal and (until or table.rules.must_play_drawn):
            raise IllegalMove(
                R.REJECTION_REASON_MUST_PLAY_DRAWN_CARD,
                f"the drawn {card_text(drawn)} is legal and must be played",
            )
        table.pass_turn(seat)
    else:
        _nothing_pending(m.action)


def _cover_phase(table: Table, seat: int, m: pb.HundredAndOneMove) -> None:
    """C6: cover the top card; without a cover, draw until one comes."""
    top = card_text(table.top)
    if m.action == A_PLAY:
        _hold(table, seat, m.card)
        _suit_only_on_queen(m.card, m.suit)
        if not table.covering(m.card):
            raise IllegalMove(
                R.REJECTION_REASON_MUST_COVER,
                f"{card_text(m.card)} does not cover {top}: same suit, same rank or a Queen (C6)",
            )
        table.play(seat, m.card, m.suit)
    elif m.action == A_DRAW:
        hand = table.hand(seat)
        if any(table.covering(c) for c in hand):
            raise IllegalMove(
                R.REJECTION_REASON_MUST_COVER, f"a card in the hand covers {top} (C6.1)"
            )
        if table.rules.eight_draw_three:
            if table.deal.cover_batch_drawn:
                raise IllegalMove(
                    R.REJECTION_REASON_ALREADY_DRAWN, "the batch of three was drawn (O14)"
                )
            table.draw(seat, 3)
            table.deal.cover_batch_drawn = True
            if not any(table.covering(c) for c in hand):
                table.cover_lapsed(seat)  # O14 THREE: no cover in the batch, the duty lapses
        elif not table.draw(seat, 1):
            table.cover_lapsed(seat)  # C6.3: stock and restock dry
    else:
        raise IllegalMove(R.REJECTION_REASON_MUST_COVER, f"{top} must be covered first (C6)")


def _respond_phase(table: Table, seat: int, m: pb.HundredAndOneMove) -> None:
    """§1.3.4: accept the pending 6/7, or pass it on with a matching 6 or 7."""
    deal = table.deal
    if m.action == A_ACCEPT:
        count = deal.pending_draw
        table.draw(seat, count)
        table.skip(seat)
    elif m.action == A_PLAY and RANK_OF[m.card] in (6, 7):
        _hold(table, seat, m.card)
        _suit_only_on_queen(m.card, m.suit)
        if not table.playable(m.card):
            raise _not_matching(table, m.card)
        pending = deal.pending_draw
        deal.pending_draw = 0
        table.play(seat, m.card, m.suit, pending_before=pending)
    else:
        raise IllegalMove(
            R.REJECTION_REASON_MUST_RESPOND_TO_PENALTY,
            f"accept the {deal.pending_draw}-card penalty or pass it on with a 6 or 7 (§1.3.4)",
        )


def _name_suit_phase(table: Table, seat: int, m: pb.HundredAndOneMove) -> None:
    """A24: the dealer names the suit of his upcard Queen before anyone plays."""
    if m.action != A_NAME_SUIT:
        raise IllegalMove(
            R.REJECTION_REASON_MUST_NAME_SUIT, "name the suit of the upcard Queen first"
        )
    table.deal.active_suit = m.suit  # type: ignore[assignment]
    table.emit(game_pb2.EVENT_KIND_SUIT_NAMED, seat, suit=m.suit)
    table.turn_to(table.next_of(seat))


def _nothing_pending(action: int) -> None:
    if action == A_ACCEPT:
        raise IllegalMove(R.REJECTION_REASON_NO_PENALTY_TO_ACCEPT, "there is no penalty to accept")
    raise IllegalMove(R.REJECTION_REASON_NO_SUIT_TO_NAME, "there is no suit to name now")


_HANDLERS: dict[int, Callable[[Table, int, pb.HundredAndOneMove], None]] = {
    PLAY: _play_phase,
    DRAWN: _drawn_phase,
    COVER: _cover_phase,
    RESPOND: _respond_phase,
    NAME_SUIT: _name_suit_phase,
}
