"""Differential test of the three counting games against an independent model.

The model below is written from the rules text alone — the shared
specification (`rummy_and_counting.md` part 3, §3.A «Сто», §3.B One Hundred,
§3.C 101 with chips, §3.D clarifications) and the games' RULES.md (which
settles the points the shared text leaves open: the E-C-… engine
resolutions, the presets) — never from the implementation under
`croupier/games/counting/`. It knows only the public shape of a position
(`CountingState`, `MatchState`, `Seat` in the protos) and drives the games
through `Session`.

What the model decides for itself, position after position:

* the legal moves of the seat to act, in canonical order, with their texts
  (every card it may play with the value choices its card table gives, and
  `CONCEDE`);
* the position after each move: the total, the direction, hands, stock and
  pile, the seat to act, scores (penalty points, chip balances, lives, chips),
  eliminations, exact-100 payments;
* each deal's end (deal points and deal winners), the next deal (dealer, lead,
  starting total, hand sizes), and the match's end (winners, «Сто»'s losers).

What it takes from the engine: only the chance — the cards each deal gives
(checked for size and for the pack), the first dealer drawn by lot (checked to
be a seat), and the order of a reshuffled stock and of cards put under the
pile (checked to be exactly the cards the rules move there).

The comparison plays seeded random matches (`random.Random`, fixed seeds)
under a list of option tables: each preset, each option switched, several
seat counts. The moves are drawn from the engine's listing, uniformly by card
or steered (by the model's own arithmetic) towards long deals or exact hits,
so that restocks, exact-100 payments and totals held at the limit occur.

Disagreements: none found (also none over 291,360 positions of a wider run
with 30 seeds per seat count and more tables). No case is excluded below.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from croupier.engine.errors import InvalidInput
from croupier.engine.session import Session
from croupier.v1 import counting_pb2, game_pb2

# -- cards (cards.proto numbering: 1 + 13 * suit index + rank index) -------------------

SUITS = "CDHS"  # clubs, diamonds, hearts, spades: suit index 0..3
RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}
JACK, QUEEN, KING, ACE = 11, 12, 13, 14


def rank(card: int) -> int:
    """The rank of a FrenchCard value: 2..10, J 11, Q 12, K 13, A 14."""
    return 2 + (card - 1) % 13


def suit(card: int) -> str:
    """The suit letter of a FrenchCard value: C, D, H or S."""
    return SUITS[(card - 1) // 13]


def card_of(rank_: int, suit_: str) -> int:
    """The FrenchCard value of a rank and a suit letter."""
    return 1 + 13 * SUITS.index(suit_) + (rank_ - 2)


def card_text(card: int) -> str:
    """The move text of a card: "10H", "QS", "AD" (RULES.md, Moves)."""
    return RANK_TEXT.get(rank(card), str(rank(card))) + suit(card)


def is_black(card: int) -> bool:
    """Spades and clubs are black (0.1 Notation)."""
    return suit(card) in "SC"


# -- options: the catalogue defaults and the presets (RULES.md, Presets; O-C…) ----------

DEFAULTS: dict[str, dict[str, Any]] = {
    "sto": {
        "card_values": "SEED",  # O-C1-1
        "leftovers": "ASIDE",  # O-C1-2
        "deals_per_match": 3,  # O-C1-3
        "settlement": "PENALTY_POINTS",  # O-C1-4
    },
    "one_hundred": {
        "hand_size": 4,  # O-C2-1
        "lives": 1,  # O-C2-3
        "after_bust": "REDEAL",  # O-C2-4
        "floor_zero": True,  # O-C2-5
        "other_queens": 10,  # O-C2-6
    },
    "chips_101": {
        "limit": 101,  # O-C3-1
        "card_table": "NINETY_NINE_101",  # O-C3-2
        "ten_effect": "MINUS_10",  # O-C3-3
        "chips": 3,  # O-C3-4
        "floor_zero": True,  # O-C3-5
    },
}

PRESETS: dict[tuple[str, str], dict[str, Any]] = {
    ("sto", "seed"): {},
    ("sto", "hundert"): {
        "card_values": "SKAT_HUNDERT",
        "leftovers": "FACE_UP_START_TOTAL",
        "settlement": "HUNDERT_CHIPS",
    },
    ("one_hundred", "seed"): {},
    ("one_hundred", "gamerules"): {"hand_size": 3, "lives": 3},
    ("chips_101", "seed"): {},
    ("chips_101", "pagat"): {"ten_effect": "PLUS_OR_MINUS_10", "chips": 5},
}


def resolve(game: str, preset: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """A table's options: catalogue default < preset < the options named."""
    return {**DEFAULTS[game], **PRESETS[(game, preset)], **overrides}


# -- the rules, as functions of the options ---------------------------------------------

ENGINE_FLOOR = -1_000_000  # E-C-2: no total goes below this


