"""The three games' options, compiled into one description of a counting
table: the pack, the deal, the card table, the limit, what a bust costs and
when the match ends.

Every module of the package reads `Rules`, never an options message, so the
turn, the deal and the scoring are written once for the three games. A
table's options never change during a match: `rules_for` compiles each
distinct option set once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from croupier.engine import caches
from croupier.engine.cards import french_deck
from croupier.games.counting import effects
from croupier.games.counting.effects import Effect
from croupier.v1 import counting_pb2 as pb
from croupier.v1 import game_pb2

STO = "sto"
ONE_HUNDRED = "one_hundred"
CHIPS_101 = "chips_101"

# How a deal's loss is settled.
PENALTY_POINTS = "penalty_points"  # «Сто»: the overshoot as penalty points
CHIPS = "chips"  # «Сто» Hundert / Feder: chips pass between the players
LIVES = "lives"  # One Hundred, 101 with chips: a life (chip) lost, 0 is out

# E-C-2: with floor_zero off a total may go below 0 (and a 2♠ doubles a
# negative total); it never goes below this, so a state stays bounded.
LOWEST_TOTAL = -1_000_000


@dataclass(frozen=True)
class Rules:
    """One counting table's rules, from its game and options."""

    game: str
    deck: list[int]  # sorted, every copy
    hand_size: int  # 0: the pack is dealt out («Сто», R-C1-03)
    refill: bool  # draw one card after each play (R-C2-03, R-C3-03)
    limit: int  # the highest safe total
    safe_only: bool  # only plays within the limit are legal (A-C3-04)
    floor: int  # the lowest total: 0 under floor_zero, else LOWEST_TOTAL
    effects: dict[int, Effect]
    settlement: str  # PENALTY_POINTS, CHIPS or LIVES
    lives: int = 0  # LIVES: lives (chips) each seat starts with
    continue_after_bust: bool = False  # One Hundred after_bust CONTINUE
    deals_per_match: int = 0  # «Сто»: the match's length (0: until one is left)
    leftovers_face_up: bool = False  # «Сто» FACE_UP_START_TOTAL
    exact_hundred_chips: int = 0  # «Сто» chips: what exactly 100 collects from each
    overshoot_chips: bool = False  # «Сто» Hundert: the buster pays the overshoot
    rule_ids: dict[str, str] = field(default_factory=dict)

    @property
    def highest_total(self) -> int:
        """More than any total a card can make from a safe one."""
        if self.safe_only:
            return self.limit
        if any(e.doubles for e in self.effects.values()):
            return 2 * self.limit
        return self.limit + max(e.adds for e in self.effects.values())

    def total_after(self, card: int, total: int, choice: int) -> int:
        """T' for `card` played on `total` with the move's `choice`, floored."""
        return max(self.effects[card].raw_total(total, choice), self.floor)


def _sto(o: pb.StoOptions) -> Rules:
    deck = french_deck(lowest_rank=7)
    skat = o.card_values == pb.STO_CARD_VALUES_SKAT_HUNDERT
    values = effects.STO_SKAT_VALUES if skat else effects.STO_SEED_VALUES
    chips = o.settlement != pb.STO_SETTLEMENT_PENALTY_POINTS
    hundert = o.settlement == pb.STO_SETTLEMENT_HUNDERT_CHIPS
    return Rules(
        game=STO,
        deck=deck,
        hand_size=0,
        refill=False,
        limit=100,
        safe_only=False,
        floor=0,
        effects=effects.sto_table(deck, values, "O-C1-1" if skat else "R-C1-02"),
        settlement=CHIPS if chips else PENALTY_POINTS,
        deals_per_match=o.deals_per_match,
        leftovers_face_up=o.leftovers == pb.STO_LEFTOVERS_FACE_UP_START_TOTAL,
        exact_hundred_chips=(3 if hundert else 1) if chips else 0,
        overshoot_chips=hundert,
        rule_ids={"turn": "R-C1-04", "card": "R-C1-04"},
    )


def _one_hundred(o: pb.OneHundredOptions) -> Rules:
    deck = french_deck(copies=2 if o.players >= 7 else 1)  # C-C-1
    return Rules(
        game=ONE_HUNDRED,
        deck=deck,
        hand_size=o.hand_size,
        refill=True,
        limit=100,
        safe_only=False,
        floor=0 if o.floor_zero else LOWEST_TOTAL,
        effects={c: effects.one_hundred_effect(c, o.other_queens) for c in set(deck)},
        settlement=LIVES,
        lives=o.lives,
        continue_after_bust=o.after_bust == pb.ONE_HUNDRED_AFTER_BUST_CONTINUE,
        rule_ids={"turn": "A-C2-05", "card": "R-C2-03"},
    )


def _chips_101(o: pb.Chips101Options) -> Rules:
    deck = french_deck()
    if o.card_table == pb.CHIPS101_CARD_TABLE_ONE_HUNDRED:
        # C-C-2: One Hundred's table with its limit 100; ten_effect is inert.
        limit = 100
        table = {c: effects.one_hundred_effect(c, 10, "C-C-2") for c in deck}
    else:
        limit = o.limit
        either = o.ten_effect == pb.CHIPS101_TEN_EFFECT_PLUS_OR_MINUS_10
        table = {c: effects.ninety_nine_effect(c, limit, either) for c in deck}
    return Rules(
        game=CHIPS_101,
        deck=deck,
        hand_size=3,
        refill=True,
        limit=limit,
        safe_only=True,
        floor=0 if o.floor_zero else LOWEST_TOTAL,
        effects=table,
        settlement=LIVES,
        lives=o.chips,
        rule_ids={"turn": "R-C3-05", "card": "R-C3-03"},
    )


_COMPILERS = {STO: _sto, ONE_HUNDRED: _one_hundred, CHIPS_101: _chips_101}
# Few option sets are in use at once; a client choosing new ones must not
# grow a worker (fuzz F4: 1,024 sets of a game took 2-5 MB). Bound and entry
# size: engine/caches.py.
_compiled: caches.Bounded[tuple[str, bytes], Rules] = caches.Bounded(
    "counting.rules.compiled", 16, 5_500
)


def compile_rules(game: str, options: object) -> Rules:
    """The rules of `game` under `options` (its typed options message,
    already checked), compiled once per distinct option set."""
    key = (game, options.SerializeToString())  # type: ignore[attr-defined]
    rules = _compiled.get(key)
    if rules is None:
        rules = _compiled.put(key, _COMPILERS[game](options))  # type: ignore[operator]
    return rules


def rules_for(state: game_pb2.GameState) -> Rules:
    """The compiled rules of a state's table."""
    return compile_rules(state.game, getattr(state.options, state.game))
