"""The option catalogues of the three counting games, their presets, and the
combinations each refuses.

Each option's rule reference names ids that RULES.md defines (O-C1-… for
«Сто», O-C2-… for One Hundred, O-C3-… for 101 with chips; A-… and C-C-… for
the resolutions they implement).
"""

from __future__ import annotations

from croupier.engine.errors import InvalidInput
from croupier.engine.options import BOOL, ENUM, INT, Catalogue, OptionSpec, Preset
from croupier.v1 import counting_pb2 as pb


def _spec(name, type_, default, reference, description, **kw):  # type: ignore[no-untyped-def]
    return OptionSpec(name, type_, default, description, f"RULES.md {reference}", **kw)


# -- «Сто», 32 cards ---------------------------------------------------------------

STO_SPECS = (
    _spec("card_values", ENUM, "SEED", "O-C1-1, A-C1-01",
          "SEED: A 11, 10 10, 9 9, 8 8, 7 7, K 4, Q 3, J 2; SKAT_HUNDERT: the same with "
          "9, 8, 7 worth 0 (brings leftovers FACE_UP_START_TOTAL unless the table sets them)",
          allowed=("SEED", "SKAT_HUNDERT")),
    _spec("leftovers", ENUM, "ASIDE", "O-C1-2, A-C1-02",
          "Cards left when 32 does not divide by the players: ASIDE (face down, out of play) or "
          "FACE_UP_START_TOTAL (face up, their values start the total)",
          allowed=("ASIDE", "FACE_UP_START_TOTAL")),
    _spec("deals_per_match", INT, 3, "O-C1-3", "Deals in a match", min_value=1, max_value=100),
    _spec("settlement", ENUM, "PENALTY_POINTS", "O-C1-4, C-C-4",
          "PENALTY_POINTS: the buster scores the overshoot; HUNDERT_CHIPS: he pays the "
          "overshoot to each opponent, exactly 100 collects 3 from each; FEDER_CHIPS: 1 and 1",
          allowed=("PENALTY_POINTS", "HUNDERT_CHIPS", "FEDER_CHIPS")),
)  # fmt: skip

# A-C1-02: Hundert's values bring their leftovers, face up, starting the
# total, unless the table sets `leftovers` itself.
STO_FOLLOWERS = (("card_values", "SKAT_HUNDERT", "leftovers", "FACE_UP_START_TOTAL"),)
STO_CATALOGUE = Catalogue(pb.StoOptions, STO_SPECS, STO_FOLLOWERS)

STO_PRESETS = (
    Preset("seed", "«Сто» as the seed plays it: three deals, the overshoot as penalty points",
           {}, 3, 10),
    Preset("hundert", "German Hundert: 9, 8, 7 worth nothing, the leftovers start the total, "
           "chips for the overshoot and for exactly 100",
           {"card_values": "SKAT_HUNDERT", "leftovers": "FACE_UP_START_TOTAL",
            "settlement": "HUNDERT_CHIPS"}, 3, 10),
)  # fmt: skip


def check_sto(options: pb.StoOptions, path: str) -> None:
    """«Сто»'s options have no conflicts: A-C1-02's leftovers follow Hundert's
    values (STO_FOLLOWERS), and a table that sets them aside with those values
    plays deals that may end with nobody over 100 (E-C-1)."""


# -- One Hundred ---------------------------------------------------------------------

ONE_HUNDRED_SPECS = (
    _spec("hand_size", INT, 4, "O-C2-1", "Cards in hand, refilled after each play",
          allowed=("3", "4")),
    _spec("players", INT, 3, "O-C2-2, C-C-1",
          "Number of seats (taken from NewGame's seat_count); 7 or more play with two packs",
          min_value=3, max_value=10),
    _spec("lives", INT, 1, "O-C2-3",
          "Busts a player survives: 1 (a bust eliminates) or chips (each bust costs one, "
          "a new deal follows)", min_value=1, max_value=9),
    _spec("after_bust", ENUM, "REDEAL", "O-C2-4, A-C2-02, C-C-3",
          "REDEAL: a new deal to the players left; CONTINUE: the buster's cards go to the "
          "pile, the total is 0 and the next player leads (needs lives 1)",
          allowed=("REDEAL", "CONTINUE")),
    _spec("floor_zero", BOOL, True, "O-C2-5, A-C2-03", "A total below 0 becomes 0"),
    _spec("other_queens", INT, 10, "O-C2-6, A-C2-04", "What Q♠, Q♦ and Q♣ add",
          allowed=("0", "10")),
)  # fmt: skip

ONE_HUNDRED_CATALOGUE = Catalogue(pb.OneHundredOptions, ONE_HUNDRED_SPECS)

ONE_HUNDRED_PRESETS = (
    Preset("seed", "One Hundred as the seed has it: 4 cards, 3 to 5 players, a bust eliminates",
           {}, 3, 5),
    Preset("gamerules", "One Hundred as published: 3 cards, 3 chips, one pack for up to 6 "
           "players and two for more",
           {"hand_size": 3, "lives": 3}, 3, 10),
)  # fmt: skip


def check_one_hundred(options: pb.OneHundredOptions, path: str) -> None:
    """C-C-3: with lives a bust starts a new deal, so CONTINUE needs lives 1."""
    if options.after_bust == pb.ONE_HUNDRED_AFTER_BUST_CONTINUE and options.lives != 1:
        raise InvalidInput(
            f"{path}.after_bust",
            f"CONTINUE needs lives 1 (C-C-3: with {options.lives} lives a bust starts a new deal)",
        )


# -- 101 with chips ------------------------------------------------------------------

CHIPS_101_SPECS = (
    _spec("limit", INT, 101, "O-C3-1, A-C3-02, C-C-2",
          "The highest safe total: 101, or 100 (reaching 101 loses); inert under card_table "
          "ONE_HUNDRED, whose limit is 100", allowed=("100", "101")),
    _spec("card_table", ENUM, "NINETY_NINE_101", "O-C3-2, A-C3-01, C-C-2",
          "NINETY_NINE_101: A 1/11, 4 reverses, 9 holds, 10 −10, J Q +10, K to the limit; "
          "ONE_HUNDRED: One Hundred's table with the limit 100",
          allowed=("NINETY_NINE_101", "ONE_HUNDRED")),
    _spec("ten_effect", ENUM, "MINUS_10", "O-C3-3, C-C-2",
          "A ten: MINUS_10, or PLUS_OR_MINUS_10 at the player's choice (inert under "
          "card_table ONE_HUNDRED)", allowed=("MINUS_10", "PLUS_OR_MINUS_10")),
    _spec("chips", INT, 3, "O-C3-4", "Chips each player starts with", min_value=1, max_value=9),
    _spec("floor_zero", BOOL, True, "O-C3-5", "A total below 0 becomes 0"),
)  # fmt: skip

CHIPS_101_CATALOGUE = Catalogue(pb.Chips101Options, CHIPS_101_SPECS)

CHIPS_101_PRESETS = (
    Preset("seed", "101 with 3 cards and 3 chips, Ninety-Nine's card powers up to 101",
           {}, 2, 7),
    Preset("pagat", "Pagat's Ninety-Nine counted to 101: a ten is +10 or −10, 5 chips",
           {"ten_effect": "PLUS_OR_MINUS_10", "chips": 5}, 2, 7),
)  # fmt: skip


def check_chips_101(options: pb.Chips101Options, path: str) -> None:
    """No combination is refused: under card_table ONE_HUNDRED the limit and
    ten_effect options are inert (C-C-2)."""
