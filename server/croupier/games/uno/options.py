"""The UNO option catalogue (U1–U18, H1–H17), the two presets, the options
that follow a house rule when the table leaves them unset, and the conflicts
refused at NewGame (§2.12, C-UNO-6).

Each option's rule reference names ids that RULES.md defines. Two house
rules are values of a core option rather than fields of their own, as the
rules define them: H7 (lazy scoring) is `scoring_method` LAZY and H17
(misplay penalties) is U16 `misplay_penalty`.
"""

from __future__ import annotations

from croupier.engine.errors import InvalidInput
from croupier.engine.options import BOOL, ENUM, INT, Catalogue, Follower, OptionSpec, Preset
from croupier.v1 import uno_pb2 as pb


def _spec(name, type_, default, reference, description, **kw):  # type: ignore[no-untyped-def]
    return OptionSpec(name, type_, default, description, f"RULES.md {reference}", **kw)


SPECS = (
    _spec("first_card_policy", ENUM, "NUMBER_ONLY", "U1, B3, B34",
          "NUMBER_ONLY: only a number card starts (others go back into the stock); "
          "MATTEL: action cards act on the first player",
          allowed=("NUMBER_ONLY", "MATTEL")),
    _spec("wild_first_card", ENUM, "FIRST_PLAYER_CHOOSES", "U1a, B5",
          "A Wild first card (MATTEL): the FIRST_PLAYER_CHOOSES its colour, or RETURN it",
          allowed=("FIRST_PLAYER_CHOOSES", "RETURN")),
    _spec("reverse_first_card", ENUM, "DEALER_FIRST", "U2, B4",
          "A Reverse first card (MATTEL): the DEALER_FIRST plays, or the player RIGHT_OF_DEALER",
          allowed=("DEALER_FIRST", "RIGHT_OF_DEALER")),
    _spec("draw2_response", ENUM, "DEFLECT_ANY_COLOUR", "U3, B1",
          "The target of a +2 may pass 2 on with a +2 of any colour (DEFLECT_ANY_COLOUR) or NONE",
          allowed=("NONE", "DEFLECT_ANY_COLOUR")),
    _spec("wd4_response", ENUM, "DEFLECT_DRAW_TWO_NAMED_COLOUR", "U4, B2",
          "The target of a Wild Draw Four may pass 2 on with a +2 of the named colour, or NONE",
          allowed=("NONE", "DEFLECT_DRAW_TWO_NAMED_COLOUR")),
    _spec("challenge_enabled", BOOL, True, "U5, R7",
          "The target of a Wild Draw Four may challenge it (off when wd4_enforcement is STRICT)"),
    _spec("challenge_outcome", ENUM, "SEED", "U6, B9",
          "SEED: a guilty player takes his card back, draws and loses a turn; MATTEL: he draws, "
          "the card stays. Innocent: the challenger draws 2 more and is skipped",
          allowed=("SEED", "MATTEL")),
    _spec("wd4_enforcement", ENUM, "CHALLENGE_ONLY", "U7, B10",
          "CHALLENGE_ONLY: a Wild Draw Four bluff is legal and may be challenged; STRICT: refused",
          allowed=("CHALLENGE_ONLY", "STRICT")),
    _spec("voluntary_draw", BOOL, True, "U8, B7", "A player may draw while holding a legal card"),
    _spec("play_drawn", ENUM, "MAY", "U9, B8",
          "A legal card just drawn MAY be played, MUST be played, or NEVER",
          allowed=("MAY", "MUST", "NEVER")),
    _spec("uno_call_timing", ENUM, "DURING_PLAY", "U10, B12",
          "DURING_PLAY: only a call with the second-to-last card protects; UNTIL_CAUGHT: "
          "a late call before anyone catches him does too",
          allowed=("DURING_PLAY", "UNTIL_CAUGHT")),
    _spec("uno_penalty", INT, 2, "U11, R8", "Cards a player caught without 'UNO!' draws",
          min_value=1, max_value=10),
    _spec("two_player_reverse_is_skip", BOOL, True, "U12, B31, C-UNO-5",
          "With two players a Reverse skips the opponent"),
    _spec("final_draw_resolution", BOOL, True, "U13, B32",
          "A +2, Wild Draw Four or +10 played as the last card still makes its target draw"),
    _spec("scoring_method", ENUM, "WINNER_COLLECTS", "U14, H7",
          "WINNER_COLLECTS (the winner scores the others' hands, first to target wins), "
          "PENALTY_LIMIT (own hand, at limit you lose) or LAZY (H7: no points)",
          allowed=("WINNER_COLLECTS", "PENALTY_LIMIT", "LAZY")),
    _spec("target", INT, 500, "U15", "WINNER_COLLECTS: the total that wins the match",
          min_value=1, max_value=100_000),
    _spec("limit", INT, 200, "U15, B30", "PENALTY_LIMIT: the total that loses the match",
          min_value=1, max_value=100_000),
    _spec("lazy_rounds", INT, 5, "U15, H7",
          "LAZY: rounds in a match (the most round wins wins it)", min_value=1, max_value=1000),
    _spec("misplay_penalty", BOOL, False, "U16, H17, B33, C-UNO-11",
          "A wrong card, a false 'UNO!' or a false catch costs 2 cards instead of being refused"),
    _spec("dealer_selection", ENUM, "HIGHEST_CARD", "U17",
          "First dealer: HIGHEST_CARD drawn (symbols count zero) or RANDOM",
          allowed=("HIGHEST_CARD", "RANDOM")),
    _spec("blank_cards_in_deck", BOOL, False, "U18",
          "The 4 blank cards of the 112-card editions (used only by H10 plus_ten)"),
    _spec("jump_in", BOOL, False, "H1, B16, B35, C-UNO-2, C-UNO-3",
          "Anyone may play a card identical to the top card out of turn"),
    _spec("jump_in_own_card", BOOL, False, "H2",
          "A player may jump in on his own card (needs jump_in)"),
    _spec("seven_zero", BOOL, False, "H3, B18, C-UNO-9",
          "A 0 passes every hand on; a 7 swaps hands with a player of one's choice"),
    _spec("stacking", BOOL, False, "H4, B15, B32",
          "A +2 answers a +2 and a Wild Draw Four a Wild Draw Four; the counts add up"),
    _spec("stack_mixed", BOOL, False, "H4",
          "Stacking: a Wild Draw Four may also answer a +2 (needs stacking)"),
    _spec("silent_trigger", ENUM, "OFF", "H5, B19, C-UNO-10",
          "Silence after a 2 (TWOS) or after a black card (BLACK); a speaker draws 2",
          allowed=("OFF", "TWOS", "BLACK")),
    _spec("swap_on_five", BOOL, False, "H6, B20",
          "After a 5 its player may exchange one card with another player"),
    _spec("uno_in_centre", BOOL, False, "H8, B22",
          "After 'UNO!' the others put a hand on the pile; the last one draws 2"),
    _spec("colour_rotation", BOOL, False, "H9, B23",
          "Black cards turn the colour to the next one on the wheel instead of a chosen one"),
    _spec("plus_ten", BOOL, False, "H10, B24",
          "The blank cards are '+10': the next player draws 10 (needs blank_cards_in_deck)"),
    _spec("reverse_bounce", BOOL, False, "H11, B17",
          "A Reverse of the current colour sends a +2, Wild Draw Four or Skip back"),
    _spec("play_to_last", BOOL, False, "H12, B25",
          "The round goes on until one player holds cards (needs scoring_method LAZY)"),
    _spec("seven_rounds", BOOL, False, "H13, B26",
          "Emptying a hand at stage k > 1 draws k - 1 new cards; stage 1 wins"),
    _spec("zero_worth_50", BOOL, False, "H14, B27", "A lone 0 left in hand scores 50"),
    _spec("zero50_scope", ENUM, "ONLY_CARD", "H14, B27",
          "zero_worth_50 counts a hand of exactly one 0 (ONLY_CARD) or every 0 (ANY_ZERO)",
          allowed=("ONLY_CARD", "ANY_ZERO")),
    _spec("h2o_finish_bonus", BOOL, False, "H15, B28, C-UNO-7",
          "UNO H2O: finishing on '+1' takes 20 off the total, on wild '+2' 40 "
          "(needs scoring_method PENALTY_LIMIT)"),
    _spec("politeness_ready", BOOL, False, "H16, C-UNO-10",
          "After a penalty of 4 or more cards play waits for that player's 'Ready'"),
)  # fmt: skip


