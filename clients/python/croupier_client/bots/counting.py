"""A heuristic bot for the counting games: «Сто» (`sto`), One Hundred
(`one_hundred`) and 101 with chips (`chips_101`), every preset.

The three games differ (RULES.md of the counting games), and the bot reads
which one it plays from its view: the card table (what each card does to the
running total, with the choices some cards take), the limit, whether hands
are refilled, and what a loss costs. Its plan is the same for all three:

- Look one round ahead. For each move it computes the total it makes, then,
  seat by seat in the order of play, the chance that the seat holds no card
  that keeps the total within the limit (it must bust, or concede in 101 with
  chips) and the totals the seat leaves otherwise — from the cards the bot
  has not seen, the seat's hand size, and the rule that a seat avoids a bust
  when it can. Back at the bot, the chance that its own remaining cards (and
  the card it will draw) have no safe play. A move scores what the others are
  likely to lose minus what the bot is likely to lose.
- Keep safe cards for later: cards that do not raise the total (or raise it
  little) are what saves a hand near the limit, so the bot spends the cards
  that add most while the total is low.
- Use the choices cards give (an ace's 1 or 11, a ten's sign, a black ace's
  total) through the same look-ahead: each choice is a move of its own.
- A bust it cannot avoid costs as little as the rules allow (the smallest
  overshoot in «Сто»); «Сто» with chips pays for making exactly 100.

It reads only its View and the legal moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

from croupier_client.bots import HeuristicBot
from croupier_client.bots.card_facts import (
    ACE,
    CLUBS,
    HEARTS,
    JACK,
    KING,
    QUEEN,
    SPADES,
    best,
    french_card,
    pips,
    rank,
    suit_index,
)
from croupier_client.v1 import counting_pb2 as counting
from croupier_client.v1 import game_pb2, service_pb2

_FLOOR = -1_000_000  # E-C-2: no total goes below it
_RESERVE_WINDOW = 12  # "near the limit": the last totals below it
_RESERVE_WEIGHT = 0.06  # what keeping one fully safe card is worth
_BLACK_ACE_TOTALS = (0, 25, 50, 75, 100)  # an unseen black ace's likely totals


@dataclass(frozen=True)
class _Effect:
    """How one card turns the total T into T' (before the floor)."""

    adds: int = 0
    sets: int | None = None
    doubles: bool = False
    reverses: bool = False
    choices: tuple[int, ...] = ()  # what it may add (an ace, a ten)
    sets_any: bool = False  # a black ace of One Hundred: any total 0–limit

    def totals(self, total: int, limit: int) -> tuple[int, ...]:
        """Every T' the card may make from `total` (all choices)."""
        if self.sets_any:
            return tuple(range(0, limit + 1))
        if self.choices:
            return tuple(total + choice for choice in self.choices)
        return (self.apply(total, 0),)

    def apply(self, total: int, choice: int) -> int:
        if self.sets_any:
            return choice
        if self.choices:
            return total + choice
        if self.sets is not None:
            return self.sets
        if self.doubles:
            return 2 * total
        return total + self.adds


def _one_hundred_effect(card: int, other_queens: int) -> _Effect:
    """R-C2-04: One Hundred's table."""
    r, s = rank(card), suit_index(card)
    black = s in (SPADES, CLUBS)
    if r == ACE:
        return _Effect(sets_any=True) if black else _Effect(adds=1)
    if r == 0 and s == SPADES:
        return _Effect(doubles=True)  # 2♠
    if r == 2:
        return _Effect(reverses=True)  # any 4
    if r == 3 and not black:
        return _Effect(adds=-5)  # red fives
    if r == 8:
        return _Effect(sets=100)  # any 10
    if r == JACK:
        return _Effect(adds=-10)
    if r == QUEEN:
        return _Effect(sets=0) if s == HEARTS else _Effect(adds=other_queens)
    if r == KING:
        return _Effect()
    return _Effect(adds=pips(card))


