"""Checking and applying one Scala 40 move (§1.4–§1.11), by phase of the turn.

Each handler raises IllegalMove with the rule that forbids the move, or
changes the table. Every play action is refused when the turn could not be
completed after it (C-S40-1, `completion.py`). `legal.py` generates the same
moves independently; a property test holds the two to agreement.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine.cards import card_text
from croupier.engine.errors import IllegalMove
from croupier.games.scala40 import completion, discards
from croupier.games.scala40.analyser import canonical_table, read_meld
from croupier.games.scala40.position import Position
from croupier.games.scala40.scoring import score_deal, void_deal
from croupier.games.scala40.table import DRAW, PLAY, Table
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb

Why = pb.Scala40RejectionReason
Action = pb.Scala40Move
_DRAWS = ("draw_stock", "take_discard")


def apply(state: game_pb2.GameState, move: game_pb2.Move) -> Sequence[game_pb2.Event]:
    """Play `move` of the seat to act on `state` in place, or raise IllegalMove.
    A table meld stored in another order is first written in its one
    spelling (K-S40-2): the answer holds every meld as ListLegalMoves reads it."""
    table = Table(state)
    canonical_table(state.scala40.melds, table.rules.melds)
    m = move.scala40
    action = m.WhichOneof("action") or ""
    if table.deal.phase == DRAW:
        _draw_phase(table, move.seat, action)
    else:
        _play_phase(table, move.seat, action, m)
    return table.events


# -- the draw (§1.5) -------------------------------------------------------------------------


def _draw_phase(table: Table, seat: int, action: str) -> None:
    if action not in _DRAWS:
        raise IllegalMove(
            Why.SCALA40_REJECTION_REASON_MUST_DRAW_FIRST,
            "the turn begins with a card from the stock or the discard pile",
            "§1.4",
        )
    if action == "draw_stock":
        table.draw_stock(seat)
    else:
        take_discard(table, seat, check_only=False)
    table.deal.phase = PLAY  # type: ignore[assignment]


def take_discard(table: Table, seat: int, check_only: bool) -> None:
    """R-S40-11 (V6, V6b, V11, C-S40-8): take the top discard, if the turn
    can then still be completed (C-S40-1, T-S40-13)."""
    deal, rules = table.deal, table.rules
    if not deal.discard:
        raise IllegalMove(
            Why.SCALA40_REJECTION_REASON_DISCARD_PILE_EMPTY, "the discard pile is empty", "R-S40-11"
        )
    top = deal.discard[-1]
    opened = deal.opened[seat]
    first_take = (
        rules.first_player_takes_upcard
        and deal.turns_started[seat] == 1
        and seat == table.next_seat(deal.dealer)
        and len(deal.discard) == 1
        and not any(deal.turns_started[s] for s in range(len(deal.turns_started)) if s != seat)
    )
    if first_take or (opened and rules.pickup_keep):
        owed = False  # V11 (C-S40-6) / V6b: kept, no duty; not discarded this turn (C-S40-2)
    elif opened or rules.pickup_for_opening:
        owed = True
    else:
        raise IllegalMove(
            Why.SCALA40_REJECTION_REASON_TAKE_DISCARD_NEEDS_OPENED,
            "only a player who has opened takes from the discard pile",
            "R-S40-11",
        )
    pos = Position.read(table.state, rules)
    pos.hand.append(top)
    pos.taken = top
    pos.taken_owed = owed
    pos.taken_copies = pos.copies_of_taken()
    problem = completion.refusal(pos)
    if problem is not None:
        if not owed:
            raise problem  # C-S40-2: a kept card must leave a discard
        raise IllegalMove(
            Why.SCALA40_REJECTION_REASON_TAKEN_CARD_CANNOT_BE_PLACED,
            f"the {card_text(top)} could not be placed on the table this turn"
            + (" (it must go into the opening melds, V6)" if not opened else ""),
            "R-S40-11" if opened else "V6",
        )
    if check_only:
        return
    del deal.discard[-1]
    table.hand(seat).append(top)
    deal.taken_card = top
    deal.taken_must_be_placed = owed
    deal.taken_copies = pos.taken_copies
    table.emit_rule(
        pb.SCALA40_EVENT_KIND_DISCARD_TAKEN,
        seat,
        f"takes {card_text(top)} from the discard pile",
        cards=[top],
    )


# -- the play (§1.7–§1.11) ----------------------------------------------------------------------


def _play_phase(table: Table, seat: int, action: str, m: Action) -> None:
    if action in _DRAWS:
        raise IllegalMove(Why.SCALA40_REJECTION_REASON_ALREADY_DRAWN, "one draw per turn", "§1.4")
    pos = Position.read(table.state, table.rules)
    if action == "discard":
        discard(table, pos, m.discard.card)
        return
    play(pos, action, m)
    problem = completion.refusal(pos)
    if problem is not None:
        raise problem
    pos.write(table.state)
    table.deal.restocks_without_play = 0  # K-S40-1: a card was laid on the table
    _announce(table, pos)
    if not pos.hand:
        _close(table, seat)  # V12: melding the last card closes


def play(pos: Position, action: str, m: Action) -> None:
    """One play action on `pos` (the rules of the action itself)."""
    rules = pos.rules
    positional = rules.positional_convention
    if action == "open":
        specs = m.open.melds
        melds = [read_meld(s.cards, s.joker_as, rules.melds, positional) for s in specs]
        pos.open(melds)
    elif action == "meld":
        spec = m.meld.meld
        pos.meld(read_meld(spec.cards, spec.joker_as, rules.melds, positional))
    elif action == "lay_off":
        lay = m.lay_off
        pos.lay_off(lay.meld_id, lay.card, lay.end, lay.joker_as)
    elif action == "swap_joker":
        pos.swap_joker(m.swap_joker.meld_id, m.swap_joker.card)
    elif action == "split":
        if not rules.split_max5:
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_SPLIT_NOT_ALLOWED,
                "sequences are split only under the old rule (sequence_split_max5)",
                "V14",
            )
        parts = [read_meld(p.cards, p.joker_as, rules.melds, False) for p in m.split.parts]
        pos.split(m.split.meld_id, parts)


def discard(table: Table, pos: Position, value: int) -> None:
    """§1.10: the discard ends the turn; the last card closes (§1.11)."""
    if pos.must_close and len(pos.hand) == 1 and value == pos.hand[0]:
        problem = None  # R-S40-41: checked with the opening
    elif value not in pos.hand:
        raise IllegalMove(
            game_pb2.REJECTION_REASON_CARD_NOT_IN_HAND,
            f"{card_text(value)} is not in the hand",
            "§1.10",
            common=True,
        )
    else:
        problem = discards.discard_refusal(pos, value)
    if problem is not None:
        raise problem
    seat = pos.seat
    deal = table.deal
    table.hand(seat).remove(value)
    deal.discard.append(value)  # type: ignore[arg-type]
    table.emit(game_pb2.EVENT_KIND_CARD_PLAYED, seat, f"discards {card_text(value)}",
               cards=[value])  # fmt: skip
    if not table.hand(seat):
        _close(table, seat)
        return
    following = table.next_seat(seat)
    void = table.start_turn(following)
    if void:
        void_deal(table, following, void)


def _close(table: Table, seat: int) -> None:
    """R-S40-70/72: the hand is empty; the deal ends and is scored."""
    in_hand = table.deal.opened_this_turn
    table.emit_rule(
        pb.SCALA40_EVENT_KIND_CLOSED,
        seat,
        "closes in hand" if in_hand else "closes",
        in_hand=in_hand,
    )
    score_deal(table, seat, in_hand)


def _announce(table: Table, pos: Position) -> None:
    """The events of the play actions just made (all their cards are public)."""
    seat = pos.seat
    for kind, ids, cards, number, melds in pos.done:
        texts = " ".join(card_text(v) for v in cards)
        fields: dict[str, object] = {"meld_ids": ids, "cards": cards}
        if kind == pb.SCALA40_EVENT_KIND_OPENED:
            says = f"opens with {melds} ({number})"
            fields["points"] = number
        elif kind == pb.SCALA40_EVENT_KIND_MELDED:
            says = f"melds {melds} ({number})"
            fields["points"] = number
        elif kind == pb.SCALA40_EVENT_KIND_LAID_OFF:
            says = f"lays {texts} on meld {ids[0]} of {table.name(number)}: {melds}"
            fields["owner"] = number
        elif kind == pb.SCALA40_EVENT_KIND_JOKER_SWAPPED:
            says = f"puts {texts} in place of a joker of meld {ids[0]} and takes the joker"
            fields["cards"] = [*cards, number]
        elif kind == pb.SCALA40_EVENT_KIND_SPLIT:
            says = f"lays {texts} on meld {ids[0]} and splits it: {melds}"
            fields["owner"] = number
        else:  # QUAD_DISCARDED
            says = f"puts the four of a kind {melds} on the discard pile"
        table.emit_rule(kind, seat, says, **fields)  # type: ignore[arg-type]
    pos.done.clear()
