"""Generating the legal Scala 40 moves of a seat, in canonical order.

Written apart from `moves.py` (python-chess: the generator and the checker
are two readings of the rules; a property test says they agree). What is
listed (RULES.md, "Listing moves"): every draw and take, every new meld the
hand can lay (each joker choice a move of its own), every lay-off, joker
swap and split, every discard — exactly; of the openings, every one-meld
opening, the highest-value opening and a closing-in-hand opening as the
opening finder finds them.

Canonical order: DRAW, TAKE, openings (one-meld ones by their cards, then
the best, then the closing one), melds, lay-offs and swaps by meld, splits,
discards by card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, permutations

from croupier.engine.cards import SUIT_OF, SUITS, card, is_joker
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import (
    SET,
    Meld,
    MeldError,
    lay_offs_from,
    set_order,
    swap_targets,
)
from croupier.games.scala40 import completion, discards, splits
from croupier.games.scala40.analyser import analysed
from croupier.games.scala40.moves import take_discard
from croupier.games.scala40.opening import Template, best_opening, templates
from croupier.games.scala40.position import Position
from croupier.games.scala40.rules import OPENING_THRESHOLD
from croupier.games.scala40.table import DRAW, Table
from croupier.v1 import game_pb2

MeldKey = tuple[tuple[int, ...], tuple[int, ...]]


def legal_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Every move `seat` may make now (the engine asks only acting seats)."""
    if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS or seat != state.current_seat:
        return []
    table = Table(state)
    if table.deal.phase == DRAW:
        out = [action(seat, "draw_stock")]
        try:
            take_discard(table, seat, check_only=True)
            out.append(action(seat, "take_discard"))
        except IllegalMove:
            pass
        return out
    pos = Position.read(state, table.rules)
    if pos.must_close:
        return [discard(seat, pos.hand[0])]
    out = []
    if not pos.opened:
        out += openings(pos)
        if pos.rules.joker_swap_for_opening:
            out += _swaps(pos)
    else:
        out += _melds(pos)
        out += _lay_offs(pos)
        out += _swaps(pos)
        if pos.rules.split_max5:
            out += _splits(pos)
    out += [discard(seat, v) for v in discards.legal_discards(pos)]
    return out


# -- building moves ----------------------------------------------------------------


def action(seat: int, name: str) -> game_pb2.Move:
    """A card-less move: "draw_stock" or "take_discard"."""
    move = game_pb2.Move(seat=seat)
    getattr(move.scala40, name).SetInParent()
    return move


def discard(seat: int, value: int) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.scala40.discard.card = value  # type: ignore[assignment]
    return move


def open_move(seat: int, melds: Iterable[MeldKey]) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.scala40.open.SetInParent()
    for cards, joker_as in melds:
        move.scala40.open.melds.add(cards=cards, joker_as=joker_as)
    return move


def meld_move(seat: int, cards: Sequence[int], joker_as: Sequence[int]) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.scala40.meld.meld.cards.extend(cards)  # type: ignore[arg-type]
    move.scala40.meld.meld.joker_as.extend(joker_as)  # type: ignore[arg-type]
    return move


def lay_off(seat: int, meld_id: int, value: int, end: int = 0, joker_as: int = 0) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    lay = move.scala40.lay_off
    lay.meld_id = meld_id
    lay.card = value  # type: ignore[assignment]
    lay.end = end  # type: ignore[assignment]
    lay.joker_as = joker_as  # type: ignore[assignment]
    return move


def swap_move(seat: int, meld_id: int, natural: int) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.scala40.swap_joker.meld_id = meld_id
    move.scala40.swap_joker.card = natural  # type: ignore[assignment]
    return move


def split_move(seat: int, meld_id: int, parts: Sequence[Meld]) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.scala40.split.meld_id = meld_id
    for part in parts:
        move.scala40.split.parts.add(cards=part.cards, joker_as=part.joker_as)
    return move


# -- trying actions on a copy ------------------------------------------------------------


def _legal(pos: Position, action: str, *args: object) -> bool:
    """Whether a play action (a Position method) is accepted and leaves the
    turn completable (C-S40-1)."""
    after = pos.copy()
    try:
        getattr(after, action)(*args)
    except IllegalMove:
        return False
    return completion.refusal(after) is None


# -- melds the hand can lay ---------------------------------------------------------------


def formable_melds(hand: Sequence[int], pos: Position) -> list[MeldKey]:
    """Every valid meld the hand can lay, each joker choice apart (which
    joker card, which missing suit a set's joker declares, V17's undeclared
    set joker), sorted."""
    rules = pos.rules
    jokers = sorted(v for v in hand if is_joker(v))
    out: set[MeldKey] = set()
    for t in templates(hand, rules.melds):
        for chosen in _joker_cards(jokers, t.jokers):
            for cards, joker_as in _variants(t, chosen, rules.declare_joker):
                out.add((tuple(cards), tuple(joker_as)))
    return sorted(out)


def _joker_cards(jokers: list[int], count: int) -> list[tuple[int, ...]]:
    """The distinct orders in which `count` of the hand's joker cards can be used."""
    out: set[tuple[int, ...]] = set()
    for combo in combinations(jokers, count):
        out.update(permutations(combo))
    return sorted(out)


