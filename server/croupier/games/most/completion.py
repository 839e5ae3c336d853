"""No dead ends (C-M-1): can the turn still be completed legally?

A take from the bridge, a meld, a lay-off or an exchange is refused when,
after it, the turn could no longer end: the first card taken from the bridge
could not go into a new meld (or on a meld, under
bridge_card_may_be_laid_off), no card would be left to put into the bridge
(R-M-34), or no card of the hand could go there.

With nothing owed the answer is exact and immediate: the turn ends iff the
hand holds a card that may go into the bridge (§2.8), or a card a table
joker stands for (exchanged first, §2.8's way out, K-M-3) — or, under
go_out_without_discard, the hand is empty or its one stuck card can be laid
off (after an exchange), which ends the hand (`finishable`).

With the bridge card owed, a short search (at most `DEPTH` actions) tries:
exchanges (each brings a joker to the hand); every new three-card meld that
holds the card (every meld holding it holds a three-card one, and the
smaller leaves more in the hand); under bridge_card_may_be_laid_off, laying
the card off, or laying cards of its suit on a sequence of its suit towards
it; and, for a seat that has not melded yet, a first three-card meld where
a meld is what an exchange or a lay-off waits for. Every plan it finds is a
sequence of moves the checker accepts, and the rest of a plan is found again
after each step, so a turn it calls completable is never a dead end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from croupier.engine import caches
from croupier.engine.cards import SUIT_OF, is_joker
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import SEQUENCE, spots
from croupier.games.most.analyser import analysed
from croupier.games.most.forming import formable
from croupier.games.most.position import Position
from croupier.v1 import most_pb2 as pb

Why = pb.MostRejectionReason
DEPTH = 8  # actions the look-ahead plans ahead
OUT_DEPTH = 2  # an exchange and a lay-off play out the last card (`finishable`)
Step = Callable[[Position], None]


_KNOWN: caches.Bounded[tuple, tuple[int, str, str] | None] = caches.Bounded(  # type: ignore[type-arg]
    "most.completion.known", 2048, 300
)


def refusal(pos: Position) -> IllegalMove | None:
    """Why the turn of `pos` can no longer be completed (None: it can).
    Remembered per position while a card is owed (the search is the cost):
    the answer depends on nothing else."""
    if not pos.bridge_owed or not pos.hand:
        return _refusal(pos)
    key = (pos.rules, caches.digest(pos.key(), pos.bridge, pos.bridge_card))
    if key in _KNOWN:
        known = _KNOWN[key]
    else:
        found = _refusal(pos)
        known = _KNOWN.put(
            key, None if found is None else (found.reason, found.message, found.rule)
        )
    return None if known is None else IllegalMove(*known)


def _refusal(pos: Position) -> IllegalMove | None:
    if not pos.hand:
        if pos.rules.go_out_without_discard and not pos.bridge_owed:
            return None  # the action went out (R-M-34 option)
        return IllegalMove(
            Why.MOST_REJECTION_REASON_NO_CARD_LEFT_TO_DISCARD,
            "the hand may not be emptied before the last card goes into the bridge",
            "R-M-34",
        )
    if not pos.bridge_owed:
        if finishable(pos):
            return None
        return IllegalMove(
            Why.MOST_REJECTION_REASON_TURN_COULD_NOT_BE_COMPLETED,
            "no card but the one taken from the bridge would be left to put into it",
            "C-M-1",
        )
    if _search(pos, DEPTH, {}):
        return None
    return IllegalMove(
        Why.MOST_REJECTION_REASON_BRIDGE_CARD_CANNOT_BE_MELDED,
        "the first card taken from the bridge could not go into a new meld this turn"
        + (" nor on a meld" if pos.rules.bridge_lay_off else ""),
        "C-M-1",
    )


def can_finish(pos: Position) -> bool:
    """Nothing owed, the hand not empty: a card may go into the bridge now, or
    after exchanging it for the joker that stands for it (K-M-3) — unless
    that joker is the card taken from the bridge this turn (K-M-2). Under
    exchange_requires_meld a seat that has not melded does not count on that
    exchange after taking from the bridge: C-M-1 refuses the take instead
    (C-M-5); after a draw from the stock, which nobody can foresee, K-M-3's
    way out stays open."""
    jokers = pos.joker_for()
    may_exchange = not (pos.rules.exchange_requires_meld and not pos.melded and pos.bridge_card)
    for value in pos.hand:
        joker = jokers.get(value)
        if joker is None:
            if value != pos.bridge_card:
                return True
        elif may_exchange and joker != pos.bridge_card:
            return True
    return False


def finishable(pos: Position) -> bool:
    """Nothing owed: the turn can end — by a discard (`can_finish`), or, under
    go_out_without_discard, by playing out the hand. A hand `can_finish`
    refuses holds one card: the card taken from the bridge, or the card that
    card (a joker) stands for on the table; laying it off, after exchanging
    it for that joker, empties the hand and ends it (R-M-34 option)."""
    if not pos.hand:
        return pos.rules.go_out_without_discard
    if can_finish(pos):
        return True
    return pos.rules.go_out_without_discard and _plays_out(pos, OUT_DEPTH)


def _plays_out(pos: Position, depth: int) -> bool:
    if not pos.hand:
        return True
    if depth == 0:
        return False
    return _any_step(pos, _out_steps(pos), lambda after: _plays_out(after, depth - 1))


def _out_steps(pos: Position) -> Iterator[Step]:
    """The exchanges and lay-offs of the cards left in the hand."""
    represented = pos.represented()
    if pos.may_exchange():
        for natural in sorted(v for v in pos.hand if v in represented):
            yield _exchange(natural)
    if pos.melded:
        jokers = sorted(v for v in pos.hand if is_joker(v))
        for table_meld in pos.melds:
            for spot in spots(table_meld.meld, pos.rules.melds, jokers):
                if spot.value in pos.hand:
                    joker_as = spot.joker_as if table_meld.meld.kind != SEQUENCE else 0
                    yield _lay_off(table_meld.id, spot.value, spot.end, joker_as)


def _search(pos: Position, depth: int, failed: dict[tuple, int]) -> bool:  # type: ignore[type-arg]
    if not pos.bridge_owed:
        return finishable(pos)
    if depth == 0 or not pos.hand:
        return False
    key = pos.key()
    if failed.get(key, -1) >= depth:
        return False
    failed[key] = depth
    return _any_step(pos, _steps(pos), lambda after: _search(after, depth - 1, failed))


def _any_step(pos: Position, steps: Iterator[Step], then: Callable[[Position], bool]) -> bool:
    """Whether some legal step, made on a copy of `pos`, leads to a position
    where `then` holds."""
    for step in steps:
        after = pos.copy()
        try:
            step(after)
        except IllegalMove:
            continue
        if then(after):
            return True
    return False


def _steps(pos: Position) -> Iterator[Step]:
    """The actions worth trying towards placing the bridge card."""
    owed = pos.bridge_card
    rules = pos.rules
    represented = pos.represented()
    occupied = pos.occupied()
    exchangeable = sorted(v for v in pos.hand if v in represented and v != owed)
    if pos.may_exchange():
        for natural in exchangeable:
            yield _exchange(natural)
    for key in formable(pos.hand, occupied, represented, containing=owed, max_cards=3):
        yield _meld(key)
    if not pos.melded and (rules.bridge_lay_off or (rules.exchange_requires_meld and exchangeable)):
        for key in formable(pos.hand, occupied, represented, max_cards=3):
            if owed not in key[0]:
                yield _meld(key)
    if rules.bridge_lay_off and pos.melded:
        jokers = sorted(v for v in pos.hand if is_joker(v))
        for table_meld in pos.melds:
            meld = table_meld.meld
            towards = meld.kind == SEQUENCE and not is_joker(owed) and meld.suit == SUIT_OF[owed]
            for spot in spots(meld, rules.melds, jokers):
                if spot.value not in pos.hand:
                    continue
                if spot.value == owed or (
                    towards and (is_joker(spot.value) or SUIT_OF[spot.value] == meld.suit)
                ):
                    joker_as = spot.joker_as if meld.kind != SEQUENCE else 0
                    yield _lay_off(table_meld.id, spot.value, spot.end, joker_as)


def _exchange(natural: int) -> Step:
    return lambda pos: pos.exchange(natural)


def _lay_off(meld_id: int, value: int, end: int, joker_as: int) -> Step:
    return lambda pos: pos.lay_off(meld_id, value, end, joker_as)


def _meld(key: tuple[tuple[int, ...], tuple[int, ...]]) -> Step:
    return lambda pos: pos.meld(analysed(key[0], key[1], pos.rules.melds))
