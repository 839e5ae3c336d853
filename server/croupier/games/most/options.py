"""The «Мост» option catalogue (RULES.md, Options; C-M-4) and its
presets. Every option is independent of the others (none excludes another),
so `check_options` has nothing to refuse beyond the ranges of the catalogue;
RULES.md lists the one inert option (C-M-3)."""

from __future__ import annotations

from croupier.engine.options import BOOL, ENUM, INT, Catalogue, OptionSpec, Preset
from croupier.v1 import most_pb2 as pb


def _spec(name, type_, default, reference, description, **kw):  # type: ignore[no-untyped-def]
    return OptionSpec(name, type_, default, description, f"RULES.md {reference}", **kw)


SPECS = (
    _spec("players", INT, 4, "R-M-02, A-M-09",
          "Number of seats, 2 to 8 (taken from NewGame's seat_count)", min_value=2, max_value=8),
    _spec("bridge_card_may_be_laid_off", BOOL, False, "R-M-21, A-M-01",
          "The first card taken from the bridge may be laid off on a table meld instead of "
          "going into a new meld"),
    _spec("top_bridge_card_free", BOOL, False, "R-M-22, A-M-02",
          "Taking only the newest card of the bridge brings no duty to meld it (500 Rum)"),
    _spec("stock_exhausted", ENUM, "END_HAND", "R-M-23, A-M-06, C-M-2",
          "An empty stock when a player draws: END_HAND (the hand is scored) or RESHUFFLE_BRIDGE "
          "(the bridge becomes the stock: the first time at once, again only if a card "
          "reached the table since the last reshuffle)",
          allowed=("END_HAND", "RESHUFFLE_BRIDGE")),
    _spec("exchange_requires_meld", BOOL, False, "R-M-32, C-M-5, K-M-3",
          "Only a player who has melded this hand exchanges a joker"),
    _spec("exchanged_card_credit", ENUM, "EXCHANGER", "R-M-32, A-M-03",
          "Who scores a card put in place of a joker: EXCHANGER or MELD_OWNER",
          allowed=("EXCHANGER", "MELD_OWNER")),
    _spec("min_naturals_per_meld", INT, 1, "A-M-05, C-M-3",
          "Natural cards a meld must hold: 1, or 0 (inert: two jokers never make a meld alone)",
          allowed=("0", "1")),
    _spec("go_out_without_discard", BOOL, False, "R-M-34",
          "Melding or laying off the last card ends the hand without a discard"),
    _spec("target_score", INT, 500, "R-M-42, A-M-07",
          "The match ends once a total reaches this; the highest total wins",
          min_value=1, max_value=100_000),
    _spec("max_deals", INT, 0, "C-M-4",
          "After this many hands the highest total wins, ties sharing (0: no limit)",
          min_value=0, max_value=10_000),
)  # fmt: skip

CATALOGUE = Catalogue(pb.MostOptions, SPECS)

# C-M-4: `max_deals` is off by default, as in every preset; a match between
# programs (random playouts, tournaments, the conformance suite) sets it, for
# with many seats the totals may drift down and never reach the target.
MATCH_BOUND = {"max_deals": 12}

PRESETS = (
    Preset("seed", "The source [S003] with every resolution of the rules document: the first "
           "bridge card goes into a new meld, 500 wins",
           {}, 2, 8),
    Preset("rum500", "500 Rum practice on the silent points: the newest bridge card is free, "
           "the first bridge card may be laid off, the bridge is reshuffled into a new stock",
           {"top_bridge_card_free": True, "bridge_card_may_be_laid_off": True,
            "stock_exhausted": "RESHUFFLE_BRIDGE"}, 2, 8),
)  # fmt: skip


def check_options(options: pb.MostOptions, path: str) -> None:
    """§2.10's options are independent: no combination is refused (the ranges
    are the catalogue's). Kept as the hook every game has."""
    del options, path
