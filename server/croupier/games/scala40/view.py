"""What one seat may see of a Scala 40 deal: its own hand, every meld on the
table, the discard pile, the stock size and every hand's size."""

from __future__ import annotations

from collections import Counter

from croupier.engine.cards import card_text
from croupier.engine.melds import meld_text
from croupier.games.scala40.analyser import table_melds
from croupier.games.scala40.rules import rules_for
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb


def fill_view(state: game_pb2.GameState, seat: int, view: game_pb2.View) -> None:
    """Fill `view.scala40` for `seat`."""
    deal = state.scala40
    rules = rules_for(state.options.scala40)
    v = view.scala40
    v.hand.extend(deal.hands[seat].cards)
    v.hand_sizes.extend(len(h.cards) for h in deal.hands)
    v.stock_size = len(deal.stock)
    v.discard.extend(deal.discard)
    for table_meld in table_melds(deal.melds, rules.melds).melds:  # K-S40-2: as the rules read them
        meld = table_meld.meld
        v.melds.add(
            id=table_meld.id,
            owner=table_meld.owner,
            cards=meld.cards,
            joker_as=meld.joker_as,
            value=meld.value,
        )
    v.opened.extend(deal.opened)
    v.turns_started.extend(deal.turns_started)
    v.phase = deal.phase
    v.dealer = deal.dealer
    if seat == state.current_seat:
        v.drawn_card = deal.drawn_card  # everyone saw a card drawn; only its owner which
    v.taken_card = deal.taken_card
    v.taken_must_be_placed = deal.taken_must_be_placed
    v.jokers_owed = deal.jokers_owed
    v.opened_this_turn = deal.opened_this_turn
    v.must_close = deal.must_close
    v.restocks_without_play = deal.restocks_without_play


def view_text(view: game_pb2.View) -> str:
    """One line of what a Scala 40 view shows."""
    v = view.scala40
    top = card_text(v.discard[-1]) if v.discard else "-"
    melds = " ".join(f"{m.id}:{meld_text(m.cards, m.joker_as)}" for m in v.melds) or "-"
    opened = "".join("o" if o else "." for o in v.opened)
    parts = [
        f"hand {' '.join(card_text(c) for c in v.hand) or '-'}",
        f"top {top}",
        f"stock {v.stock_size}",
        f"sizes {'/'.join(map(str, v.hand_sizes))}",
        f"opened {opened}",
        f"melds {melds}",
        pb.Scala40Phase.Name(v.phase).removeprefix("SCALA40_PHASE_").lower(),
    ]
    if v.drawn_card:
        parts.append(f"drawn {card_text(v.drawn_card)}")
    if v.taken_card:
        parts.append(f"taken {card_text(v.taken_card)}")
    if v.jokers_owed:
        parts.append(f"jokers owed {v.jokers_owed}")
    if v.must_close:
        parts.append("must close")
    return ", ".join(parts)


def visible_cards(state: game_pb2.GameState, seat: int) -> Counter[int]:
    """Every card `seat` may see: its hand, the discard pile, the melds on the
    table and the cards their jokers stand for (public declarations), and the
    card taken from the discard pile this turn (everyone saw it taken)."""
    deal = state.scala40
    seen: Counter[int] = Counter([*deal.hands[seat].cards, *deal.discard])
    if deal.taken_card:
        seen[deal.taken_card] += 1
    for meld in deal.melds:
        seen.update(meld.cards)
        seen.update(v for v in meld.joker_as if v)
    return seen