def pack(game: str, n: int) -> Counter[int]:
    """The cards of a game: «Сто» 7..A (R-C1-01, 32 cards); the others one
    52-card pack (R-C2-01, R-C3-01), two for One Hundred from 7 seats (C-C-1)."""
    if game == "sto":
        return Counter(card_of(r, s) for s in SUITS for r in range(7, 15))
    copies = 2 if game == "one_hundred" and n >= 7 else 1
    return Counter({card_of(r, s): copies for s in SUITS for r in range(2, 15)})


def hand_size(game: str, o: dict[str, Any], n: int) -> int:
    """Cards dealt to each seat: ⌊32/n⌋ in «Сто» (R-C1-03), `hand_size` in
    One Hundred (R-C2-02, O-C2-1), 3 in 101 with chips (R-C3-02)."""
    if game == "sto":
        return 32 // n
    return o["hand_size"] if game == "one_hundred" else 3


def limit(game: str, o: dict[str, Any]) -> int:
    """The highest safe total: 100 in «Сто» (R-C1-05) and One Hundred
    (R-C2-06); 101 with chips: `limit` (O-C3-1), or 100 under `card_table`
    ONE_HUNDRED whatever `limit` says (C-C-2)."""
    if game == "chips_101" and o["card_table"] == "NINETY_NINE_101":
        return int(o["limit"])
    return 100


def card_table(game: str, o: dict[str, Any]) -> str:
    """Which card table applies: «Сто»'s values (R-C1-02), One Hundred's
    (R-C2-04; also 101 with chips under `card_table` ONE_HUNDRED, O-C3-2) or
    Ninety-Nine's adapted to 101 (R-C3-04)."""
    if game == "sto":
        return "sto"
    if game == "one_hundred" or o["card_table"] == "ONE_HUNDRED":
        return "one_hundred"
    return "ninety_nine"


def floor_zero(game: str, o: dict[str, Any]) -> bool:
    """Whether a total below 0 becomes 0 (R-C2-05/O-C2-5, R-C3-04/O-C3-5);
    «Сто»'s values only add."""
    return game == "sto" or bool(o["floor_zero"])


def sto_value(card: int, o: dict[str, Any]) -> int:
    """«Сто» card values (R-C1-02): A 11, 10 10, 9 9, 8 8, 7 7, K 4, Q 3,
    J 2; under SKAT_HUNDERT 9, 8, 7 are worth 0 (O-C1-1)."""
    r = rank(card)
    named = {ACE: 11, 10: 10, KING: 4, QUEEN: 3, JACK: 2}
    if r in named:
        return named[r]
    return 0 if o["card_values"] == "SKAT_HUNDERT" else r


Choice = tuple[str, int] | None  # ("adds", v) | ("sets", v) | None
Key = tuple[Any, ...]  # ("play", card, choice) | ("concede",)


def choices(table: str, o: dict[str, Any], card: int) -> list[Choice]:
    """The choices a card takes, ascending (RULES.md, Moves; E-C-5): One
    Hundred's black ace sets 0..100 (R-C2-04, T-C2-07); Ninety-Nine's ace adds
    1 or 11 and its ten -10 or +10 under PLUS_OR_MINUS_10 (R-C3-04, O-C3-3).
    Every other card takes none."""
    r = rank(card)
    if table == "one_hundred" and r == ACE and is_black(card):
        return [("sets", v) for v in range(0, 101)]
    if table == "ninety_nine" and r == ACE:
        return [("adds", 1), ("adds", 11)]
    if table == "ninety_nine" and r == 10 and o["ten_effect"] == "PLUS_OR_MINUS_10":
        return [("adds", -10), ("adds", 10)]
    return [None]


def one_hundred_effect(card: int, total: int, choice: Choice, queens: int) -> tuple[int, bool]:
    """One Hundred's card table (R-C2-04, A-C2-01, A-C2-04, O-C2-6): the new
    total before the floor, and whether the direction reverses."""
    r, s = rank(card), suit(card)
    if r == ACE and is_black(card):
        assert choice is not None
        return choice[1], False
    if r == 2 and s == "S":
        return 2 * total, False
    if r == 4:
        return total, True
    if r == 5 and s in "HD":
        return total - 5, False
    if r == 10:
        return 100, False
    if r == JACK:
        return total - 10, False
    if r == QUEEN:
        return (0 if s == "H" else total + queens), False
    if r == KING:
        return total, False
    return total + (1 if r == ACE else r), False  # red aces 1, pips


