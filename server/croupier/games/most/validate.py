"""Is a «Мост» state (or move) well formed? Checked before any rule runs.

Any state that passes is a game (DESIGN.md): a hand-built position is as
good as a dealt one, and its turn can be completed (C-M-1). Each check names
the field that breaks it.
"""

from __future__ import annotations

from croupier.engine import caches
from croupier.engine.cards import BLACK_JOKER, LAST_SUITED, card_text, is_joker
from croupier.engine.conservation import check_conservation, holds_exactly
from croupier.engine.errors import InvalidInput
from croupier.engine.melds import MeldError, check_card, check_lay_off_shape
from croupier.games.most import completion
from croupier.games.most.position import Position, table_of
from croupier.games.most.rules import DECK, rules_for
from croupier.games.most.table import DEAL_OVER, DRAW, PLAY
from croupier.v1 import game_pb2

P = "state.most"
MAX_SCORE = 10**12  # a total far beyond any match (a hand moves it by under 1,000)
_DECK = list(DECK)


def validate(state: game_pb2.GameState) -> None:
    """Raise InvalidInput unless the «Мост» part of `state` is consistent."""
    options = state.options.most
    deal = state.most
    n = len(state.seats)
    if options.players != n:
        raise InvalidInput(
            "state.options.most.players",
            f"says {options.players} players but the state has {n} seats",
        )
    for name in ("hands", "melded"):
        if len(getattr(deal, name)) != n:
            raise InvalidInput(f"{P}.{name}", f"needs one entry per seat ({n})")
    hands = [h.cards for h in deal.hands]
    melds = [m.cards for m in deal.melds]
    if not holds_exactly([*hands, deal.stock, deal.bridge, *melds], _DECK):
        zones = [(f"{P}.hands[{i}].cards", cards) for i, cards in enumerate(hands)]
        zones += [(f"{P}.stock", deal.stock), (f"{P}.bridge", deal.bridge)]
        zones += [(f"{P}.melds[{i}].cards", cards) for i, cards in enumerate(melds)]
        check_conservation(zones, _DECK, P)
    _check_seats(state)
    _check_melds(state)
    if deal.reshuffled and not rules_for(state.options.most).reshuffle:
        raise InvalidInput(
            f"{P}.reshuffled", "the bridge becomes the stock only under RESHUFFLE_BRIDGE (R-M-23)"
        )
    if deal.table_cards_at_reshuffle > sum(len(m) for m in melds):
        raise InvalidInput(
            f"{P}.table_cards_at_reshuffle", "more than the cards on the table (C-M-2)"
        )
    if deal.exchanged_since_reshuffle and not melds:
        raise InvalidInput(
            f"{P}.exchanged_since_reshuffle", "no meld on the table to exchange a joker in"
        )
    _check_turn(state)


def _check_seats(state: game_pb2.GameState) -> None:
    for i, seat in enumerate(state.seats):
        if seat.team:
            raise InvalidInput(f"state.seats[{i}].team", "«Мост» has no partnerships: must be 0")
        if seat.eliminated:
            raise InvalidInput(f"state.seats[{i}].eliminated", "nobody leaves a «Мост» match")
        if not -MAX_SCORE <= seat.score <= MAX_SCORE:
            raise InvalidInput(f"state.seats[{i}].score", f"a total is within ±{MAX_SCORE}")
    if state.most.dealer >= len(state.seats):
        raise InvalidInput(f"{P}.dealer", f"seat {state.most.dealer} does not exist")


# Tables (melds, bridge, who has melded) already found consistent: most moves
# leave the table as it was, so each distinct table is checked once.
# Keyed by a digest of the table (engine/caches.py, digest): 49 bytes a key.
_GOOD_TABLES: caches.BoundedSet[bytes] = caches.BoundedSet("most.validate.good_tables", 1024, 130)


def _check_melds(state: game_pb2.GameState) -> None:
    deal = state.most
    key = caches.digest(
        len(state.seats),
        deal.next_meld_id,
        bytes(deal.melded),
        [m.SerializeToString() for m in deal.melds],  # not joined: see table_of
        bytes(deal.bridge),
        state.options.most.SerializeToString(),
    )
    if key in _GOOD_TABLES:
        return
    _check_table(state)
    _GOOD_TABLES.put(key)


