"""No dead ends (C-S40-1): can the turn still be completed legally?

Every play action (and a take from the discard pile) is refused when, after
it, the turn could no longer end with a legal discard or close: the taken
card could not reach the table (R-S40-11), a joker that must be used could
not be (V16, V19), no card would be left to discard (R-S40-45), or only a
close in the seat's first turn would remain (R-S40-71, C-S40-3).

When nothing is owed, a turn can be completed iff a discard remains: the
fallback of A-S40-08 lifts D2–D5, so any card but the one taken this turn
will do, and in a first turn two cards are needed (one to discard, one to
keep). When a card or a joker is owed, a short search looks for a sequence
of actions that places it and still leaves a discard:

* opened seat: lay the owed card off, swap it for its joker, lay it in a new
  three-card meld (every meld holding it holds a three-card one), extend a
  sequence of its suit card by card towards it, or (V14) split a sequence
  of its suit with it and up to two more naturals of the hand; swaps that
  bring a joker into the hand are tried too. Each step it finds is one the
  checker accepts, and the rest of the plan is found again after it, so a
  turn the search calls completable is never a dead end.
* unopened seat (V6 / V16): the opening finder looks for an opening that
  holds the owed cards, worth 40 or closing in hand, leaving a discard.
"""

from __future__ import annotations

from croupier.engine.cards import SUIT_OF, is_joker
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import SEQUENCE, spots
from croupier.games.scala40.opening import best_opening, templates
from croupier.games.scala40.position import Position
from croupier.games.scala40.rules import OPENING_THRESHOLD
from croupier.games.scala40.splits import candidate_additions, split_options
from croupier.v1 import scala40_pb2 as pb

Why = pb.Scala40RejectionReason
DEPTH = 6  # actions the look-ahead plans ahead


def refusal(pos: Position) -> IllegalMove | None:
    """Why the turn of `pos` can no longer be completed (None: it can)."""
    if not pos.hand:
        if pos.rules.close_without_discard and not pos.first_turn:
            return None  # V12: the action closed
        if pos.rules.close_without_discard:
            return IllegalMove(
                Why.SCALA40_REJECTION_REASON_NO_CLOSE_IN_FIRST_TURN,
                "nobody closes in his own first turn",
                "R-S40-71",
            )
        return IllegalMove(
            Why.SCALA40_REJECTION_REASON_NO_CARD_LEFT_TO_DISCARD,
            "the hand may not be emptied before the discard",
            "R-S40-45",
        )
    if pos.must_close:
        return None  # R-S40-41: the closing discard was checked with the opening
    if pos.duties_met:
        return _discard_left(pos)
    if _plan(pos):
        return None
    if pos.taken_pending:
        return IllegalMove(
            Why.SCALA40_REJECTION_REASON_TAKEN_CARD_CANNOT_BE_PLACED,
            "the card taken from the discard pile could not be placed on the table this turn",
            "C-S40-1",
        )
    return IllegalMove(
        Why.SCALA40_REJECTION_REASON_RETRIEVED_JOKER_NOT_USED,
        "the swapped joker could not be placed on the table this turn",
        "C-S40-1",
    )


def _discard_left(pos: Position) -> IllegalMove | None:
    if pos.first_turn and len(pos.hand) < 2:
        return IllegalMove(
            Why.SCALA40_REJECTION_REASON_NO_CLOSE_IN_FIRST_TURN,
            "a card must stay in the hand after the discard in the first turn",
            "R-S40-71",
        )
    if all(pos.kept(v) for v in pos.hand) and not _clears(pos, set()):
        return IllegalMove(
            Why.SCALA40_REJECTION_REASON_TURN_COULD_NOT_BE_COMPLETED,
            "no card but the one taken this turn would be left to discard",
            "C-S40-1",
        )
    return None