def _ninety_nine_effect(card: int, limit: int, ten_either_way: bool) -> _Effect:
    """R-C3-04: Ninety-Nine's powers with the limit 101 (or 100)."""
    r = rank(card)
    if r == ACE:
        return _Effect(choices=(1, 11))
    if r in (2, 7):
        return _Effect(reverses=r == 2)  # a 4 reverses, a 9 holds
    if r == 8:
        return _Effect(choices=(-10, 10)) if ten_either_way else _Effect(adds=-10)
    if r in (JACK, QUEEN):
        return _Effect(adds=10)
    if r == KING:
        return _Effect(sets=limit)
    return _Effect(adds=pips(card))


# «Сто»'s values by rank index (R-C1-02, O-C1-1); the pack is 7 … A.
_STO_SEED = {5: 7, 6: 8, 7: 9, 8: 10, JACK: 2, QUEEN: 3, KING: 4, ACE: 11}
_STO_SKAT = {**_STO_SEED, 5: 0, 6: 0, 7: 0}


class _Table:
    """One counting table: its pack, card table, limit and stakes."""

    def __init__(self, view: game_pb2.View) -> None:
        game = view.WhichOneof("game_view")
        self.game = game
        options = view.options
        self.refills = game != "sto"
        self.floor = 0
        self.sto_settlement = 0
        suits = range(4)
        if game == "sto":
            sto = options.sto
            values = (
                _STO_SKAT if sto.card_values == counting.STO_CARD_VALUES_SKAT_HUNDERT else _STO_SEED
            )
            self.limit = 100
            self.pack = [french_card(s, r) for s in suits for r in range(5, 13)]
            self.effects = {card: _Effect(adds=values[rank(card)]) for card in self.pack}
            self.sto_settlement = sto.settlement
        elif game == "one_hundred":
            hundred = options.one_hundred
            self.limit = 100
            packs = 2 if hundred.players >= 7 else 1
            self.pack = [french_card(s, r) for s in suits for r in range(13)] * packs
            self.effects = {
                card: _one_hundred_effect(card, hundred.other_queens) for card in set(self.pack)
            }
            self.floor = 0 if hundred.floor_zero else _FLOOR
        elif game == "chips_101":
            chips = options.chips_101
            self.pack = [french_card(s, r) for s in suits for r in range(13)]
            self.floor = 0 if chips.floor_zero else _FLOOR
            if chips.card_table == counting.CHIPS101_CARD_TABLE_ONE_HUNDRED:
                self.limit = 100  # C-C-2
                self.effects = {card: _one_hundred_effect(card, 10) for card in self.pack}
            else:
                self.limit = chips.limit or 101
                either = chips.ten_effect == counting.CHIPS101_TEN_EFFECT_PLUS_OR_MINUS_10
                self.effects = {
                    card: _ninety_nine_effect(card, self.limit, either) for card in self.pack
                }
        else:
            raise ValueError(f"CountingBot plays sto, one_hundred and chips_101, not {game!r}")
        # Filled as decisions ask: a pack's effects times the totals reached.
        self._plays_cache: dict[tuple[_Effect, int], tuple[int, ...]] = {}
        self.reserve = {card: self._reserve(card) for card in set(self.pack)}

    def after(self, card: int, choice: int, total: int) -> int:
        """T' of `card` with `choice` on `total`, floored (E-C-2, floor_zero)."""
        return max(self.effects[card].apply(total, choice), self.floor)

    def totals(self, card: int, total: int) -> list[int]:
        return [max(t, self.floor) for t in self.effects[card].totals(total, self.limit)]

    def lowest(self, card: int, total: int) -> int:
        """The lowest T' `card` may make from `total`."""
        return min(self.totals(card, total))

    def safe(self, card: int, total: int) -> bool:
        """Whether some play of `card` keeps `total` within the limit."""
        return bool(self.safe_plays(self.effects[card], total))

    def safe_plays(self, effect: _Effect, total: int) -> tuple[int, ...]:
        """The totals within the limit a card of `effect` may make from
        `total`; for a black ace, the few an unseen one likely makes."""
        key = (effect, total)
        cached = self._plays_cache.get(key)
        if cached is None:
            if effect.sets_any:
                cached = tuple(t for t in _BLACK_ACE_TOTALS if t <= self.limit)
            else:
                made = (max(t, self.floor) for t in effect.totals(total, self.limit))
                cached = tuple(t for t in made if t <= self.limit)
            self._plays_cache[key] = cached
        return cached

    def _reserve(self, card: int) -> float:
        """How much of the last stretch below the limit `card` survives: 1
        for a card that never raises the total, near 0 for a big adder."""
        window = range(self.limit - _RESERVE_WINDOW + 1, self.limit + 1)
        return sum(1 for total in window if self.safe(card, total)) / len(window)