def ninety_nine_effect(card: int, total: int, choice: Choice, lim: int) -> tuple[int, bool]:
    """Ninety-Nine's table adapted to 101 (R-C3-04, A-C3-01; O-C3-1 for K):
    A +1/+11, 2 3 5 6 7 8 their value, 4 +0 and reverse, 9 +0, 10 -10 (or the
    chosen ±10, O-C3-3), J Q +10, K sets the limit (T-C3-09: 100 under limit
    100)."""
    r = rank(card)
    if choice is not None:  # an ace's or a ten's chosen value
        return total + choice[1], False
    if r == 4:
        return total, True
    if r == 9:
        return total, False
    if r == 10:
        return total - 10, False
    if r in (JACK, QUEEN):
        return total + 10, False
    if r == KING:
        return lim, False
    return total + r, False


def effect(game: str, o: dict[str, Any], card: int, choice: Choice, total: int) -> tuple[int, bool]:
    """A card's new total and whether it reverses: the card table, then the
    floor at 0 when on (R-C2-05, R-C3-04) and the engine's floor (E-C-2)."""
    table = card_table(game, o)
    if table == "sto":
        new, rev = total + sto_value(card, o), False  # R-C1-04
    elif table == "one_hundred":
        queens = 10 if game == "chips_101" else int(o["other_queens"])  # O-C3-2
        new, rev = one_hundred_effect(card, total, choice, queens)
    else:
        new, rev = ninety_nine_effect(card, total, choice, limit(game, o))
    if floor_zero(game, o):
        new = max(new, 0)
    return max(new, ENGINE_FLOOR), rev


def start_score(game: str, o: dict[str, Any]) -> int:
    """A seat's standing at the start (E-C-9): «Сто» 0 points or chips
    (C-C-4), One Hundred `lives` (O-C2-3), 101 with chips `chips` (R-C3-01)."""
    return {"sto": 0, "one_hundred": o.get("lives"), "chips_101": o.get("chips")}[game]


def chip_settlement(o: dict[str, Any]) -> bool:
    """«Сто» settled in chips rather than penalty points (O-C1-4)."""
    return o["settlement"] != "PENALTY_POINTS"


# -- the model's position ----------------------------------------------------------------


@dataclass
class Model:
    """A counting table as the model sees it (the fields of CountingState,
    MatchState and the seats' scores)."""

    game: str
    o: dict[str, Any]
    n: int
    scores: list[int]
    out: list[bool]
    hands: list[Counter[int]] = field(default_factory=list)
    stock: list[int] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)
    leftovers: list[int] = field(default_factory=list)
    total: int = 0
    reversed: bool = False
    dealer: int = 0
    current: int = 0
    phase: str = "play"  # play | deal_over | match_over
    deal_number: int = 1
    delta: list[int] = field(default_factory=list)  # «Сто»: this deal's score changes
    deal_points: list[int] = field(default_factory=list)
    deal_winners: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    losers: list[int] | None = None  # «Сто»: MATCH_LOST, None when nobody
    exact_seat: int | None = None
    log: list[tuple[Any, ...]] = field(default_factory=list)  # the events of the last step


def new_model(game: str, o: dict[str, Any], n: int) -> Model:
    """A match before its first deal: every seat in, at its starting score."""
    return Model(game, o, n, [start_score(game, o)] * n, [False] * n)


def in_seats(m: Model) -> list[int]:
    """The seats still in the match (E-C-9: out exactly at 0 lives/chips)."""
    return [p for p in range(m.n) if not m.out[p]]


def next_seat(m: Model, p: int, *, clockwise: bool = False, with_cards: bool = True) -> int | None:
    """next(p): the first seat after p in the direction of play (clockwise
    when asked, for dealing) still in the match; with `with_cards`, one that
    holds a card (E-C-1 passes a seat without cards over). None when no seat
    qualifies."""
    step = 1 if clockwise or not m.reversed else -1
    q = p
    for _ in range(m.n):
        q = (q + step) % m.n
        if not m.out[q] and (not with_cards or m.hands[q]):
            return q
    return None


def legal_moves(m: Model) -> list[Key]:
    """The legal moves of the seat to act, in canonical order (RULES.md,
    Moves): by card value, each card once (C-C-1), its choices ascending,
    CONCEDE last. «Сто» and One Hundred: any card, a bust included (A-C1-04,
    A-C2-05); 101 with chips: only a play whose total stays within the limit
    (R-C3-05, A-C3-04), and CONCEDE exactly when there is none (E-C-3: a
    play that leaves the next seat so loses the deal for it at once, `play`)."""
    table = card_table(m.game, m.o)
    lim = limit(m.game, m.o)
    moves: list[Key] = []
    for card in sorted(m.hands[m.current]):
        for choice in choices(table, m.o, card):
            new, _ = effect(m.game, m.o, card, choice, m.total)
            if m.game == "chips_101" and new > lim:
                continue
            moves.append(("play", card, choice))
    if m.game == "chips_101" and not moves:
        moves.append(("concede",))
    return moves