def _clears(pos: Position, seen: set[tuple]) -> bool:  # type: ignore[type-arg]
    """Nothing owed and only copies of the card taken this turn held (D1,
    C-S40-2): whether lay-offs and swaps can still end the turn — by emptying
    the hand (V12 closes) or by bringing a joker to it to discard (the
    fallback A-S40-08 lifts D5). Each step is one `refusal` accepts: the hand
    shrinks or a swap brings a joker, so the search ends."""
    if not pos.opened:
        return False
    key = (tuple(sorted(pos.hand)), tuple((m.meld.cards, m.meld.joker_as) for m in pos.melds))
    if key in seen:
        return False
    seen.add(key)
    for action in _clearing_steps(pos):
        after = pos.copy()
        try:
            action(after)
        except IllegalMove:
            continue
        if not after.hand:
            if refusal(after) is None:
                return True
        elif not after.duties_met:
            if _plan(after):  # V19: the joker won must go back first
                return True
        elif after.first_turn and len(after.hand) < 2:
            continue
        elif not all(after.kept(v) for v in after.hand) or _clears(after, seen):
            return True
    return False


def _clearing_steps(pos: Position):  # type: ignore[no-untyped-def]
    """Every lay-off of a held card (one joker card for all: jokers are alike)
    and every swap of a held natural."""
    held = set(pos.hand)
    jokers = sorted(v for v in held if is_joker(v))[:1]
    naturals_held = set(v for v in held if not is_joker(v))
    for table_meld in pos.melds:
        meld = table_meld.meld
        for spot in spots(meld, pos.rules.melds, jokers):
            if spot.value in held:
                joker_as = spot.joker_as if meld.kind != SEQUENCE else 0
                yield _lay_off(table_meld.id, spot.value, spot.end, joker_as)
        for natural in _swappable(meld, naturals_held):
            yield _swap(table_meld.id, natural)


def completable(pos: Position) -> bool:
    return refusal(pos) is None


def _plan(pos: Position) -> bool:
    if not pos.opened:
        return _opening_plan(pos, 2)
    return _search(pos, DEPTH, set())


def _search(pos: Position, depth: int, seen: set[tuple]) -> bool:  # type: ignore[type-arg]
    if not pos.hand:
        return refusal(pos) is None
    if pos.duties_met:
        return _discard_left(pos) is None
    if depth == 0:
        return False
    key = (
        tuple(sorted(pos.hand)),
        tuple((m.meld.cards, m.meld.joker_as) for m in pos.melds),
        pos.jokers_owed,
        pos.taken_copies,
    )
    if key in seen:
        return False
    seen.add(key)
    for action in _steps(pos):
        after = pos.copy()
        try:
            action(after)
        except IllegalMove:
            continue
        if _search(after, depth - 1, seen):
            return True
    return False


def _steps(pos: Position):  # type: ignore[no-untyped-def]
    """The actions worth trying towards the duties of `pos`."""
    owed = pos.taken if pos.taken_pending else 0
    want_joker = pos.jokers_owed > 0 or (owed and is_joker(owed))
    jokers = sorted(set(v for v in pos.hand if is_joker(v)))
    naturals_held = set(v for v in pos.hand if not is_joker(v))
    rules = pos.rules
    for table_meld in pos.melds:
        meld = table_meld.meld
        for spot in spots(meld, rules.melds, jokers):
            if is_joker(spot.value):
                useful = want_joker or (
                    owed and meld.kind == SEQUENCE and SUIT_OF[owed] == meld.suit
                )
            elif spot.value not in naturals_held:
                continue
            else:
                useful = spot.value == owed or (
                    owed and not is_joker(owed) and meld.kind == SEQUENCE
                    and SUIT_OF[owed] == meld.suit
                )  # fmt: skip
            if useful:
                joker_as = spot.joker_as if meld.kind != SEQUENCE else 0
                yield _lay_off(table_meld.id, spot.value, spot.end, joker_as)
    if owed and not is_joker(owed) and rules.split_max5:
        yield from _splits_with(pos, owed)
    for table_meld in pos.melds:
        for natural in _swappable(table_meld.meld, naturals_held):
            yield _swap(table_meld.id, natural)
    if owed or want_joker:
        for t in templates(pos.hand, rules.melds):
            if len(t.naturals) + t.jokers != 3:
                continue
            if (owed and not is_joker(owed) and owed in t.naturals) or (want_joker and t.jokers):
                yield _meld(t, jokers)


