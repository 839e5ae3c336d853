"""Checking and applying one «Мост» move (§2.5 to §2.9), by phase of the turn.

Each handler raises IllegalMove with the rule that forbids the move, or
changes the table. A take from the bridge and every play action are refused
when the turn could not be completed after them (C-M-1, `completion.py`).
`legal.py` generates the same moves independently; a property test holds
the two to agreement.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import rng
from croupier.engine.cards import card_text
from croupier.engine.errors import IllegalMove
from croupier.games.most import completion
from croupier.games.most.analyser import read_meld
from croupier.games.most.position import Position, canonical_table
from croupier.games.most.scoring import end_hand
from croupier.games.most.table import DRAW, PLAY, Table
from croupier.v1 import game_pb2
from croupier.v1 import most_pb2 as pb

Why = pb.MostRejectionReason
Action = pb.MostMove
_DRAWS = ("draw_stock", "take_bridge")


def apply(state: game_pb2.GameState, move: game_pb2.Move) -> Sequence[game_pb2.Event]:
    """Play `move` of the seat to act on `state` in place, or raise IllegalMove.
    A table meld stored in another order is first written in its one
    spelling (K-M-1): the answer holds every meld as ListLegalMoves reads it."""
    table = Table(state)
    table.melds = canonical_table(state.most.melds, table.rules)
    m = move.most
    action = m.WhichOneof("action") or ""
    if table.deal.phase == DRAW:
        _draw_phase(table, move.seat, action, m)
    else:
        _play_phase(table, move.seat, action, m)
    return table.events


# -- the draw (§2.6) ---------------------------------------------------------------------------


def _draw_phase(table: Table, seat: int, action: str, m: Action) -> None:
    if action not in _DRAWS:
        raise IllegalMove(
            Why.MOST_REJECTION_REASON_MUST_DRAW_FIRST,
            "the turn begins with a card from the stock or from the bridge",
            "K-M-5",
        )
    if action == "draw_stock":
        draw_stock(table, seat)
    else:
        take_bridge(table, seat, m.take_bridge.card, check_only=False)


def draw_stock(table: Table, seat: int) -> None:
    """R-M-20: the top stock card to the hand. On an empty stock R-M-23: the
    hand ends, or (RESHUFFLE_BRIDGE) the bridge becomes the stock and the draw
    is made: the first time in a hand at once, again only when a card reached
    the table since it last did (C-M-2)."""
    deal = table.deal
    if not deal.stock:
        cards = table.table_cards()
        reached = cards > deal.table_cards_at_reshuffle or deal.exchanged_since_reshuffle
        if not (table.rules.reshuffle and deal.bridge and (reached or not deal.reshuffled)):
            table.emit_rule(
                pb.MOST_EVENT_KIND_STOCK_EXHAUSTED,
                seat,
                "finds the stock empty: the hand ends with nobody out",
            )
            end_hand(table)
            return
        bridge = list(deal.bridge)
        del deal.bridge[:]
        rng.shuffle(table.state, bridge)
        deal.stock.extend(bridge)  # type: ignore[arg-type]
        deal.reshuffled = True
        deal.table_cards_at_reshuffle = cards
        deal.exchanged_since_reshuffle = False
        table.emit(
            game_pb2.EVENT_KIND_STOCK_RESTOCKED,
            seat,
            f"shuffles the bridge into a new stock ({len(bridge)} cards)",
            count=len(bridge),
        )
    value = deal.stock[0]
    del deal.stock[0]
    table.hand(seat).append(value)
    deal.drawn_card = value
    deal.phase = PLAY  # type: ignore[assignment]
    table.emit(
        game_pb2.EVENT_KIND_CARDS_DRAWN,
        seat,
        "draws a card from the stock",
        count=1,
        cards=[value],
        visible_to=[seat],
    )


def take_bridge(table: Table, seat: int, value: int, check_only: bool) -> None:
    """R-M-21/22: take `value` from the bridge and every newer card, if the
    first of them can then still go into a new meld this turn (C-M-1)."""
    deal, rules = table.deal, table.rules
    bridge: list[int] = list(deal.bridge)
    if value not in bridge:
        raise IllegalMove(
            Why.MOST_REJECTION_REASON_NOT_IN_BRIDGE,
            f"{card_text(value)} is not in the bridge",
            "R-M-21",
        )
    index = bridge.index(value)
    taken = bridge[index:]
    owed = not (rules.top_free and index == len(bridge) - 1)
    pos = Position.read(table.state, rules, table.melds)
    pos.hand += taken
    pos.bridge = tuple(bridge[:index])
    pos.bridge_card = value
    pos.bridge_owed = owed
    problem = completion.refusal(pos)
    if problem is not None:
        if owed and problem.reason == Why.MOST_REJECTION_REASON_BRIDGE_CARD_CANNOT_BE_MELDED:
            raise IllegalMove(
                problem.reason,
                f"the {card_text(value)} could not go into a new meld this turn"
                + (" nor on a meld" if rules.bridge_lay_off else ""),
                "C-M-1",
            )
        raise problem
    if check_only:
        return
    del deal.bridge[index:]
    table.hand(seat).extend(taken)  # type: ignore[arg-type]
    deal.bridge_card = value  # type: ignore[assignment]
    deal.bridge_card_owed = owed
    deal.phase = PLAY  # type: ignore[assignment]
    texts = " ".join(card_text(v) for v in taken)
    duty = "" if owed else " (the newest card: no duty to meld it)"
    table.emit_rule(
        pb.MOST_EVENT_KIND_BRIDGE_TAKEN,
        seat,
        f"takes {texts} from the bridge{duty}",
        cards=taken,
        count=len(taken),
    )


# -- the play (§2.7, §2.8) ----------------------------------------------------------------------


def _play_phase(table: Table, seat: int, action: str, m: Action) -> None:
    if action in _DRAWS:
        raise IllegalMove(Why.MOST_REJECTION_REASON_ALREADY_DRAWN, "one draw per turn", "K-M-5")
    pos = Position.read(table.state, table.rules, table.melds)
    if action == "discard":
        discard(table, pos, m.discard.card)
        return
    play(pos, action, m)
    problem = completion.refusal(pos)
    if problem is not None:
        raise problem
    pos.write(table.state)
    if action == "exchange_joker":
        table.deal.exchanged_since_reshuffle = True  # a natural reached the table (C-M-2)
    _announce(table, pos)
    if not pos.hand:
        _go_out(table, seat)  # go_out_without_discard


def play(pos: Position, action: str, m: Action) -> None:
    """One play action on `pos` (the rules of the action itself)."""
    if action == "meld":
        pos.meld(read_meld(m.meld.cards, m.meld.joker_as, pos.rules.melds))
    elif action == "lay_off":
        lay = m.lay_off
        pos.lay_off(lay.meld_id, lay.card, lay.end, lay.joker_as)
    else:
        pos.exchange(m.exchange_joker.card)


def discard(table: Table, pos: Position, value: int) -> None:
    """§2.8: a card from the hand to the newest end of the bridge ends the
    turn; the last card ends the hand (R-M-40)."""
    if pos.bridge_owed:
        raise IllegalMove(
            Why.MOST_REJECTION_REASON_BRIDGE_CARD_NOT_MELDED,
            f"the {card_text(pos.bridge_card)} taken from the bridge must go into a new meld "
            "before the turn ends",
            "R-M-21",
        )
    if value not in pos.hand:
        raise IllegalMove(
            game_pb2.REJECTION_REASON_CARD_NOT_IN_HAND,
            f"{card_text(value)} is not in the hand",
            "K-M-5",
            common=True,
        )
    if value == pos.bridge_card:
        raise IllegalMove(
            Why.MOST_REJECTION_REASON_DISCARD_OF_BRIDGE_CARD,
            f"the {card_text(value)} taken from the bridge this turn may not go back into it",
            "K-M-2",
        )
    if not pos.discardable(value):
        raise IllegalMove(
            Why.MOST_REJECTION_REASON_CARD_REPRESENTED_BY_JOKER,
            f"a joker on the table stands for {card_text(value)}: it may only be exchanged "
            "for that joker",
            "R-M-13",
        )
    seat = pos.seat
    deal = table.deal
    table.hand(seat).remove(value)
    deal.bridge.append(value)  # type: ignore[arg-type]
    table.emit(
        game_pb2.EVENT_KIND_CARD_PLAYED,
        seat,
        f"puts {card_text(value)} into the bridge",
        cards=[value],
    )
    if not table.hand(seat):
        _go_out(table, seat)
        return
    table.start_turn(table.next_seat(seat))


def _go_out(table: Table, seat: int) -> None:
    """R-M-40: the hand is empty; the hand ends and is scored."""
    table.emit_rule(pb.MOST_EVENT_KIND_WENT_OUT, seat, "goes out")
    end_hand(table)


def _announce(table: Table, pos: Position) -> None:
    """The events of the play actions just made (all their cards are public)."""
    seat = pos.seat
    for done in pos.done:
        texts = " ".join(card_text(v) for v in done.cards)
        if done.kind == pb.MOST_EVENT_KIND_MELDED:
            says = f"melds {done.meld} ({done.points})"
        elif done.kind == pb.MOST_EVENT_KIND_LAID_OFF:
            says = f"lays {texts} on meld {done.meld_id} of {table.name(done.owner)}: {done.meld}"
        else:
            natural, joker = done.cards
            says = (
                f"puts {card_text(natural)} in place of the {card_text(joker)} of meld "
                f"{done.meld_id} and takes the joker"
            )
        table.emit_rule(
            done.kind, seat, says, meld_id=done.meld_id, owner=done.owner,
            cards=list(done.cards), points=done.points,
        )  # fmt: skip
    pos.done.clear()