def notation(key: Key) -> str:
    """A move's canonical text (RULES.md, Moves): "7D", "AC=73", "AH+11",
    "10S-10", "CONCEDE"."""
    if key[0] == "concede":
        return "CONCEDE"
    _, card, choice = key
    if choice is None:
        return card_text(card)
    kind, value = choice
    return card_text(card) + (f"={value}" if kind == "sets" else f"{value:+d}")


Order = Callable[[str, list[int]], list[int]]  # the engine's arrangement of moved cards


def start_deal(m: Model, dealer: int) -> None:
    """A deal's position before its cards (R-C1-03/04, R-C2-02, R-C3-02,
    E-C-8): clockwise, the dealer's next seat still in leads, empty pile, no
    exact-100 yet."""
    m.phase = "play"
    m.dealer = dealer
    m.reversed = False
    m.pile = []
    m.exact_seat = None
    m.delta = [0] * m.n
    lead = next_seat(m, dealer, clockwise=True, with_cards=False)
    assert lead is not None
    m.current = lead
    m.log = []


def deal_cards(m: Model, hands: list[Counter[int]], stock: list[int], leftovers: list[int]) -> None:
    """Take the cards the deal gave; «Сто»'s face-up leftovers start the
    total (O-C1-2, T-C1-06), every other deal starts at 0 (R-C2-02, R-C3-02)."""
    m.hands, m.stock, m.leftovers = hands, stock, leftovers
    face_up = m.game == "sto" and m.o["leftovers"] == "FACE_UP_START_TOTAL"
    m.total = sum(sto_value(c, m.o) for c in leftovers) if face_up else 0
    m.log.append(("DEAL_STARTED", m.dealer, m.current, tuple(sorted(leftovers if face_up else ()))))


def next_dealer(m: Model) -> int:
    """The next deal's dealer: the seat after the last dealer still in
    (R-C1-03, R-C2-06, A-C3-03, E-C-8)."""
    dealer = next_seat(m, m.dealer, clockwise=True, with_cards=False)
    assert dealer is not None
    return dealer


def pay(m: Model, seat: int, each: int) -> None:
    """«Сто» chips: `seat` receives `each` chips from every opponent (a
    negative `each`: pays each opponent) (O-C1-4)."""
    for p in range(m.n):
        amount = each * (m.n - 1) if p == seat else -each
        m.scores[p] += amount
        m.delta[p] += amount


def sto_exact_hundred(m: Model, seat: int, before: int) -> None:
    """C-C-4: a card taking the total from below 100 to exactly 100 collects
    at once, 3 from each opponent under HUNDERT_CHIPS, 1 under FEDER_CHIPS
    (O-C1-4); nothing under penalty points. The seat is recorded."""
    if chip_settlement(m.o) and before < 100 and m.total == 100:
        each = 3 if m.o["settlement"] == "HUNDERT_CHIPS" else 1
        pay(m, seat, each)
        m.exact_seat = seat
        m.log.append(("EXACT_HUNDRED", seat, each))


def sto_bust(m: Model, seat: int) -> None:
    """R-C1-05, O-C1-4: the buster scores the overshoot (total − 100) as
    penalty points, or pays it in chips to each opponent (HUNDERT_CHIPS), or
    pays 1 to each (FEDER_CHIPS); the deal ends at once."""
    over = m.total - 100
    m.log.append(("BUSTED", seat, m.total))
    if m.o["settlement"] == "PENALTY_POINTS":
        m.scores[seat] += over
        m.delta[seat] += over
    else:
        pay(m, seat, -(over if m.o["settlement"] == "HUNDERT_CHIPS" else 1))
    end_deal(m, seat)


def sto_match_result(m: Model) -> None:
    """R-C1-06, A-C1-03, C-C-4: the winners are the fewest penalty points
    (the most chips); the losers the most points (the fewest chips), ties
    sharing, nobody when every seat stands equal."""
    key = (lambda p: -m.scores[p]) if chip_settlement(m.o) else (lambda p: m.scores[p])
    best = min(key(p) for p in range(m.n))
    worst = max(key(p) for p in range(m.n))
    m.winners = [p for p in range(m.n) if key(p) == best]
    m.losers = None if best == worst else [p for p in range(m.n) if key(p) == worst]


def end_deal(m: Model, loser: int | None) -> None:
    """A deal ends (E-C-6): deal points are «Сто»'s score changes of the
    deal, else −1 for the loser; the deal winners are the seats still in other
    than the loser. The match ends after «Сто»'s last deal (O-C1-3) or when
    one seat is left (R-C2-06, R-C3-06)."""
    if m.game == "sto":
        m.deal_points = list(m.delta)
    else:
        m.deal_points = [-1 if p == loser else 0 for p in range(m.n)]
    m.deal_winners = [p for p in in_seats(m) if p != loser]
    m.phase = "deal_over"
    m.log.append(("DEAL_ENDED", tuple(m.deal_points), tuple(sorted(m.deal_winners))))
    if m.game == "sto":
        if m.deal_number == m.o["deals_per_match"]:
            m.phase = "match_over"
            sto_match_result(m)
            if m.losers is not None:
                m.log.append(("MATCH_LOST", tuple(m.losers)))
    elif len(in_seats(m)) == 1:
        m.phase = "match_over"
        m.winners = in_seats(m)
    if m.phase == "match_over":
        m.log.append(("MATCH_ENDED",))