# C-UNO-6 and §2.12: an option the table does not set follows the house rule
# that fixes it; an explicit contradicting value is a conflict (check_options).
# (leader, leader value, follower, the value it takes)
FOLLOWERS: tuple[Follower, ...] = (
    ("wd4_enforcement", "STRICT", "challenge_enabled", False),
    ("play_to_last", True, "scoring_method", "LAZY"),
    ("h2o_finish_bonus", True, "scoring_method", "PENALTY_LIMIT"),
    ("jump_in_own_card", True, "jump_in", True),
    ("stack_mixed", True, "stacking", True),
    ("plus_ten", True, "blank_cards_in_deck", True),
)


CATALOGUE = Catalogue(pb.UnoOptions, SPECS, FOLLOWERS)  # C-UNO-6's followers

PRESETS = (
    Preset("seed", "The rules of the seed: number-only first card, +2 passed on (not added), "
           "a +2 of the named colour answers a Wild Draw Four, the challenger sees the hand",
           {}, 2, 10),
    Preset("mattel", "Mattel's instruction sheet: action first cards act, no answer to draw "
           "cards but the challenge, 'UNO!' until caught, first to 500",
           {"first_card_policy": "MATTEL", "draw2_response": "NONE", "wd4_response": "NONE",
            "challenge_outcome": "MATTEL", "uno_call_timing": "UNTIL_CAUGHT"}, 2, 10),
)  # fmt: skip