class _Lookahead:
    """The one-round look-ahead of one decision (see the module)."""

    def __init__(self, table: _Table, view: game_pb2.View, game: counting.CountingView) -> None:
        self.table = table
        self.view = view
        self.me = view.seat
        self.hand: list[int] = list(game.hand)
        unseen = Counter(table.pack)
        unseen.subtract(self.hand)
        unseen.subtract(game.pile)
        unseen.subtract(game.leftovers)
        # Cards that do the same are one kind to the look-ahead (suits
        # rarely matter): the unseen cards counted by effect.
        by_effect: Counter[_Effect] = Counter()
        for card, n in unseen.items():
            if n > 0:
                by_effect[table.effects[card]] += n
        self.unseen = dict(by_effect)
        self.unseen_count = sum(self.unseen.values())
        self.total = game.total
        self.sizes = list(game.hand_sizes)
        self.reversed = game.reversed
        self._stuck_cache: dict[int, int] = {}
        self._leaves_cache: dict[int, dict[int, float]] = {}

    # -- seats ----------------------------------------------------------------

    def order(self, reversed_: bool) -> list[int]:
        """The other seats still in, in the order they play after the bot."""
        seats = len(self.sizes)
        step = -1 if reversed_ else 1
        out = []
        seat = self.me
        for _ in range(seats - 1):
            seat = (seat + step) % seats
            in_match = seat < len(self.view.seats) and not self.view.seats[seat].eliminated
            if in_match and self.sizes[seat] > 0:
                out.append(seat)
        return out

    # -- what the unseen cards do ----------------------------------------------

    def unsafe_unseen(self, total: int) -> int:
        """How many unseen cards have no safe play on `total`."""
        cached = self._stuck_cache.get(total)
        if cached is None:
            plays = self.table.safe_plays
            cached = self._stuck_cache[total] = sum(
                n for effect, n in self.unseen.items() if not plays(effect, total)
            )
        return cached

    def stuck(self, total: int, cards: int) -> float:
        """The chance that `cards` unseen cards hold no safe play on `total`."""
        n = self.unseen_count
        if cards <= 0 or n <= 0:
            return 0.0
        cards = min(cards, n)
        return comb(self.unsafe_unseen(total), cards) / comb(n, cards)

    def leaves(self, total: int) -> dict[int, float]:
        """The totals a seat leaves on `total` when it has a safe play: each
        unseen card's safe plays, equally likely."""
        cached = self._leaves_cache.get(total)
        if cached is not None:
            return cached
        plays = self.table.safe_plays
        weights: dict[int, float] = {}
        for effect, n in self.unseen.items():
            options = plays(effect, total)
            for t in options:
                weights[t] = weights.get(t, 0.0) + n / len(options)
        whole = sum(weights.values())
        result = {t: w / whole for t, w in weights.items()} if whole else {}
        self._leaves_cache[total] = result
        return result

    # -- the score of a move -----------------------------------------------------

    def value(self, card: int, choice: int, stakes: _Stakes) -> float:
        table = self.table
        total = self.total
        new_total = table.after(card, choice, total)
        rest = list(self.hand)
        rest.remove(card)
        reserve = _RESERVE_WEIGHT * sum(table.reserve[c] for c in rest)
        if new_total > table.limit:
            return -stakes.own_bust(new_total - table.limit) + reserve
        value = reserve
        if new_total == table.limit and stakes.exact_limit:
            value += stakes.exact_limit
        reversed_ = self.reversed != table.effects[card].reverses
        spread = {new_total: 1.0}
        for seat in self.order(reversed_):
            cards = self.sizes[seat]
            nxt: dict[int, float] = {}
            for t, p in spread.items():
                lost = self.stuck(t, cards)
                value += p * lost * stakes.other_loss
                if lost < 1.0:
                    for t2, q in self.leaves(t).items():
                        nxt[t2] = nxt.get(t2, 0.0) + p * (1 - lost) * q
            spread = nxt
        for t, p in spread.items():
            mine = self.own_stuck(rest, t)
            if mine:
                overshoot = min((table.lowest(c, t) for c in rest), default=5) - table.limit
                value -= p * mine * stakes.own_bust(max(overshoot, 1))
        return value

    def own_stuck(self, rest: Sequence[int], total: int) -> float:
        """The chance the bot has no safe play on `total` at its next turn."""
        if any(self.table.safe(card, total) for card in rest):
            return 0.0
        if not self.table.refills:
            # «Сто»: no refill; an empty hand is passed over (E-C-1).
            return 1.0 if rest else 0.0
        return self.stuck(total, 1)