def _variants(t: Template, chosen: tuple[int, ...], declare: bool):  # type: ignore[no-untyped-def]
    """(cards, joker_as) of a template with these joker cards: a set's jokers
    declare every choice of missing suits (V17 off: also none)."""
    if t.suit:
        yield t.build(list(chosen))
        return
    held = {SUIT_OF[v] for v in t.naturals}
    missing = [s for s in SUITS if s not in held]
    for suits in combinations(missing, t.jokers):
        yield set_order([*t.naturals, *chosen], [card(t.low, s) for s in suits])
    if not declare and t.jokers == 1 and len(t.naturals) == 2:
        yield set_order([*t.naturals, *chosen], [0])


def _read(key: MeldKey, pos: Position) -> Meld | None:
    try:
        return analysed(key[0], key[1], pos.rules.melds)
    except MeldError:
        return None


def openings(pos: Position) -> list[game_pb2.Move]:
    """The listed openings: every legal one-meld opening, then the finder's
    best opening and its closing-in-hand opening when legal and not listed."""
    seat = pos.seat
    out: list[game_pb2.Move] = []
    listed: set[tuple[MeldKey, ...]] = set()
    for key in formable_melds(pos.hand, pos):
        meld = _read(key, pos)
        if meld is None:
            continue
        if meld.value < OPENING_THRESHOLD and len(pos.hand) - len(meld.cards) > 1:
            continue  # below 40 leaving two cards or more: no close in hand (R-S40-41)
        if _legal(pos, "open", [meld]):
            out.append(open_move(seat, [key]))
            listed.add((key,))
    for found in _finder_openings(pos):
        melds = [_read(k, pos) for k in found]
        if found in listed or any(m is None for m in melds):
            continue
        if _legal(pos, "open", melds):
            out.append(open_move(seat, found))
            listed.add(found)
    return out


def _finder_openings(pos: Position) -> list[tuple[MeldKey, ...]]:
    """The finder's best opening (keeping a discard) and closing opening."""
    rules = pos.rules
    keep = 2 if pos.first_turn else 1
    owed = pos.taken if pos.taken_pending else 0
    require = owed if owed and not is_joker(owed) else 0
    require_jokers = pos.jokers_owed

    def rest_ok(rest: list[int]) -> bool:
        return not all(pos.kept(v) for v in rest)

    found = []
    best = best_opening(
        pos.hand, rules.melds, max_cards=len(pos.hand) - keep, require=require,
        require_jokers=require_jokers, rest_ok=rest_ok,
    )  # fmt: skip
    if best is not None and best.value >= OPENING_THRESHOLD:
        found.append(best.melds)
    if not pos.first_turn and not rules.close_in_hand_needs_40:
        for left in (1, 0) if rules.close_without_discard else (1,):
            closing = best_opening(
                pos.hand,
                rules.melds,
                max_rest=left,
                require=require,
                require_jokers=require_jokers,
                rest_ok=_leaves(pos, left),
            )
            if closing is not None and closing.value < OPENING_THRESHOLD:
                found.append(closing.melds)
                break
    return found


def _leaves(pos: Position, left: int) -> Callable[[list[int]], bool]:
    """A closing opening leaves `left` cards, none the one taken this turn."""

    def ok(rest: list[int]) -> bool:
        return len(rest) == left and not any(pos.kept(v) for v in rest)

    return ok


def _melds(pos: Position) -> list[game_pb2.Move]:
    out = []
    for key in formable_melds(pos.hand, pos):
        meld = _read(key, pos)
        if meld is not None and _legal(pos, "meld", meld):
            out.append(meld_move(pos.seat, *key))
    return out


def _lay_offs(pos: Position) -> list[game_pb2.Move]:
    out = []
    held = set(pos.hand)
    jokers = sorted(v for v in held if is_joker(v))
    for table_meld in pos.melds:
        for value, end, joker_as in lay_offs_from(table_meld.meld, held, jokers, pos.rules.melds):
            if _legal(pos, "lay_off", table_meld.id, value, end, joker_as):
                out.append(lay_off(pos.seat, table_meld.id, value, end, joker_as))
    return out


def _swaps(pos: Position) -> list[game_pb2.Move]:
    out = []
    held = set(pos.hand)
    for table_meld in pos.melds:
        for natural in sorted(v for v in swap_targets(table_meld.meld) if v in held):
            if _legal(pos, "swap_joker", table_meld.id, natural):
                out.append(swap_move(pos.seat, table_meld.id, natural))
    return out


def _splits(pos: Position) -> list[game_pb2.Move]:
    out = []
    for table_meld in pos.melds:
        meld = table_meld.meld
        if meld.kind == SET:
            continue
        seen = set()
        for added in splits.candidate_additions(meld, pos.hand):
            for parts in splits.split_options(pos.rules, meld, added):
                key = tuple((p.cards, p.joker_as) for p in parts)
                if key in seen:
                    continue
                seen.add(key)
                if _legal(pos, "split", table_meld.id, parts):
                    out.append(split_move(pos.seat, table_meld.id, parts))
    return out
