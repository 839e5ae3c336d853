"""Other spellings of a Scala 40 move, read as the move (K-S40-2).

Every move has one canonical spelling: the one `legal.py` lists, `notation.py`
prints and a state stores. A move written in another spelling of the same
move is read as that move (`canonical_move`, the engine's hook, applied
before any rule runs):

- a meld (`Meld`, each meld of an `Open`, each part of a `Split`) whose
  cards, in another order, make a meld, each joker keeping the identity it
  declared: a set naturals by suit then jokers by identity (`set_order`); a
  sequence low to high. Sequences are straight, so the cards fix the order,
  except where an ace could stand low or high: the other cards decide
  (`[3♥ A♥ 2♥]` is `[A♥ 2♥ 3♥]`, `[A♥ K♥ Q♥]` is `[Q♥ K♥ A♥]`); when both
  places make a meld (a whole suit of 13 with its ace, or 14 with two aces
  that are different cards: a natural and a joker, or two jokers of
  different colours) the cards are read in the order written, high to low
  (`[K♥ Q♥ … 2♥ A♥]` is `[A♥ 2♥ … K♥]`) and otherwise stay as written;
- a `Split` whose parts are written in another order: lowest first, unless
  two different parts span the same ranks (which of them would keep the
  meld's id is then a guess: the split stays as written);
- a `LayOff` on a sequence of a natural with no end, when it fits one end
  only; of a joker with the identity of one end's card (with that end or
  none): that end, and no identity (the end gives it). A lay-off on a set
  has one spelling already (a joker keeps the card it declares).

- a joker left undeclared (`joker_as` 0) where its place forces its
  identity (R-S40-28): a sequence's, by its position as written; a set of
  four's, and one laid off on a set of three with one suit missing: that
  suit (`forced_identities`).

Not respelled: a three-card set with an undeclared joker under V23
(`set_joker_positional_convention`), whose written order is the input
(R-S40-29) and is read by `analyser.read_meld`; `SwapJoker`, `Discard` and
the draws, which have one spelling. Anything else is left as written, and
the rules refuse it as today: a move that is no respelling of a legal move,
and one that could be read as two different moves (a natural ace with no
end that fits both ends of twelve cards 2 to K; a whole suit in an order
that is neither of its two spellings nor one of them backwards) — never a
guess between two moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine.cards import ACE, RANK_OF, SUIT_OF, SUITS, card, is_joker, is_suited
from croupier.engine.melds import SET, MeldError, MeldRules, position_card, respelled_lay_off
from croupier.games.scala40.analyser import TableFault, analysed, respelled, table_melds
from croupier.games.scala40.rules import rules_for
from croupier.v1 import game_pb2

MeldKey = tuple[tuple[int, ...], tuple[int, ...]]


def canonical_meld(
    cards: Sequence[int], joker_as: Sequence[int], rules: MeldRules
) -> MeldKey | None:
    """The one spelling of a meld written in any order (module docstring):
    the input itself when it is a meld as written, another order of it when
    exactly one reading is a meld, else None (no meld, or two readings). A
    meld as written costs one look-up of the analyser's cache."""
    key = (tuple(cards), tuple(joker_as))
    try:
        analysed(*key, rules)
    except MeldError:
        forced = forced_identities(*key)
        if forced is not None and forced != key:
            return canonical_meld(*forced, rules)
        return respelled(*key, rules)
    return key


def forced_identities(cards: tuple[int, ...], joker_as: tuple[int, ...]) -> MeldKey | None:
    """The meld with each undeclared joker (0) given the identity its place
    forces (R-S40-28): in a sequence, the card of its position as written
    (`[JK 7♥ 8♥]`: 6♥), low to high or high to low as the naturals run; in a
    set of four, the one missing suit. None when no identity is forced (a
    three-card set's joker is the player's choice: V17), or the naturals make
    neither a run nor a set."""
    if 0 not in joker_as or sum(1 for v in cards if is_joker(v)) != len(joker_as):
        return None
    naturals = [(i, v) for i, v in enumerate(cards) if not is_joker(v)]
    if not naturals or not all(is_suited(v) for _, v in naturals):
        return None
    jokers = [i for i, v in enumerate(cards) if is_joker(v)]
    ranks = {RANK_OF[v] for _, v in naturals}
    suits = {SUIT_OF[v] for _, v in naturals}
    if len(ranks) == 1:
        (rank,) = ranks
        declared = {SUIT_OF[i] for i in joker_as if i}
        missing = [s for s in SUITS if s not in suits | declared]
        if len(cards) != 4 or list(joker_as).count(0) != 1 or len(missing) != 1:
            return None
        return cards, tuple(i or card(rank, missing[0]) for i in joker_as)
    if len(suits) != 1 or len(ranks) != len(naturals):
        return None
    (suit,) = suits
    for step in (1, -1):  # written low to high, or high to low
        places = _places(naturals, step, len(cards))
        if places is not None:
            filled = [
                declared or position_card(places[index], suit)
                for index, declared in zip(jokers, joker_as, strict=True)
            ]
            return cards, tuple(filled)
    return None


