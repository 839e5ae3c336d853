"""Which discards are legal (§1.10: D1–D5, the fallback, C-S40-2, R-S40-71).

A card is *playable* when it would extend a table meld as a lay-off (§1.8;
a joker when some meld has room for one); a natural that could only replace
a joker is not (A-S40-07). Under V14 a card that a split would take on its
own counts too, a joker as well as a natural. When D1–D5 leave no legal
discard, D2–D5 are lifted (A-S40-08); the card taken from the discard pile
this turn stays barred (D1, C-S40-2).
"""

from __future__ import annotations

from croupier.engine.cards import JOKERS, card_text, is_joker
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import spots
from croupier.games.scala40.position import Position
from croupier.v1 import scala40_pb2 as pb

Why = pb.Scala40RejectionReason
_JOKER = JOKERS[0]


def playable(pos: Position) -> tuple[set[int], bool]:
    """(the naturals that extend some table meld, whether one takes a joker;
    under V14, by a split too — a joker's only when the hand holds one)."""
    rules = pos.rules
    table = pos.table
    if (
        table is not None
        and len(table.melds) == len(pos.melds)
        and all(m is t for m, t in zip(pos.melds, table.melds, strict=True))
    ):
        cached, joker = table.fits(rules.melds)  # the table as read: facts cached
        naturals = set(cached)
    else:
        naturals = set()
        joker = False
        for table_meld in pos.melds:
            for spot in spots(table_meld.meld, rules.melds, (_JOKER,)):
                if is_joker(spot.value):
                    joker = True
                else:
                    naturals.add(spot.value)
    if rules.split_max5:
        from croupier.games.scala40.splits import split_playable, split_takes_joker

        naturals |= split_playable(pos)
        held = [v for v in pos.hand if is_joker(v)]
        if not joker and held:
            joker = split_takes_joker(pos, _JOKER)
    return naturals, joker


def _ban(pos: Position, value: int, fits: tuple[set[int], bool], closing: bool):  # type: ignore[no-untyped-def]
    """The D2–D5 rule that bars `value` as a discard here, or None."""
    rules = pos.rules
    naturals, joker_room = fits
    if is_joker(value):
        jokers = rules.joker_discard
        if jokers == pb.SCALA40_JOKER_DISCARD_NEVER:
            return Why.SCALA40_REJECTION_REASON_DISCARD_JOKER, "jokers are never discarded", "D5"
        if jokers == pb.SCALA40_JOKER_DISCARD_CLOSING_ONLY and not closing:
            return (Why.SCALA40_REJECTION_REASON_DISCARD_JOKER,
                    "a joker is discarded only to close", "D5")  # fmt: skip
        if jokers == pb.SCALA40_JOKER_DISCARD_NOT_WHEN_UNOPENED and not pos.opened:
            return (Why.SCALA40_REJECTION_REASON_DISCARD_JOKER,
                    "an unopened player does not discard a joker", "D5")  # fmt: skip
        is_playable = joker_room
    else:
        is_playable = value in naturals
    if not is_playable:
        return None
    text = f"{card_text(value)} extends a meld on the table"
    if not pos.opened:
        if rules.ban_playable_unopened:
            return Why.SCALA40_REJECTION_REASON_DISCARD_PLAYABLE_UNOPENED, text, "D2"
        return None
    if closing:
        if rules.ban_playable_closing:
            return Why.SCALA40_REJECTION_REASON_DISCARD_PLAYABLE_CLOSING, text, "D4"
        return None
    mode = rules.ban_playable_opened
    if mode == pb.SCALA40_PLAYABLE_DISCARD_ALWAYS or (
        mode == pb.SCALA40_PLAYABLE_DISCARD_IF_MORE_THAN_2_PLAYERS and pos.active_players > 2
    ):
        return Why.SCALA40_REJECTION_REASON_DISCARD_PLAYABLE_OPENED, text, "D3"
    return None


def discard_refusal(pos: Position, value: int) -> IllegalMove | None:
    """Why `value` may not be discarded now (None: it may). The card is held."""
    if pos.taken_pending and pos.taken_class(value):
        return IllegalMove(
            Why.SCALA40_REJECTION_REASON_DISCARD_OF_TAKEN_CARD,
            f"the {card_text(pos.taken)} taken from the discard pile goes to the table, "
            "not back to the pile",
            "D1",
        )
    if pos.taken_pending:
        return IllegalMove(
            Why.SCALA40_REJECTION_REASON_TAKEN_CARD_NOT_PLACED,
            f"the taken {card_text(pos.taken)} must go to the table first",
            "R-S40-11",
        )
    if pos.jokers_owed:
        # Which rule owes it: V16 (R-S40-52) for a swap before the opening, whose
        # jokers the opening must hold, so none is owed by it once opened; V19
        # (R-S40-51) for a swap by an opened seat, in this turn's opening or not.
        return IllegalMove(
            Why.SCALA40_REJECTION_REASON_RETRIEVED_JOKER_NOT_USED,
            "the swapped joker must go to the table first",
            "R-S40-51" if pos.opened else "R-S40-52",
        )
    if pos.kept(value):
        return IllegalMove(
            Why.SCALA40_REJECTION_REASON_DISCARD_OF_KEPT_CARD,
            f"the {card_text(pos.taken)} kept from the discard pile is not discarded this turn",
            "C-S40-2",
        )
    closing = len(pos.hand) == 1
    if closing and pos.first_turn:
        return IllegalMove(
            Why.SCALA40_REJECTION_REASON_NO_CLOSE_IN_FIRST_TURN,
            "nobody closes in his own first turn",
            "R-S40-71",
        )
    fits = playable(pos)
    ban = _ban(pos, value, fits, closing)
    if ban is None:
        return None
    # A-S40-08: with no legal discard at all, D2–D5 are lifted.
    others = [v for v in set(pos.hand) if not pos.kept(v)]
    if all(_ban(pos, v, fits, closing) is not None for v in others):
        return None
    return IllegalMove(*ban)


def legal_discards(pos: Position) -> list[int]:
    """Every card (one per value, ascending) that may be discarded now."""
    if not pos.duties_met or (len(pos.hand) == 1 and pos.first_turn):
        return []
    fits = playable(pos)
    closing = len(pos.hand) == 1
    candidates = sorted(v for v in set(pos.hand) if not pos.kept(v))
    free = [v for v in candidates if _ban(pos, v, fits, closing) is None]
    return free or candidates
