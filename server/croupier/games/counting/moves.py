"""Checking and applying one counting move (RULES.md, "A turn").

A turn has one phase: the seat to act puts one card on the pile with the
choice the card takes, or, in 101 with chips and only without a card that
keeps the total within the limit, concedes the deal. Each check raises
IllegalMove with the rule that forbids the move. `legal.py` generates the
same moves independently; a property test holds the two to agreement.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine.cards import card_text
from croupier.engine.errors import IllegalMove
from croupier.games.counting import scoring
from croupier.games.counting.effects import SETS_TOTAL
from croupier.games.counting.rules import Rules
from croupier.games.counting.table import Table
from croupier.v1 import counting_pb2 as pb
from croupier.v1 import game_pb2

Why = pb.CountingRejectionReason


def apply(state: game_pb2.GameState, move: game_pb2.Move) -> Sequence[game_pb2.Event]:
    """Play `move` of the seat to act on `state` in place, or raise IllegalMove.

    The engine has already refused a move of a seat that may not act, or
    made after the deal or match ended.
    """
    table = Table(state)
    m: pb.CountingMove = getattr(move, table.game)
    seat = move.seat
    if m.WhichOneof("action") == "concede":
        _concede(table, seat)
        return table.events
    play = m.play
    card = play.card
    if card not in table.hand(seat):
        raise IllegalMove(
            game_pb2.REJECTION_REASON_CARD_NOT_IN_HAND,
            f"{card_text(card)} is not in the hand",
            table.rules.rule_ids["card"],
            common=True,
        )
    kind = play.WhichOneof("choice")
    value = getattr(play, kind) if kind else 0
    rules = table.rules
    check_choice(rules, card, kind, value)
    total = rules.total_after(card, table.deal.total, value)
    if rules.safe_only and total > rules.limit:
        raise IllegalMove(
            Why.COUNTING_REJECTION_REASON_WOULD_EXCEED_LIMIT,
            f"{card_text(card)} would take the total from {table.deal.total} to {total}, "
            f"over {rules.limit}",
            "R-C3-05",
        )
    _play(table, seat, card, total)
    return table.events


def check_choice(rules: Rules, card: int, kind: str | None, value: int) -> None:
    """Raise IllegalMove unless the move's choice is one the card takes
    (R-C2-04 black aces, R-C3-04 aces, O-C3-3 tens)."""
    effect = rules.effects[card]
    wanted = effect.choice
    if wanted is None and kind is not None:
        raise IllegalMove(
            Why.COUNTING_REJECTION_REASON_CHOICE_NOT_TAKEN,
            f"{card_text(card)} takes no choice",
            effect.rule,
        )
    if wanted is not None and kind is None:
        what = "the total it sets" if wanted == SETS_TOTAL else "what it adds"
        raise IllegalMove(
            Why.COUNTING_REJECTION_REASON_CHOICE_REQUIRED,
            f"{card_text(card)} needs the player's choice of {what}",
            effect.rule,
        )
    if wanted is not None and kind != wanted:
        what = "sets a total" if wanted == SETS_TOTAL else "adds a value"
        raise IllegalMove(
            Why.COUNTING_REJECTION_REASON_CHOICE_NOT_TAKEN,
            f"{card_text(card)} {what} of the player's choice, not the other kind",
            effect.rule,
        )
    if wanted is not None and value not in effect.choices:
        low, high = effect.choices[0], effect.choices[-1]
        allowed = (
            f"{low} to {high}"
            if wanted == SETS_TOTAL
            else " or ".join(str(v) for v in effect.choices)
        )
        raise IllegalMove(
            Why.COUNTING_REJECTION_REASON_CHOICE_OUT_OF_RANGE,
            f"{card_text(card)} allows {allowed}; got {value}",
            effect.rule,
        )


def _play(table: Table, seat: int, card: int, total: int) -> None:
    """The card goes on the pile; then the refill (R-C2-03), the bust check,
    the exact-100 payment (C-C-4) and the next turn: the order of the
    turn in the rules' model of all three games ("play → new total → [draw
    if the game refills] → bust check → next player")."""
    rules, deal = table.rules, table.deal
    before = deal.total
    table.put(seat, card, total)
    if rules.refill:
        table.refill(seat)
    if total > rules.limit:
        scoring.bust(table, seat)
        return
    if rules.exact_hundred_chips and before < 100 == total:
        scoring.exact_hundred(table, seat)
    if not table.next_turn(seat):
        scoring.no_card_left(table)
        return
    # R-C3-05, A-C3-04: a player on turn with no legal play loses the deal,
    # automatically — there is nothing for him to choose.
    after = table.state.current_seat
    if rules.safe_only and not _safe_play_exists(rules, table.hand(after), total):
        scoring.concede(table, after)


def _concede(table: Table, seat: int) -> None:
    """R-C3-05, A-C3-04: only in 101 with chips, and only when no card of
    the hand keeps the total within the limit. A play leaves no such seat on
    turn (it loses the deal at once, `_play`): this is the move of a position
    built by hand, or written by rules version 3 and before (E-C-3)."""
    rules = table.rules
    if not rules.safe_only:
        raise IllegalMove(
            Why.COUNTING_REJECTION_REASON_MUST_PLAY_A_CARD,
            "every turn puts a card on the pile; there is no conceding",
            rules.rule_ids["turn"],
        )
    if _safe_play_exists(rules, table.hand(seat), table.deal.total):
        raise IllegalMove(
            Why.COUNTING_REJECTION_REASON_MUST_PLAY_A_CARD,
            f"a card of the hand keeps the total within {rules.limit}",
            "A-C3-04",
        )
    scoring.concede(table, seat)


def _safe_play_exists(rules: Rules, hand: Sequence[int], total: int) -> bool:
    """A card of `hand`, with one of its choices, keeps `total` within the limit."""
    return any(
        rules.total_after(card, total, value) <= rules.limit
        for card in set(hand)
        for value in rules.effects[card].choices or (0,)
    )