@dataclass(frozen=True)
class _Stakes:
    """What the outcomes of a deal are worth to the bot, in one unit."""

    other_loss: float  # another seat busts or concedes
    own_loss: float  # the bot does
    per_overshoot: float  # «Сто»: each point above 100 it pays
    exact_limit: float  # «Сто» with chips: making exactly 100

    def own_bust(self, overshoot: int) -> float:
        return self.own_loss + self.per_overshoot * overshoot


def _stakes(table: _Table, view: game_pb2.View, opponents: int) -> _Stakes:
    if table.game == "sto":
        if table.sto_settlement == counting.STO_SETTLEMENT_HUNDERT_CHIPS:
            return _Stakes(1.0, 0.0, 0.5 * opponents, 1.5 * opponents)
        if table.sto_settlement == counting.STO_SETTLEMENT_FEDER_CHIPS:
            return _Stakes(0.5, 0.5 * opponents, 0.0, 0.5 * opponents)
        return _Stakes(1.0, 1.0, 0.2, 0.0)
    # One Hundred and 101 with chips: a life (chip) each; the last one is the match.
    me = view.seats[view.seat].score if view.seat < len(view.seats) else 2
    return _Stakes(1.0, 1.5 if me <= 1 else 1.0, 0.0, 0.0)


class CountingBot(HeuristicBot):
    """Heuristic player of «Сто», One Hundred and 101 with chips: looks one
    round ahead for busts, keeps safe cards for the end, uses card choices."""

    view_fields = ("sto", "one_hundred", "chips_101")
    view_name = "a counting"

    def __init__(self, game: str = "", seed: int = 0) -> None:
        super().__init__(game, seed)
        self._tables: dict[bytes, _Table] = {}

    def _table(self, view: game_pb2.View) -> _Table:
        key = view.game.encode() + view.options.SerializeToString()
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = _Table(view)
        return table

    def decide(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        """The best-scored of `moves`."""
        kind = view.WhichOneof("game_view")
        if len(moves) == 1:
            return moves[0]
        game: counting.CountingView = getattr(view, kind)
        table = self._table(view)
        look = _Lookahead(table, view, game)
        stakes = _stakes(table, view, len(look.order(game.reversed)))

        def score(legal: service_pb2.LegalMove) -> float:
            move = getattr(legal.move, kind)
            if move.WhichOneof("action") != "play":
                return -1e9  # CONCEDE: only ever offered alone
            play = move.play
            if play.card not in look.hand or not _worth_scoring(play, game.total):
                return -1e9
            choice = play.adds if play.HasField("adds") else play.sets_total
            return look.value(play.card, choice, stakes)

        return best(moves, score, self._random)


def _worth_scoring(play: counting.CountingMove.Play, total: int) -> bool:
    """Whether to score a play: all but most of a black ace's 101 totals
    (the ones kept: every tenth, the limit, and the total as it stands).
    Decided by the play itself, never by its object's identity: a repeated
    field's elements may be new objects at each access, so ids told one
    request's moves apart differently from call to call (fuzz finding F13)."""
    if not play.HasField("sets_total"):
        return True
    t = play.sets_total
    return not (t % 10 and t != total and t not in (99, 100, 101))


__all__ = ["CountingBot"]