def _places(naturals: list[tuple[int, int]], step: int, length: int) -> list[int] | None:
    """The sequence position (1..14; 1 and 14 the ace) of every written place,
    when the naturals stand where a run of that direction puts them."""
    anchor = next(((i, v) for i, v in naturals if RANK_OF[v] != ACE), None)
    if anchor is not None:
        index, value = anchor
        place = RANK_OF[value]
    else:  # an ace alone among jokers: at an end of the run, low or high as it runs
        index, _ = naturals[0]
        if index not in (0, length - 1):
            return None
        place = 1 if (index == 0) == (step == 1) else 14
    places = [place + step * (k - index) for k in range(length)]
    if not all(1 <= p <= 14 for p in places):
        return None
    for index, value in naturals:
        rank = RANK_OF[value]
        if not (places[index] == rank or (rank == ACE and places[index] in (1, 14))):
            return None
    return places


def canonical_move(state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
    """`move` in its one spelling (module docstring): `move` itself when it is
    canonical, no respelling of a move that fits, or ambiguous; else a copy
    (seat and stale-move guard kept) spelled canonically. Never raises: the
    state may be any valid one (the deal over, another seat to act)."""
    m = move.scala40
    action = m.WhichOneof("action")
    if action == "meld":
        return _melds(state, move, [m.meld.meld])
    if action == "open":
        return _melds(state, move, list(m.open.melds))
    if action == "split":
        return _split(state, move)
    if action == "lay_off":
        lay = m.lay_off
        if lay.end and not lay.joker_as:
            return move  # an end and no identity: a sequence's one spelling (or no fit)
        return _lay_off(state, move)
    return move


def _spelled(specs, rules, positional: bool) -> list[MeldKey] | None:  # type: ignore[no-untyped-def]
    """Each spec's one spelling, or None when one has none (the move stays
    as written). Under V23 a three-card set's undeclared joker is read where
    it is written (`analyser.read_meld`): such a spec is kept as written."""
    out = []
    for spec in specs:
        key = (tuple(spec.cards), tuple(spec.joker_as))
        if positional and len(key[0]) == 3 and key[1] == (0,):
            out.append(key)
            continue
        found = canonical_meld(*key, rules.melds)
        if found is None:
            return None
        out.append(found)
    return out


def _write(specs, keys: Sequence[MeldKey]) -> None:  # type: ignore[no-untyped-def]
    for spec, (cards, joker_as) in zip(specs, keys, strict=True):
        del spec.cards[:]
        spec.cards.extend(cards)
        del spec.joker_as[:]
        spec.joker_as.extend(joker_as)


def _melds(state: game_pb2.GameState, move: game_pb2.Move, specs: list) -> game_pb2.Move:  # type: ignore[type-arg]
    """A `Meld` or an `Open`: each meld in its one spelling (the melds of an
    opening keep their order: it gives their ids)."""
    rules = rules_for(state.options.scala40)
    keys = _spelled(specs, rules, rules.positional_convention)
    if keys is None or keys == [(tuple(s.cards), tuple(s.joker_as)) for s in specs]:
        return move
    out = game_pb2.Move()
    out.CopyFrom(move)
    m = out.scala40
    _write([m.meld.meld] if m.WhichOneof("action") == "meld" else m.open.melds, keys)
    return out


def _split(state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
    """Each part in its one spelling, the parts lowest first."""
    rules = rules_for(state.options.scala40)
    specs = list(move.scala40.split.parts)
    keys = _spelled(specs, rules, False)
    if keys is None:
        return move
    spans = []
    for key in keys:
        meld = analysed(*key, rules.melds)
        spans.append((meld.low, meld.high))
    order = sorted(range(len(keys)), key=lambda k: spans[k])
    if order != list(range(len(keys))):
        tied = any(
            spans[a] == spans[b] and keys[a] != keys[b]
            for a in range(len(keys))
            for b in range(a + 1, len(keys))
        )
        if tied:
            return move  # which part keeps the meld's id: the order written decides
        keys = [keys[k] for k in order]
    if keys == [(tuple(s.cards), tuple(s.joker_as)) for s in specs]:
        return move
    out = game_pb2.Move()
    out.CopyFrom(move)
    _write(out.scala40.split.parts, keys)
    return out


def _lay_off(state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
    lay = move.scala40.lay_off
    rules = rules_for(state.options.scala40)
    try:
        table = table_melds(state.scala40.melds, rules.melds)
    except TableFault:
        return move
    table_meld = next((t for t in table.melds if t.id == lay.meld_id), None)
    if table_meld is None:
        return move
    meld = table_meld.meld
    if meld.kind == SET:
        # A joker laid undeclared on a set of three makes a set of four: its
        # identity is forced, the one suit missing (R-S40-28).
        missing = [s for s in SUITS if s not in {SUIT_OF[i] for i in meld.identities if i}]
        if not (is_joker(lay.card) and not lay.joker_as and len(meld.cards) == 3):
            return move
        if len(missing) != 1 or 0 in meld.identities:
            return move
        out = game_pb2.Move()
        out.CopyFrom(move)
        out.scala40.lay_off.joker_as = card(meld.low, missing[0])  # type: ignore[assignment]
        return out
    found = respelled_lay_off(meld, lay.card, lay.end, lay.joker_as, rules.melds)
    if found is None:
        return move
    out = game_pb2.Move()
    out.CopyFrom(move)
    out.scala40.lay_off.end, out.scala40.lay_off.joker_as = found  # type: ignore[assignment]
    return out