def lose_life(m: Model, seat: int) -> None:
    """One Hundred's bust (R-C2-06, O-C2-3) and 101's concession (R-C3-05):
    one life / chip less; none left: out of the match (R-C3-06, E-C-9)."""
    m.scores[seat] -= 1
    m.log.append(("LIFE_LOST", seat, m.scores[seat]))
    if m.scores[seat] == 0:
        m.out[seat] = True
        m.log.append(("SEAT_ELIMINATED", seat))


def one_hundred_bust(m: Model, seat: int, order: Order) -> None:
    """R-C2-06 / O-C2-3 / O-C2-4: the buster loses a life (with `lives` 1: is
    out). REDEAL (or lives above 1, C-C-3): the deal ends. CONTINUE: unless
    one seat is left, the buster's cards go face up under the pile, the total
    is 0 and the next player (in the direction of play) leads from the same
    stock (E-C-4).

    The buster has drawn first: the shared text's general turn model (part 3
    preamble: "→ [draw if the game refills] → bust check →") puts the draw
    before the bust check, and RULES.md (A turn) follows it (rules version 3;
    before, the bust ended the turn before the draw)."""
    m.log.append(("BUSTED", seat, m.total))
    lose_life(m, seat)
    if m.o["after_bust"] == "CONTINUE" and len(in_seats(m)) > 1:
        buried = sorted(m.hands[seat].elements())
        m.hands[seat] = Counter()
        m.pile = order("buried", buried) + m.pile
        m.total = 0
        m.log.append(("TOTAL_RESET", tuple(buried)))
        m.current = next_seat(m, seat)  # type: ignore[assignment]
        return
    end_deal(m, seat)


def draw(m: Model, seat: int, order: Order) -> None:
    """R-C2-03 / R-C3-03: draw one card from the stock's top; an empty stock
    is first made again from the pile less its top card, shuffled, the total
    unchanged (R-C2-07, R-C3-03, T-C2-12, T-C3-10)."""
    if not m.stock:
        m.stock = order("stock", m.pile[:-1])
        m.pile = m.pile[-1:]
        m.log.append(("STOCK_RESTOCKED",))
    m.hands[seat][m.stock.pop(0)] += 1
    m.log.append(("CARDS_DRAWN", seat))


def play(m: Model, key: Key, order: Order) -> None:
    """One move of the seat to act (RULES.md, A turn): the card goes on the
    pile, the total changes (a four reverses), the refilling games draw, a
    total above the limit is a bust; otherwise the turn passes on. CONCEDE
    costs a chip and ends the deal (R-C3-05)."""
    seat = m.current
    m.log = []
    if key[0] == "concede":  # a position built by hand (E-C-3)
        concede(m, seat)
        return
    _, card, choice = key
    m.hands[seat][card] -= 1
    if not m.hands[seat][card]:
        del m.hands[seat][card]
    m.pile.append(card)
    before = m.total
    m.total, reverses = effect(m.game, m.o, card, choice, before)
    m.log.append(("CARD_PLAYED", seat, card, m.total, before))
    if reverses:
        m.reversed = not m.reversed
        m.log.append(("DIRECTION_REVERSED",))
    if m.game != "sto":
        draw(m, seat, order)
    if m.total > limit(m.game, m.o):
        if m.game == "sto":
            sto_bust(m, seat)
        else:
            one_hundred_bust(m, seat, order)
        return
    if m.game == "sto":
        sto_exact_hundred(m, seat, before)
    nxt = next_seat(m, seat)
    if nxt is None:  # E-C-1: nobody still in holds a card
        end_deal(m, None)
        return
    m.current = nxt
    if legal_moves(m) == [("concede",)]:  # R-C3-05, A-C3-04: lost at once
        concede(m, nxt)


def concede(m: Model, seat: int) -> None:
    """R-C3-05: the seat on turn has no legal play: it loses a chip and the deal."""
    m.log.append(("CONCEDED", seat))
    lose_life(m, seat)
    end_deal(m, seat)


# -- reading the engine ------------------------------------------------------------------

PHASES = {
    game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS: "play",
    game_pb2.MATCH_PHASE_DEAL_OVER: "deal_over",
    game_pb2.MATCH_PHASE_MATCH_OVER: "match_over",
}


def key_of(move: game_pb2.Move, game: str) -> Key:
    """An engine move as the model's key."""
    action = getattr(move, game)
    if action.WhichOneof("action") == "concede":
        return ("concede",)
    played = action.play
    kind = played.WhichOneof("choice")
    choice = None if kind is None else ("adds" if kind == "adds" else "sets", getattr(played, kind))
    return ("play", played.card, choice)


