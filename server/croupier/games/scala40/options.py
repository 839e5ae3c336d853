"""The Scala 40 option catalogue (RULES.md, Options), the presets of
the three sources, and the option conflicts refused at NewGame (C-S40-5)."""

from __future__ import annotations

from croupier.engine.errors import InvalidInput
from croupier.engine.options import BOOL, ENUM, INT, Catalogue, OptionSpec, Preset, Value
from croupier.v1 import scala40_pb2 as pb


def _spec(name, type_, default, reference, description, **kw):  # type: ignore[no-untyped-def]
    return OptionSpec(name, type_, default, description, f"RULES.md {reference}", **kw)


SPECS = (
    _spec("match_mode", ENUM, "ELIMINATION", "V1, V4, R-S40-100",
          "ELIMINATION (out at the threshold, last player wins), SINGLE_DEAL (the closer "
          "wins one deal) or NO_ELIMINATION (lowest score once one reaches the target)",
          allowed=("ELIMINATION", "SINGLE_DEAL", "NO_ELIMINATION")),
    _spec("elimination_threshold", INT, 151, "V2, A-S40-01",
          "A player whose score reaches this leaves the match (ELIMINATION only)",
          allowed=("101", "151", "201")),
    _spec("reentry", BOOL, False, "V3, A-S40-22",
          "Players at the threshold re-enter at the highest score below it while two or more "
          "are below (ELIMINATION only)"),
    _spec("no_elimination_target", INT, 1000, "V4, A-S40-23",
          "NO_ELIMINATION: the match stops once a score reaches this; the lowest wins",
          allowed=("1000", "1500", "2000")),
    _spec("court_values_11_14", BOOL, False, "V5",
          "J 11, Q 12, K 13, A 14 in melds and in hand; a joker left in hand 14"),
    _spec("discard_pickup_for_opening", BOOL, False, "V6",
          "An unopened player may take the discard to put it in his opening melds that turn"),
    _spec("discard_pickup_keep", BOOL, False, "V6b, C-S40-2",
          "An opened player may take the discard and keep it (not discarding it that turn)"),
    _spec("close_in_hand_doubles", BOOL, False, "V7, A-S40-13",
          "Closing in hand doubles every other player's penalty"),
    _spec("close_on_first_turn", BOOL, False, "V8, R-S40-71",
          "A player may close in his first turn"),
    _spec("unopened_flat_penalty_100", BOOL, False, "V9",
          "A player who has not opened pays 100 instead of his cards"),
    _spec("forbid_playable_discard_unopened", BOOL, True, "V10a, D2",
          "An unopened player may not discard a card that extends a table meld"),
    _spec("forbid_playable_discard_opened", ENUM, "IF_MORE_THAN_2_PLAYERS", "V10b, D3",
          "When an opened player (not closing) may not discard a playable card: ALWAYS, NEVER, "
          "or IF_MORE_THAN_2_PLAYERS still in the match",
          allowed=("ALWAYS", "NEVER", "IF_MORE_THAN_2_PLAYERS")),
    _spec("forbid_playable_discard_closing", BOOL, False, "V10c, D4",
          "The closing discard may not be a playable card"),
    _spec("first_player_may_take_upcard", BOOL, False, "V11, C-S40-6",
          "The first player may take the upcard and keep it, in his first turn"),
    _spec("close_without_discard", BOOL, False, "V12, R-S40-45",
          "Melding or laying off the last card closes without a discard"),
    _spec("quads_to_discard_pile", BOOL, False, "V13, A-S40-18",
          "A set of four naturals goes under the player's discard in the discard pile"),
    _spec("sequence_split_max5", BOOL, False, "V14",
          "Old rule: sequences of at most 5 cards; a longer one is split into sequences of 3-5"),
    _spec("max_jokers_per_meld", ENUM, "ONE", "V15, R-S40-27, C-S40-4",
          "ONE joker per meld, or UNLIMITED (a meld always holds a natural card)",
          allowed=("ONE", "UNLIMITED")),
    _spec("joker_swap_for_opening", BOOL, False, "V16, R-S40-52",
          "An unopened player may swap a joker to put it in his opening melds that turn"),
    _spec("declare_ambiguous_joker", BOOL, True, "V17, R-S40-28, R-S40-53",
          "The joker of a three-card set declares its suit (off: it may stay 'either missing "
          "suit')"),
    _spec("teams", ENUM, "NONE", "V18, A-S40-14, C-S40-7",
          "NONE, PAIRS (4 players, partners opposite) or TRIPLES (6 players, alternate seats)",
          allowed=("NONE", "PAIRS", "TRIPLES")),
    _spec("retrieved_joker_must_be_used", BOOL, False, "V19, R-S40-51, A-S40-03",
          "A joker taken by a swap must be on the table before the turn ends (Slovenian)"),
    _spec("upcard_joker_redraw", BOOL, True, "V20, R-S40-07",
          "A joker turned as the upcard goes back into the stock and the next card is turned"),
    _spec("close_in_hand_requires_40", BOOL, False, "V21, R-S40-41",
          "Closing in hand needs 40 points of melds too"),
    _spec("max_sequence_length", INT, 14, "V22, R-S40-25",
          "The longest sequence: 14 (a whole suit and a joker) or 13",
          allowed=("13", "14")),
    _spec("set_joker_positional_convention", BOOL, False, "V23, R-S40-29",
          "A three-card set's joker at an end may be left undeclared: its suit follows from "
          "its neighbour (input helper)"),
    _spec("joker_discard", ENUM, "CLOSING_ONLY", "V24, D5",
          "When a joker may be discarded: CLOSING_ONLY, NOT_WHEN_UNOPENED, NEVER or ANY",
          allowed=("CLOSING_ONLY", "NOT_WHEN_UNOPENED", "NEVER", "ANY")),
)  # fmt: skip