def check_options(options: pb.UnoOptions, path: str) -> None:
    """Refuse the conflicts of §2.12 and C-UNO-6, naming both options.
    Inert combinations (an option another makes pointless or overrides) are
    accepted; RULES.md, Options, lists them."""
    o = options
    scoring = pb.UnoScoringMethod.Name(o.scoring_method).removeprefix("UNO_SCORING_METHOD_")

    def conflict(name: str, value: object, other: str, why: str) -> None:
        text = f"{name}={value} {why}"
        raise InvalidInput(f"{path}.{name}", text, (f"{path}.{other}", text))

    if o.wd4_enforcement == pb.UNO_WILD_DRAW_FOUR_ENFORCEMENT_STRICT and o.challenge_enabled:
        why = "is pointless with wd4_enforcement=STRICT: no bluff is left to challenge"
        conflict("challenge_enabled", "true", "wd4_enforcement", why)
    if o.play_to_last and o.h2o_finish_bonus:
        conflict("h2o_finish_bonus", "true", "play_to_last",
                 "needs scoring_method PENALTY_LIMIT; play_to_last needs LAZY")  # fmt: skip
    if o.play_to_last and o.scoring_method != pb.UNO_SCORING_METHOD_LAZY:
        why = f"needs scoring_method LAZY (placement only); scoring_method is {scoring}"
        conflict("play_to_last", "true", "scoring_method", why)
    if o.h2o_finish_bonus and o.scoring_method != pb.UNO_SCORING_METHOD_PENALTY_LIMIT:
        why = f"needs scoring_method PENALTY_LIMIT; scoring_method is {scoring}"
        conflict("h2o_finish_bonus", "true", "scoring_method", why)
    if o.jump_in_own_card and not o.jump_in:
        conflict("jump_in_own_card", "true", "jump_in", "needs jump_in")
    if o.stack_mixed and not o.stacking:
        conflict("stack_mixed", "true", "stacking", "needs stacking")
    if o.plus_ten and not o.blank_cards_in_deck:
        conflict("plus_ten", "true", "blank_cards_in_deck", "needs blank_cards_in_deck")