def engine_hands(cs: counting_pb2.CountingState, n: int) -> list[Counter[int]]:
    """The engine's hands as multisets, one per seat."""
    return [Counter(cs.hands[p].cards) if p < len(cs.hands) else Counter() for p in range(n)]


def engine_cards(cs: counting_pb2.CountingState) -> Counter[int]:
    """Every card of the engine's state (for conservation)."""
    cards: Counter[int] = Counter(cs.stock) + Counter(cs.pile) + Counter(cs.leftovers)
    for hand in cs.hands:
        cards += Counter(hand.cards)
    return cards


def short(m: Model) -> str:
    """The model's position in short, for messages."""
    hand = " ".join(card_text(c) for c in sorted(m.hands[m.current].elements())) if m.hands else ""
    return (
        f"deal {m.deal_number} dealer P{m.dealer} P{m.current} to act, total {m.total}, "
        f"{'ccw' if m.reversed else 'cw'}, hand [{hand}], scores {m.scores}"
    )


def differences(m: Model, pos: game_pb2.GameState) -> list[str]:
    """Every field where the engine's position differs from the model's."""
    out: list[str] = []
    cs = getattr(pos, m.game)

    def same(name: str, mine: Any, engine: Any) -> None:
        if mine != engine:
            out.append(f"{name}: engine {engine!r}, model {mine!r}")

    same("phase", m.phase, PHASES[pos.match.phase])
    same("deal_number", m.deal_number, pos.match.deal_number)
    same("scores", m.scores, [s.score for s in pos.seats])
    same("eliminated", m.out, [s.eliminated for s in pos.seats])
    same("total", m.total, cs.total)
    same("pack", pack(m.game, m.n), engine_cards(cs))
    if m.phase == "play":
        same("acting_seats", [m.current], list(pos.acting_seats))
        same("reversed", m.reversed, cs.reversed)
        same("dealer", m.dealer, cs.dealer)
        same("hands", m.hands, engine_hands(cs, m.n))
        same("stock", m.stock, list(cs.stock))
        same("pile", m.pile, list(cs.pile))
        same("leftovers", Counter(m.leftovers), Counter(cs.leftovers))
        exact = cs.exact_hundred_seat if cs.HasField("exact_hundred_seat") else None
        same("exact_hundred_seat", m.exact_seat, exact)
    else:
        same("acting_seats", [], list(pos.acting_seats))
        same("deal_points", m.deal_points, list(pos.match.deal_points))
        same("deal_winners", sorted(m.deal_winners), sorted(pos.match.deal_winners))
    if m.phase == "match_over":
        same("winners", sorted(m.winners), sorted(pos.match.winners))
    return out


def deal_differences(m: Model, pos: game_pb2.GameState, first: bool) -> list[str]:
    """Check a fresh deal against the rules and take its cards: the dealer
    (by lot for the first deal, R-C1-03/R-C2-02/R-C3-02; then E-C-8), the hand
    sizes, «Сто»'s 32 mod n leftovers and no stock (R-C1-03), the others' stock
    and no leftovers, and the pack (C-C-1)."""
    cs = getattr(pos, m.game)
    out: list[str] = []
    if first:
        if not (0 <= cs.dealer < m.n):
            out.append(f"first dealer P{cs.dealer} is not a seat")
        dealer = cs.dealer % m.n
    else:
        dealer = next_dealer(m)
        m.deal_number += 1
    start_deal(m, dealer)
    size = hand_size(m.game, m.o, m.n)
    hands = engine_hands(cs, m.n)
    wanted = [0 if m.out[p] else size for p in range(m.n)]
    if [sum(h.values()) for h in hands] != wanted:
        out.append(f"hand sizes: engine {[sum(h.values()) for h in hands]}, model {wanted}")
    dealt = size * len(in_seats(m))
    if m.game == "sto":
        if len(cs.leftovers) != 32 % m.n or cs.stock:
            out.append(f"«Сто» leftovers {len(cs.leftovers)} / stock {len(cs.stock)}")
    elif cs.leftovers or len(cs.stock) != sum(pack(m.game, m.n).values()) - dealt:
        out.append(f"stock size {len(cs.stock)}, leftovers {len(cs.leftovers)}")
    deal_cards(m, hands, list(cs.stock), list(cs.leftovers))
    return out + differences(m, pos)


# -- the comparison ------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One option table: a game, a preset, options named, seat counts."""

    game: str
    preset: str
    options: dict[str, Any]
    seats: tuple[int, ...]
    seeds: int = 3  # matches per seat count (the policy cycles with the seed)
    first_seed: int = 1  # seeds 1000 * seats + first_seed, and on

    @property
    def name(self) -> str:
        named = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.game}/{self.preset}" + (f"[{named}]" if named else "")