# A match mode other than ELIMINATION takes the threshold back to its default
# unless the table sets one (C-S40-5): pagat's and slovenian's 101 must not
# turn the table's own SINGLE_DEAL or NO_ELIMINATION into a conflict.
FOLLOWERS = (
    ("match_mode", "SINGLE_DEAL", "elimination_threshold", 151),
    ("match_mode", "NO_ELIMINATION", "elimination_threshold", 151),
)
CATALOGUE = Catalogue(pb.Scala40Options, SPECS, FOLLOWERS)

# pagat ([S000]): out at 101, a joker upcard stays (V20 silent), an opened
# player may discard a playable card (base text), jokers only barred for the
# unopened (literal text).
_PAGAT: dict[str, Value] = {
    "elimination_threshold": 101,
    "upcard_joker_redraw": False,
    "forbid_playable_discard_opened": "NEVER",
    "joker_discard": "NOT_WHEN_UNOPENED",
}

PRESETS = (
    Preset("fisc", "FISC rules (it.wikipedia): out at 151, upcard never a joker, "
           "[PLS] discard bans", {}, 2, 6),
    Preset("slovenian", "Slovenian rules: as pagat, and a swapped joker must be used at once",
           {**_PAGAT, "retrieved_joker_must_be_used": True}, 2, 6),
    Preset("pagat", "pagat.com rules: out at 101, opened players may discard playable cards",
           dict(_PAGAT), 2, 6),
)  # fmt: skip

TEAM_SEATS = {pb.SCALA40_TEAMS_PAIRS: 4, pb.SCALA40_TEAMS_TRIPLES: 6}


def check_options(options: pb.Scala40Options, path: str) -> None:
    """Refuse the real conflicts of §1.16 (C-S40-5: "excludes", "only in/with",
    "not with"), naming both options. Inert combinations ("overrides",
    "affects", "only meaningful with", "disables") are accepted; RULES.md
    lists them."""
    o = options
    mode = pb.Scala40MatchMode.Name(o.match_mode).removeprefix("SCALA40_MATCH_MODE_")
    elimination = o.match_mode == pb.SCALA40_MATCH_MODE_ELIMINATION
    no_elimination = o.match_mode == pb.SCALA40_MATCH_MODE_NO_ELIMINATION

    def conflict(name: str, value: object, needs: str) -> None:
        why = f"{name}={value} {needs}; match_mode is {mode}"
        raise InvalidInput(f"{path}.{name}", why, (f"{path}.match_mode", why))

    if not elimination and o.elimination_threshold != 151:
        conflict("elimination_threshold", o.elimination_threshold, "only applies to ELIMINATION")
    if not elimination and o.reentry:
        conflict("reentry", "true", "only applies to ELIMINATION (not with NO_ELIMINATION)")
    if not no_elimination and o.no_elimination_target != 1000:
        conflict("no_elimination_target", o.no_elimination_target, "needs NO_ELIMINATION")


def check_seats(options: pb.Scala40Options, seats: int, path: str) -> None:
    """V18: pairs are four players, triples six (A-S40-14)."""
    needed = TEAM_SEATS.get(options.teams)
    if needed is not None and seats != needed:
        name = pb.Scala40Teams.Name(options.teams).removeprefix("SCALA40_TEAMS_")
        why = f"teams={name} needs {needed} seats; the table has {seats}"
        raise InvalidInput(f"{path}.teams", why, ("seat_count", why))
