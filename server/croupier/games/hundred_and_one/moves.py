"""Checking and applying one 101 move, by phase of the turn (C3–C6, §1.3.4).

Each handler either raises IllegalMove with the rule that forbids the move or
changes the table. `legal.py` generates the same moves independently; a
property test holds the two to agreement.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from croupier.engine.cards import QUEEN, RANK_OF, SUIT_OF, card_text, suit_text
from croupier.engine.errors import IllegalMove
from croupier.games.hundred_and_one.rules import NO_EFFECT
from croupier.games.hundred_and_one.table import COVER, DRAWN, NAME_SUIT, PLAY, RESPOND, Table
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb

Why = pb.HundredAndOneRejectionReason
Action = pb.HundredAndOneMove


def apply(state: game_pb2.GameState, move: game_pb2.Move) -> Sequence[game_pb2.Event]:
    """Play `move` of the seat to act on `state` in place, or raise IllegalMove.

    The engine has already refused a move of a seat that may not act, or
    made after the deal or match ended.
    """
    table = Table(state)
    m = move.hundred_and_one
    _HANDLERS[table.deal.phase](table, move.seat, m.WhichOneof("action"), m)
    return table.events


def _hold(table: Table, seat: int, card: int) -> None:
    if card not in table.hand(seat):
        raise IllegalMove(
            game_pb2.REJECTION_REASON_CARD_NOT_IN_HAND,
            f"{card_text(card)} is not in the hand",
            "C3",
            common=True,
        )


def _not_matching(table: Table, card: int) -> IllegalMove:
    return IllegalMove(
        Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_FOLLOW_SUIT_OR_RANK,
        f"{card_text(card)} follows neither the active suit "
        f"{suit_text(table.deal.active_suit)} nor the rank of {card_text(table.top)}",
        "C2",
    )


def _play_phase(table: Table, seat: int, action: str, m: Action) -> None:
    """C3: play a legal card; draw only without one (or with voluntary_draw)."""
    if action == "play":
        card = m.play.card
        _hold(table, seat, card)
        if not table.playable(card):
            raise _not_matching(table, card)
        plain = _plain_first_card(table)
        if plain and RANK_OF[card] == QUEEN and m.play.named_suit != SUIT_OF[card]:
            raise IllegalMove(
                Why.HUNDRED_AND_ONE_REJECTION_REASON_NO_SUIT_TO_NAME,
                f"the dealer's first card is plain (upcard_effects off): {card_text(card)} "
                "keeps its own suit",
                "O5",
            )
        table.play(seat, card, m.play.named_suit, plain=plain)
    elif action == "draw":
        if not table.top and table.hand(seat):
            raise IllegalMove(
                Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_PLAY_LEGAL_CARD,
                "the leader leads a card",
                "C3.1",
            )
        if any(table.playable(c) for c in table.hand(seat)):
            if not table.rules.voluntary_draw:
                raise IllegalMove(
                    Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_PLAY_LEGAL_CARD,
                    "a player holding a legal card must play it (voluntary_draw is off)",
                    "C3.1",
                )
            if not table.deal.stock and len(table.discard) < 2:
                # A37: a draw that finds nothing would be a pass (C3.4); the
                # empty draw of C3.5 is only for a player who must draw.
                raise IllegalMove(
                    Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_PLAY_LEGAL_CARD,
                    "nothing is left to draw: a player holding a legal card must play it",
                    "C3.4",
                )
        _draw_for_turn(table, seat)
    elif action == "pass":
        raise IllegalMove(
            Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_DRAW_BEFORE_PASSING,
            "draw before passing",
            "C3.4",
        )
    else:
        _nothing_pending(action)


def _plain_first_card(table: Table) -> bool:
    """O5 off (§1.4.1): the dealer's first card, chosen under first_move_any,
    is a plain starting card like an upcard would be: no effect, and a Queen
    keeps its own suit. A LEAD_ANY lead acts in full (§1.3.1)."""
    rules = table.rules
    return not table.top and not rules.lead_any and not rules.upcard_effects


def _draw_for_turn(table: Table, seat: int) -> None:
    drawn = table.draw(seat, 1)
    if not drawn:
        table.pass_turn(seat)  # C3.5: nothing left to draw ends the turn
        return
    table.deal.phase = DRAWN  # type: ignore[assignment]
    table.deal.drawn_card = drawn[0]  # type: ignore[assignment]


def _drawn_phase(table: Table, seat: int, action: str, m: Action) -> None:
    """C3.3: after a draw only the drawn card may be played, or the turn passed."""
    drawn = table.deal.drawn_card
    legal = table.playable(drawn)
    until = table.rules.draw_until_playable
    if action == "play":
        card = m.play.card
        _hold(table, seat, card)
        if card != drawn:
            raise IllegalMove(
                Why.HUNDRED_AND_ONE_REJECTION_REASON_ONLY_DRAWN_CARD_PLAYABLE,
                f"after drawing only the drawn {card_text(drawn)} may be played",
                "C3.3",
            )
        if not legal:
            raise _not_matching(table, card)
        table.play(seat, card, m.play.named_suit)
    elif action == "draw":
        if until and not legal:
            _draw_for_turn(table, seat)
        elif until:
            raise IllegalMove(
                Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_PLAY_DRAWN_CARD,
                f"the drawn {card_text(drawn)} is legal and must be played (draw_rule "
                "UNTIL_PLAYABLE)",
                "O7",
            )
        else:
            raise IllegalMove(
                Why.HUNDRED_AND_ONE_REJECTION_REASON_ALREADY_DRAWN, "one draw per turn", "C3.4"
            )
    elif action == "pass":
        if until and not legal:
            raise IllegalMove(
                Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_DRAW_BEFORE_PASSING,
                "keep drawing until a legal card comes (draw_rule UNTIL_PLAYABLE)",
                "O7",
            )
        if legal and (until or table.rules.must_play_drawn):
            raise IllegalMove(
                Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_PLAY_DRAWN_CARD,
                f"the drawn {card_text(drawn)} is legal and must be played",
                "O7" if until else "O9",
            )
        table.pass_turn(seat)
    else:
        _nothing_pending(action)


def _cover_phase(table: Table, seat: int, action: str, m: Action) -> None:
    """C6: cover the top card; without a cover, draw until one comes."""
    top = card_text(table.top)
    if action == "play":
        card = m.play.card
        _hold(table, seat, card)
        if not table.covering(card):
            raise IllegalMove(
                Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_COVER,
                f"{card_text(card)} does not cover {top}: same suit, same rank or a Queen",
                "C6",
            )
        table.play(seat, card, m.play.named_suit)
    elif action == "draw":
        hand = table.hand(seat)
        if any(table.covering(c) for c in hand):
            raise IllegalMove(
                Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_COVER,
                f"a card in the hand covers {top}",
                "C6.1",
            )
        if table.rules.eight_draw_three:
            if table.deal.cover_batch_drawn:
                raise IllegalMove(
                    Why.HUNDRED_AND_ONE_REJECTION_REASON_ALREADY_DRAWN,
                    "the batch of three was drawn",
                    "O14",
                )
            table.draw(seat, 3, cover=True)
            table.deal.cover_batch_drawn = True
            if not any(table.covering(c) for c in hand):
                table.cover_lapsed(seat, "no cover in the batch of three")  # O14 THREE
        elif not table.draw(seat, 1, cover=True):
            table.cover_lapsed(seat)  # C6.3: stock and restock dry (or restocked in the chain, A38)
    else:
        raise IllegalMove(
            Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_COVER, f"{top} must be covered first", "C6"
        )


def _respond_phase(table: Table, seat: int, action: str, m: Action) -> None:
    """§1.3.4: accept the pending 6/7, or pass it on with a matching 6 or 7."""
    deal = table.deal
    if action == "accept":
        count = deal.pending_draw
        table.draw(seat, count)
        table.skip(seat)
    elif action == "play" and table.rules.effect.get(m.play.card, NO_EFFECT).transferable:
        card = m.play.card
        _hold(table, seat, card)
        if not table.playable(card):
            raise _not_matching(table, card)
        pending = deal.pending_draw
        deal.pending_draw = 0
        table.play(seat, card, m.play.named_suit, pending_before=pending)
    else:
        raise IllegalMove(
            Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_RESPOND_TO_PENALTY,
            f"accept the {deal.pending_draw}-card penalty or pass it on with {_passers(table)}",
            "A5",
        )


def _passers(table: Table) -> str:
    # RU/ALT sixes are cover cards, not draw cards: only a 7 passes a 7 on there.
    return "a 7" if table.rules.effects_family == pb.HUNDRED_AND_ONE_EFFECTS_RU else "a 6 or 7"


def _name_suit_phase(table: Table, seat: int, action: str, m: Action) -> None:
    """A24: the dealer names the suit of his upcard Queen before anyone plays."""
    if action != "name_suit":
        raise IllegalMove(
            Why.HUNDRED_AND_ONE_REJECTION_REASON_MUST_NAME_SUIT,
            "name the suit of the upcard Queen first",
            "A24",
        )
    suit = m.name_suit.suit
    table.deal.active_suit = suit
    table.emit(game_pb2.EVENT_KIND_SUIT_NAMED, seat, f"names {suit_text(suit)}", suit=suit)
    table.turn_to(table.next_of(seat))


def _nothing_pending(action: str) -> None:
    if action == "accept":
        raise IllegalMove(
            Why.HUNDRED_AND_ONE_REJECTION_REASON_NO_PENALTY_TO_ACCEPT,
            "there is no penalty to accept",
            "A5",
        )
    raise IllegalMove(
        Why.HUNDRED_AND_ONE_REJECTION_REASON_NO_SUIT_TO_NAME, "there is no suit to name now", "A24"
    )


_HANDLERS: dict[int, Callable[[Table, int, str, Action], None]] = {
    PLAY: _play_phase,
    DRAWN: _drawn_phase,
    COVER: _cover_phase,
    RESPOND: _respond_phase,
    NAME_SUIT: _name_suit_phase,
}
