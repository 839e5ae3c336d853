"""The 101 option catalogue and the four versions as presets.

Each option's rule reference names ids that RULES.md defines (O1–O31 for the
options, A… for the resolutions, C… for the core rules): ListGames shows it
to users, who read RULES.md, never the project's rules digest.
"""

from __future__ import annotations

from croupier.engine.errors import InvalidInput
from croupier.engine.options import BOOL, ENUM, INT, SET, Catalogue, OptionSpec, Preset, Value
from croupier.v1 import hundred_and_one_pb2 as pb

FINISH_NAMES = ("ACE", "SEVEN", "KING_OF_SPADES", "NINE", "SIX", "EIGHT", "TEN", "QUEEN")


def _spec(name, type_, default, reference, description, **kw):  # type: ignore[no-untyped-def]
    return OptionSpec(name, type_, default, description, f"RULES.md {reference}", **kw)


SPECS = (
    _spec("effects", ENUM, "HD", "Card effects",
          "Card effects fixed per version: HD (6/7 draw, 8 play again, 10 reverse), "
          "CL (6/7 draw, 9 cover), RU (6 cover, 7 draw, 7♠/K♠ more)",
          allowed=("HD", "CL", "RU")),
    _spec("deck_size", INT, 36, "O1", "Pack: 36 cards (6 to ace) or 52 (2 to ace)",
          allowed=("36", "52")),
    _spec("players", INT, 4, "O2", "Number of seats (taken from NewGame's seat_count)",
          min_value=2, max_value=8),
    # Bounded by O2's rule alone (A30): 25 is the most two players are dealt from 52.
    _spec("hand_size", INT, 5, "O3, A30",
          "Cards dealt to each player (the dealer's last is the upcard); "
          "players × hand_size < deck_size", min_value=2, max_value=25),
    _spec("opening", ENUM, "LEAD_ANY", "O4, A1",
          "LEAD_ANY: a player leads any card; DEALER_UPCARD: the dealer's last card is "
          "his first move",
          allowed=("LEAD_ANY", "DEALER_UPCARD")),
    _spec("upcard_effects", BOOL, True, "O5, A24",
          "The dealer's upcard acts as his played card (needs DEALER_UPCARD)"),
    _spec("first_move_any", BOOL, False, "O6",
          "The dealer keeps every card and leads any of them (needs DEALER_UPCARD)"),
    _spec("draw_rule", ENUM, "ONE", "O7, A26",
          "Without a legal card: draw ONE, or draw UNTIL_PLAYABLE and play it",
          allowed=("ONE", "UNTIL_PLAYABLE")),
    _spec("voluntary_draw", BOOL, False, "O8, A23", "A player may draw while holding a legal card"),
    _spec("must_play_drawn", BOOL, False, "O9, A22", "A legal drawn card must be played"),
    _spec("restock_shuffle", BOOL, False, "O10, A12",
          "Shuffle the discards that become the stock (otherwise turned over as a block)"),
    _spec("transfer_6_7", BOOL, True, "O11, A5",
          "The target of a draw 6 or 7 may pass it on with a matching one (RU/ALT: 7s only, "
          "their sixes are cover cards)"),
    _spec("transfer_accumulates", BOOL, False, "O12, A5",
          "A transferred 6/7 adds its draw count to the pending one (needs transfer_6_7)"),
    _spec("ordinary_specials", BOOL, False, "O13",
          "6, 7, 8, 10 and K♠ have no effect, in every version (A, Q, the CL 9 keep theirs)"),
    _spec("eight_draw_mode", ENUM, "UNTIL", "O14, A6",
          "HD 8 without a cover: draw UNTIL one covers, or THREE cards once (needs effects HD)",
          allowed=("UNTIL", "THREE")),
    _spec("eight_last_must_cover", BOOL, False, "O15, A7",
          "HD: an 8 played as the last card must still be covered (needs effects HD)"),
    _spec("kspades_draw", INT, 4, "O16", "Cards the next player draws for the king of spades",
          allowed=("4", "5")),
    _spec("kspades_in_hand_40", BOOL, False, "O17, A8", "A king of spades left in hand scores 40"),
    _spec("queen_finish_bonus", BOOL, False, "O18, A4",
          "Finishing on a Queen scores -20 (queen of spades -40)"),
    _spec("lone_queen_penalty", BOOL, False, "O19",
          "A lone Queen left in hand scores 20 (queen of spades 40)"),
    _spec("lone_queen_scope", ENUM, "ONLY_CARD", "O20, A19",
          "Which Queens are lone: ONLY_CARD (the hand is one Queen) or ANY_SINGLE_QUEEN "
          "(needs lone_queen_penalty)",
          allowed=("ONLY_CARD", "ANY_SINGLE_QUEEN")),
    _spec("reset_100_to_50", BOOL, True, "O21, A33", "A total of exactly 100 becomes 50"),
    _spec("exact_101_reset", BOOL, True, "O22", "A total of exactly 101 becomes 0"),
    _spec("bust_rule", ENUM, "ELIMINATE_CONTINUE", "O23, A13",
          "Above 101: ELIMINATE_CONTINUE (out, others play on) or FIRST_BUST_ENDS (match ends)",
          allowed=("ELIMINATE_CONTINUE", "FIRST_BUST_ENDS")),
    _spec("negative_limit", ENUM, "NONE", "O24, A20",
          "Low totals: NONE, RESET_AT_OR_BELOW (-101 or less → 0), RESET_EXACT (-101 → 0), "
          "ELIMINATE_BELOW (below -101 is out)",
          allowed=("NONE", "RESET_AT_OR_BELOW", "RESET_EXACT", "ELIMINATE_BELOW")),
    _spec("forbidden_finish", SET, (), "O25, A21",
          "Cards that cannot be a player's last card: play goes on and he draws at his next turn",
          allowed=FINISH_NAMES),
    _spec("no_finish_on_nine", BOOL, False, "O26", "Nines cannot be a last card either"),
    _spec("resolve_final_penalty", BOOL, True, "O27, A10",
          "A draw card played as the last card still makes its target draw before scoring"),
    _spec("six_cover_by", ENUM, "SELF", "O28, A16",
          "RU/ALT six: covered by its player (SELF) or by the NEXT player (needs effects RU)",
          allowed=("SELF", "NEXT")),
    _spec("nine_cover_allows_queen", BOOL, True, "O29, A14",
          "CL: any Queen may cover a 9 (needs effects CL to be turned off)"),
    _spec("fives_active", BOOL, False, "O30, A18",
          "ALT fives: the previous player draws 2 (5♠: 4), the next is skipped "
          "(needs deck_size 52)"),
    _spec("seven_spades_draw", INT, 2, "O31, A17",
          "Cards the next player draws for the 7 of spades", min_value=1, max_value=8),
)  # fmt: skip

