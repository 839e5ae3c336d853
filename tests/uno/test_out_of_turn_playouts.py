"""Random playouts ask every acting seat, so out-of-turn play actually happens
in them (issue 9, acceptance): jump-ins, catches, challenges and the house
rules' windows, counted in seeded uniform-random playouts through the one
match loop (croupier_client.playout over the engine in-process) with every
house rule on together where §2.12 allows.

A move counts when it did what its kind does, as its events say (a jump-in
lands, a catch catches, a challenge is judged), not merely when it is made.
H17 (misplay_penalty) is the one house rule left off here: it makes every
card of every entitled hand a listed move (a wrong one costs two cards), so
uniform choices are mostly misplays (86 % of the moves of such playouts,
measured), and the hands grow until the real windows hardly open. Its own
random playouts are the property tests' (tests/properties/test_uno_properties.py).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from typing import Any

from croupier.inprocess import InProcess
from croupier.v1 import uno_pb2 as pb
from croupier_client.playout import MatchTooLong, Step, play_match, uniform

# Every house rule but H17, in the two sets §2.12 allows: H12 play_to_last
# needs LAZY scoring and H15 the H2O bonus needs PENALTY_LIMIT; H5's trigger
# is TWOS in one and BLACK in the other. U8 voluntary draw is off in all
# tables: a random player then draws only when it cannot play, so hands get
# down to their last cards, where the "UNO!" windows open.
HOUSE_RULES: dict[str, Any] = {
    "jump_in": True, "jump_in_own_card": True, "seven_zero": True, "stacking": True,
    "stack_mixed": True, "swap_on_five": True, "uno_in_centre": True, "colour_rotation": True,
    "blank_cards_in_deck": True, "plus_ten": True, "reverse_bounce": True,
    "seven_rounds": True, "zero_worth_50": True, "politeness_ready": True,
    "voluntary_draw": False,
}  # fmt: skip
# (options, seats): ten seats for the house rules (the more seats, the more
# hands near their last card). The late "UNO!" of U10 UNTIL_CAUGHT is a move
# of the one seat that forgot it, among every other seat's catches and H8's
# slaps; it gets a table of its own (core rules, 4 seats).
TABLES: dict[str, tuple[dict[str, Any], int]] = {
    "every house rule, lazy": ({**HOUSE_RULES, "silent_trigger": "TWOS",
                                "play_to_last": True, "scoring_method": "LAZY"}, 10),
    "every house rule, penalty limit": ({**HOUSE_RULES, "silent_trigger": "BLACK",
                                         "h2o_finish_bonus": True,
                                         "scoring_method": "PENALTY_LIMIT"}, 10),
    "late calls": ({"uno_call_timing": "UNTIL_CAUGHT", "voluntary_draw": False}, 4),
}  # fmt: skip
SEEDS = (1, 2)
MOVES = 700  # per playout; the matches go on far longer

# Each out-of-turn kind of move (the UnoMove action) and the event that says
# it took effect.
K = pb.UnoEventKind
EFFECT = {
    "jump_in": K.UNO_EVENT_KIND_JUMPED_IN,
    "catch": K.UNO_EVENT_KIND_UNO_CAUGHT,
    "challenge": K.UNO_EVENT_KIND_CHALLENGED,
    "call_uno": K.UNO_EVENT_KIND_UNO_CALLED,
    "slap": K.UNO_EVENT_KIND_SLAPPED,
    "slap_time_up": K.UNO_EVENT_KIND_SLAP_WINDOW_CLOSED,
    "report_silence": K.UNO_EVENT_KIND_SILENCE_BROKEN,
    "give": K.UNO_EVENT_KIND_CARDS_EXCHANGED,
    "ready": K.UNO_EVENT_KIND_READY,
}


def out_of_turn_moves(options: dict[str, Any], seats: int, seed: int, moves: int) -> Counter[str]:
    """The out-of-turn moves that took effect in one seeded random playout of
    `moves` moves (fewer if the match ends), by kind."""
    seen: Counter[str] = Counter()

    def count(step: Step) -> None:
        kind = step.choice.move.uno.WhichOneof("action")
        if kind in EFFECT:
            effects = {event.uno.kind for event in step.answer.events if event.HasField("uno")}
            if EFFECT[kind] in effects:
                seen[kind] += 1

    with contextlib.suppress(MatchTooLong):
        play_match(InProcess(), "uno", "seed", seats, seed, uniform(seed), options=options,
                   on_step=count, max_moves=moves)  # fmt: skip
    return seen


def test_random_playouts_ask_every_acting_seat_so_out_of_turn_moves_happen() -> None:
    """Jump-ins, catches, challenges, late calls, slaps, reports of a broken
    silence, H6 gives and H16 readies each take effect in seeded random
    playouts (three tables x two seeds x 700 moves). Counted (rules version
    1): jump-ins 358, gives 270, readies 212, reports of a broken silence
    131, slaps 58, challenges 50, catches 29, slap time-ups 16, late calls 6."""
    seen: Counter[str] = Counter()
    for options, seats in TABLES.values():
        for seed in SEEDS:
            seen += out_of_turn_moves(options, seats, seed, MOVES)
    missing = sorted(kind for kind in EFFECT if not seen[kind])
    assert not missing, f"never happened: {missing}; counted {dict(seen)}"