def _check_table(state: game_pb2.GameState) -> None:
    deal = state.most
    seats = len(state.seats)
    ids = set()
    for i, meld in enumerate(deal.melds):
        path = f"{P}.melds[{i}]"
        if not 0 < meld.id < deal.next_meld_id or meld.id in ids:
            raise InvalidInput(f"{path}.id", "ids are distinct, from 1 and below next_meld_id")
        ids.add(meld.id)
        if meld.owner >= seats or not deal.melded[meld.owner]:
            raise InvalidInput(f"{path}.owner", "must be a seat that has melded this hand")
        if len(meld.joker_as) != sum(1 for v in meld.cards if is_joker(v)):
            raise InvalidInput(f"{path}.joker_as", "needs one identity per joker")
        for value in meld.joker_as:
            if not 1 <= value <= LAST_SUITED:
                raise InvalidInput(f"{path}.joker_as", f"an identity is a suited card; got {value}")
        if len(meld.credited_to) != len(meld.cards):
            raise InvalidInput(f"{path}.credited_to", "needs one seat per card")
        if any(seat >= seats for seat in meld.credited_to):
            raise InvalidInput(f"{path}.credited_to", "names a seat that does not exist")
    rules = rules_for(state.options.most)
    try:
        table_of(deal.melds, rules)
    except MeldError as error:
        index = getattr(error, "index", 0)
        raise InvalidInput(
            f"{P}.melds[{index}].cards", f"not a valid meld: {error.message}"
        ) from None
    seen: set[int] = set()
    for where, cards in [("bridge", deal.bridge), *[
        (f"melds[{i}]", [*(v for v in m.cards if not is_joker(v)), *m.joker_as])
        for i, m in enumerate(deal.melds)
    ]]:  # fmt: skip
        for value in cards:
            if is_joker(value):
                continue
            if value in seen:
                raise InvalidInput(
                    f"{P}.{where}",
                    f"{card_text(value)} lies on the table twice: a card and a joker standing "
                    "for it (R-M-13)",
                )
            seen.add(value)


def _check_turn(state: game_pb2.GameState) -> None:
    deal = state.most
    phase = deal.phase
    in_play = state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    if phase not in (DRAW, PLAY, DEAL_OVER):
        raise InvalidInput(f"{P}.phase", f"unknown phase {phase}")
    if (phase == DEAL_OVER) == in_play:
        raise InvalidInput(
            f"{P}.phase", "must be DEAL_OVER exactly when the match phase is not in progress"
        )
    for name in ("drawn_card", "bridge_card"):
        value = getattr(deal, name)
        if not 0 <= value <= BLACK_JOKER:
            raise InvalidInput(f"{P}.{name}", f"not a card: {value}")
        if value and phase != PLAY:
            raise InvalidInput(f"{P}.{name}", "is set only in phase PLAY")
    if deal.bridge_card_owed and phase != PLAY:
        raise InvalidInput(f"{P}.bridge_card_owed", "is set only in phase PLAY")
    if phase != PLAY:
        return
    seat = state.current_seat
    hand = deal.hands[seat].cards
    if not hand:
        raise InvalidInput(f"{P}.hands[{seat}].cards", "the seat to act holds a card")
    if deal.drawn_card and deal.bridge_card:
        raise InvalidInput(
            f"{P}.bridge_card", "a turn draws from the stock or the bridge, not both"
        )
    for name in ("drawn_card", "bridge_card"):
        value = getattr(deal, name)
        if value and value not in hand and not any(value in m.cards for m in deal.melds):
            # The view shows the drawn card to the seat to act: never another hand's card.
            raise InvalidInput(
                f"{P}.{name}", "the card drawn or taken is in the hand or on the table"
            )
    if deal.bridge_card_owed and deal.bridge_card not in hand:
        raise InvalidInput(
            f"{P}.bridge_card_owed", "the bridge card still owed to a meld is in the hand"
        )
    pos = Position.read(state, rules_for(state.options.most))
    if completion.refusal(pos) is not None:
        raise InvalidInput(
            f"{P}.hands[{seat}].cards", "the turn of the seat to act cannot be completed (C-M-1)"
        )


def check_move_shape(move: game_pb2.Move) -> None:
    """Raise InvalidInput unless the move is one action with the fields it needs."""
    m = move.most
    path = "move.most"
    action = m.WhichOneof("action")
    if action is None:
        raise InvalidInput(
            path,
            "needs one action: draw_stock, take_bridge, meld, lay_off, exchange_joker or discard",
        )
    if action == "take_bridge":
        check_card(m.take_bridge.card, f"{path}.take_bridge.card")
    elif action == "meld":
        spec = m.meld
        if not spec.cards:
            raise InvalidInput(f"{path}.meld.cards", "a meld needs cards")
        for value in spec.cards:
            check_card(value, f"{path}.meld.cards")
        jokers = sum(1 for v in spec.cards if is_joker(v))
        if len(spec.joker_as) != jokers:
            raise InvalidInput(
                f"{path}.meld.joker_as",
                f"one identity per joker in the meld ({jokers}); got {len(spec.joker_as)}",
            )
        for value in spec.joker_as:
            if not 0 <= value <= LAST_SUITED:
                raise InvalidInput(
                    f"{path}.meld.joker_as", f"an identity is a suited card; got {value}"
                )
        if len(set(spec.cards)) != len(spec.cards):
            raise InvalidInput(f"{path}.meld.cards", "names a card twice (every card is unique)")
    elif action == "lay_off":
        lay = m.lay_off
        check_lay_off_shape(lay.card, lay.end, lay.joker_as, f"{path}.lay_off")
    elif action == "exchange_joker":
        check_card(m.exchange_joker.card, f"{path}.exchange_joker.card")
    elif action == "discard":
        check_card(m.discard.card, f"{path}.discard.card")