TABLES = (
    # «Сто»
    Table("sto", "seed", {}, (3, 5, 10)),
    Table("sto", "hundert", {}, (4, 9)),
    Table("sto", "seed", {"leftovers": "FACE_UP_START_TOTAL"}, (3, 5, 6)),
    Table("sto", "seed", {"card_values": "SKAT_HUNDERT", "leftovers": "FACE_UP_START_TOTAL"},
          (3, 8)),
    Table("sto", "seed", {"deals_per_match": 1}, (4,)),
    Table("sto", "seed", {"deals_per_match": 6}, (3,)),
    Table("sto", "seed", {"settlement": "HUNDERT_CHIPS"}, (3, 5)),
    Table("sto", "seed", {"settlement": "FEDER_CHIPS"}, (4, 6)),
    Table("sto", "hundert", {"settlement": "FEDER_CHIPS"}, (3, 7)),
    Table("sto", "hundert", {"settlement": "PENALTY_POINTS"}, (5,)),
    # Seed 3013 ends with every balance equal: nobody loses (A-C1-03).
    Table("sto", "hundert", {"settlement": "FEDER_CHIPS", "deals_per_match": 1}, (3,),
          seeds=1, first_seed=13),
    # One Hundred
    Table("one_hundred", "seed", {}, (3, 4, 5)),
    Table("one_hundred", "gamerules", {}, (3, 7, 10), seeds=1),
    Table("one_hundred", "seed", {"hand_size": 3}, (4,)),
    Table("one_hundred", "seed", {"lives": 2}, (3, 5)),
    Table("one_hundred", "seed", {"after_bust": "CONTINUE"}, (3, 5)),
    Table("one_hundred", "gamerules", {"lives": 1, "after_bust": "CONTINUE"}, (8,)),
    Table("one_hundred", "seed", {"floor_zero": False}, (3, 4)),
    Table("one_hundred", "seed", {"other_queens": 0}, (3, 5)),
    Table("one_hundred", "gamerules", {"hand_size": 4, "floor_zero": False}, (7,), seeds=1),
    # 101 with chips
    Table("chips_101", "seed", {}, (2, 4, 7)),
    Table("chips_101", "pagat", {}, (2, 4), seeds=1),
    Table("chips_101", "seed", {"limit": 100}, (2, 4)),
    Table("chips_101", "seed", {"card_table": "ONE_HUNDRED"}, (3, 6), seeds=2),
    Table("chips_101", "seed", {"card_table": "ONE_HUNDRED", "limit": 100,
                                "ten_effect": "PLUS_OR_MINUS_10"}, (2,)),
    Table("chips_101", "seed", {"ten_effect": "PLUS_OR_MINUS_10"}, (3,)),
    Table("chips_101", "seed", {"chips": 1}, (3, 7)),
    Table("chips_101", "seed", {"floor_zero": False}, (2, 4)),
    Table("chips_101", "pagat", {"floor_zero": False, "limit": 100}, (3,), seeds=1),
)  # fmt: skip


POLICIES = ("random", "cautious", "exact")


def choose(rng: random.Random, m: Model, moves: list[Key], policy: str) -> Key:
    """A random move: a card (or CONCEDE) uniformly, then one of its choices,
    so a black ace's 101 totals do not crowd out the other cards. "cautious"
    draws only among the plays that do not bust (when there are any), which
    makes deals long (restocks); "exact" takes a play that makes the limit
    exactly when there is one (exact-100 payments, totals held at the limit),
    else plays cautiously."""
    lim = limit(m.game, m.o)

    def lands(key: Key) -> int:
        return effect(m.game, m.o, key[1], key[2], m.total)[0] if key[0] == "play" else lim

    if policy != "random":
        safe = [k for k in moves if lands(k) <= lim] or moves
        exact = [k for k in safe if lands(k) == lim]
        moves = exact if policy == "exact" and exact else safe
    groups: dict[Any, list[Key]] = {}
    for key in moves:
        groups.setdefault(key[:2], []).append(key)
    return rng.choice(rng.choice(list(groups.values())))