CATALOGUE = Catalogue(pb.HundredAndOneOptions, SPECS)

_RU_SCORING: dict[str, Value] = {
    "queen_finish_bonus": True,
    "lone_queen_penalty": True,
    "reset_100_to_50": False,
    "negative_limit": "RESET_AT_OR_BELOW",
    "forbidden_finish": ("ACE", "SEVEN", "KING_OF_SPADES"),
    "kspades_draw": 5,
    "seven_spades_draw": 4,
    "transfer_6_7": False,
    "opening": "DEALER_UPCARD",
    "hand_size": 4,
    "effects": "RU",
}

PRESETS = (
    Preset("hd", "101 HD (the app): 6/7 transfer, 8 play again, 10 reverses, 100 → 50",
           {"effects": "HD"}, 2, 4),
    Preset("cl", "Classic 101: 5 cards with the dealer's upcard, 9 covered, first bust ends",
           {"effects": "CL", "opening": "DEALER_UPCARD", "transfer_6_7": False,
            "reset_100_to_50": False, "queen_finish_bonus": True,
            "bust_rule": "FIRST_BUST_ENDS"}, 2, 4),
    Preset("ru", "101 по-русски: 4 cards, 6 must be covered, no finishing on A, 7, K♠",
           dict(_RU_SCORING), 2, 5),
    Preset("alt", "Alternative 101: 52 cards, up to 8 players, fives make the previous player draw",
           {**_RU_SCORING, "deck_size": 52, "fives_active": True}, 2, 8),
)  # fmt: skip


def check_options(options: pb.HundredAndOneOptions, path: str) -> None:
    """Reject option values whose dependency (RULES.md, Options) is not met."""

    def needs(condition: bool, name: str, why: str) -> None:
        if not condition:
            raise InvalidInput(f"{path}.{name}", why)

    o = options
    upcard = o.opening == pb.HUNDRED_AND_ONE_OPENING_DEALER_UPCARD
    needs(
        o.players * o.hand_size < o.deck_size,
        "hand_size",
        f"{o.players} players × {o.hand_size} cards must be fewer than the {o.deck_size}-card deck",
    )
    needs(upcard or o.upcard_effects, "upcard_effects", "may only be turned off with DEALER_UPCARD")
    needs(upcard or not o.first_move_any, "first_move_any", "needs opening DEALER_UPCARD")
    needs(
        o.transfer_6_7 or not o.transfer_accumulates, "transfer_accumulates", "needs transfer_6_7"
    )
    hd = o.effects == pb.HUNDRED_AND_ONE_EFFECTS_HD
    needs(
        hd or o.eight_draw_mode == pb.HUNDRED_AND_ONE_EIGHT_DRAW_MODE_UNTIL,
        "eight_draw_mode",
        "THREE needs effects HD (only the HD eight must be covered)",
    )
    needs(hd or not o.eight_last_must_cover, "eight_last_must_cover", "needs effects HD")
    needs(
        o.effects == pb.HUNDRED_AND_ONE_EFFECTS_RU
        or o.six_cover_by == pb.HUNDRED_AND_ONE_SIX_COVER_BY_SELF,
        "six_cover_by",
        "NEXT needs effects RU (only the RU six must be covered)",
    )
    needs(
        o.effects == pb.HUNDRED_AND_ONE_EFFECTS_CL or o.nine_cover_allows_queen,
        "nine_cover_allows_queen",
        "may only be turned off with effects CL (only the CL nine must be covered)",
    )
    needs(
        o.lone_queen_penalty or o.lone_queen_scope == pb.HUNDRED_AND_ONE_LONE_QUEEN_SCOPE_ONLY_CARD,
        "lone_queen_scope",
        "ANY_SINGLE_QUEEN needs lone_queen_penalty",
    )
    needs(not o.fives_active or o.deck_size == 52, "fives_active", "needs deck_size 52")