def _splits_with(pos: Position, owed: int):  # type: ignore[no-untyped-def]
    """V14: the splits of a sequence of the owed card's suit that take it
    (a lay-off that would grow a sequence past five is a split, T-S40-27)."""
    for table_meld in pos.melds:
        meld = table_meld.meld
        if meld.kind != SEQUENCE or meld.suit != SUIT_OF[owed]:
            continue
        for added in candidate_additions(meld, pos.hand):
            if owed in added:
                for parts in split_options(pos.rules, meld, added):
                    yield _split(table_meld.id, parts)


def _swappable(meld, naturals_held: set[int]) -> list[int]:  # type: ignore[no-untyped-def]
    from croupier.engine.melds import swap_targets

    return sorted(v for v in swap_targets(meld) if v in naturals_held)


def _lay_off(meld_id: int, value: int, end: int, joker_as: int):  # type: ignore[no-untyped-def]
    return lambda pos: pos.lay_off(meld_id, value, end, joker_as)


def _swap(meld_id: int, natural: int):  # type: ignore[no-untyped-def]
    return lambda pos: pos.swap_joker(meld_id, natural)


def _split(meld_id: int, parts):  # type: ignore[no-untyped-def]
    return lambda pos: pos.split(meld_id, parts)


def _meld(template, jokers: list[int]):  # type: ignore[no-untyped-def]
    from croupier.games.scala40.analyser import analysed

    def act(pos: Position) -> None:
        held = [v for v in pos.hand if v in jokers]
        cards, joker_as = template.build(held[: template.jokers])
        pos.meld(analysed(tuple(cards), tuple(joker_as), pos.rules.melds))

    return act


# -- the unopened seat: an opening that holds what is owed ----------------------


def opening_for(pos: Position):  # type: ignore[no-untyped-def]
    """The best legal opening of `pos` that holds its owed cards and leaves a
    discard (worth 40, or closing in hand), or None."""
    rules = pos.rules
    owed = pos.taken if pos.taken_pending else 0
    require = owed if owed and not is_joker(owed) else 0
    require_jokers = pos.jokers_owed
    if owed and is_joker(owed):
        require_jokers = max(
            require_jokers, sum(1 for v in pos.hand if is_joker(v)) - pos.taken_copies + 1
        )
    keep = 2 if pos.first_turn else 1

    def rest_ok(rest: list[int]) -> bool:
        return len(rest) >= keep and not all(pos.kept(v) for v in rest)

    best = best_opening(
        pos.hand,
        rules.melds,
        max_cards=len(pos.hand) - keep,
        require=require,
        require_jokers=require_jokers,
        rest_ok=rest_ok,
    )
    if best is not None and best.value >= OPENING_THRESHOLD:
        return best
    if pos.first_turn:
        return None
    need = OPENING_THRESHOLD if rules.close_in_hand_needs_40 else 0
    for left in (1, 0) if rules.close_without_discard else (1,):

        def closing_rest(rest: list[int], left: int = left) -> bool:
            return len(rest) == left and not any(pos.kept(v) for v in rest)

        closing = best_opening(
            pos.hand,
            rules.melds,
            max_rest=left,
            require=require,
            require_jokers=require_jokers,
            rest_ok=closing_rest,
        )
        if closing is not None and closing.value >= need:
            return closing
    return None


def _opening_plan(pos: Position, swaps: int) -> bool:
    if opening_for(pos) is not None:
        return True
    if swaps == 0 or not pos.rules.joker_swap_for_opening:
        return False
    naturals_held = set(v for v in pos.hand if not is_joker(v))
    for table_meld in pos.melds:
        for natural in _swappable(table_meld.meld, naturals_held):
            after = pos.copy()
            try:
                after.swap_joker(table_meld.id, natural)
            except IllegalMove:
                continue
            if _opening_plan(after, swaps - 1):
                return True
    return False