def event_of(e: game_pb2.Event, game: str) -> tuple[Any, ...]:
    """An engine event as the model logs it: its kind (the game's own for
    EVENT_KIND_GAME_RULE) and the fields RULES.md (Events) and the protos
    document for it."""
    detail = getattr(e, game)
    if e.kind == game_pb2.EVENT_KIND_GAME_RULE:
        kind = counting_pb2.CountingEventKind.Name(detail.kind).removeprefix("COUNTING_EVENT_KIND_")
    else:
        kind = game_pb2.EventKind.Name(e.kind).removeprefix("EVENT_KIND_")
    fields: dict[str, tuple[Any, ...]] = {
        "CARD_PLAYED": (e.seat, e.cards[0] if e.cards else None, detail.total,
                        detail.previous_total),
        "BUSTED": (e.seat, detail.total),
        "EXACT_HUNDRED": (e.seat, e.points),
        "LIFE_LOST": (e.seat, e.points),
        "SEAT_ELIMINATED": (e.seat,),
        "CONCEDED": (e.seat,),
        "CARDS_DRAWN": (e.seat,),
        "TOTAL_RESET": (tuple(sorted(e.cards)),),
        "DEAL_ENDED": (tuple(e.scores), tuple(sorted(e.seats))),
        "MATCH_LOST": (tuple(sorted(e.seats)),),
        "DEAL_STARTED": (e.seat, e.target_seat, tuple(sorted(e.cards))),
    }  # fmt: skip
    return (kind, *fields.get(kind, ()))


def event_differences(m: Model, events: Any) -> list[str]:
    """The engine's events against the model's log, order aside."""
    engine = sorted((event_of(e, m.game) for e in events), key=repr)
    mine = sorted(m.log, key=repr)
    return [] if engine == mine else [f"events: engine {engine}, model {mine}"]


def play_match(table: Table, n: int, seed: int) -> tuple[int, list[str]]:
    """Play one seeded random match, comparing each position with the model:
    the number of positions compared, and the disagreements (the match stops
    at the first position that has any)."""
    rng = random.Random(seed)
    game = table.game
    session = Session.new(game, preset=table.preset, seat_count=n, seed=seed, options=table.options)
    m = new_model(game, resolve(game, table.preset, table.options), n)
    where = f"{table.name} seats={n} seed={seed}"
    found = deal_differences(m, session.position, first=True)
    compared = 0
    while not found:
        pos = session.position
        if session.over:
            found = [] if m.phase == "match_over" else [f"engine over, model {m.phase}"]
            break
        if session.deal_over:
            events = list(session.next_deal())
            found = deal_differences(m, session.position, first=False)
            found += event_differences(m, events)
            continue
        at = f"{where} move_number={pos.move_number}: {short(m)}"
        listing = session.legal_moves(m.current)
        engine_keys = [key_of(lm.move, game) for lm in listing]
        mine = legal_moves(m)
        compared += 1
        if engine_keys != mine:
            found = [f"{at}: listing engine {[lm.notation for lm in listing]}, model "
                     f"{[notation(k) for k in mine]}"]  # fmt: skip
            break
        texts = [lm.notation for lm in listing]
        if texts != [notation(k) for k in mine]:
            found = [f"{at}: texts engine {texts}"]
            break
        key = choose(rng, m, mine, POLICIES[seed % len(POLICIES)])
        events = list(session.play(listing[mine.index(key)]))
        after = session.position
        ordering: list[str] = []

        def order(
            kind: str,
            cards: list[int],
            after: Any = after,
            seat: int = m.current,
            ordering: list[str] = ordering,
        ) -> list[int]:
            """The engine's arrangement of cards the rules move as a group."""
            cs = getattr(after, game)
            if kind == "buried":
                arranged = list(cs.pile[: len(cards)])
            else:  # the new stock: the card the seat drew from it, then the engine's stock
                drawn = Counter(cards) - Counter(cs.stock)  # (buried at once after a bust)
                arranged = list(drawn.elements()) + list(cs.stock)
            if Counter(arranged) != Counter(cards):
                ordering.append(f"{kind}: engine {sorted(arranged)}, model {sorted(cards)}")
            return arranged

        play(m, key, order)
        diffs = ordering + differences(m, after) + event_differences(m, events)
        found = [f"{at}: after {notation(key)}: {d}" for d in diffs]
    return compared, found


def run_table(table: Table) -> tuple[int, list[str]]:
    """Every seeded match of a table: positions compared, disagreements."""
    total, found = 0, []
    for n in table.seats:
        for seed in range(table.first_seed, table.first_seed + table.seeds):
            compared, diffs = play_match(table, n, 1000 * n + seed)
            total += compared
            found += diffs
    return total, found


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_engine_agrees_with_model(table: Table) -> None:
    """Every position of the table's seeded matches: the engine's listing,
    state and events are the model's (no disagreement is excluded)."""
    compared, found = run_table(table)
    assert not found, "\n".join(found)
    assert compared > 0


@pytest.mark.parametrize(
    ("game", "preset", "options"),
    [
        # C-C-3: CONTINUE needs lives 1.
        ("one_hundred", "seed", {"after_bust": "CONTINUE", "lives": 2}),
        ("one_hundred", "gamerules", {"after_bust": "CONTINUE"}),
    ],
)
def test_refused_combinations(game: str, preset: str, options: dict[str, Any]) -> None:
    """The combinations the rules refuse at NewGame (C-C-3)."""
    with pytest.raises(InvalidInput):
        Session.new(game, preset=preset, seat_count=3, seed=1, options=options)
