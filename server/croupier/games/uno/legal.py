"""Generating every legal UNO move of a seat, in canonical order.

Written apart from `moves.py` on purpose (python-chess: the generator and the
checker are two readings of the rules, and the conformance suite says they
agree). Canonical order: the oneof's order of actions — plays, jump-ins,
draw, pass, accept, challenge, call, catches, slap, time, reports, gives,
colours, ready — plays by card value, then colour, then without and with
"UNO!", then the exchange named (none first, by seat, then the card given).

Moves are produced serialized (`encoded_legal_moves`, the engine's hot path,
engine/move_codec.py), each one built once per distinct move and kept.
"""

from __future__ import annotations

from collections.abc import Iterable

from croupier.engine import caches
from croupier.engine.errors import FailedPrecondition
from croupier.engine.uno_cards import (
    BLANK,
    COLOURS,
    KIND_OF,
    NUMBER_OF,
    WILD_DRAW_FOUR,
    Kind,
)
from croupier.games.uno.acting import acting_seats
from croupier.games.uno.rules import (
    JUMPABLE,
    Rules,
    h2o_label_due,
    identical,
    rules_of,
    wd4_condition_met,
)
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

PLAY = pb.UNO_PHASE_PLAY
DRAWN = pb.UNO_PHASE_DRAWN
RESPOND = pb.UNO_PHASE_RESPOND
NAME_COLOUR = pb.UNO_PHASE_NAME_COLOUR

# card, colour, uno, swap_with (-1: none), give, H15's label
PlayKey = tuple[int, int, bool, int, int, int]


def legal_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Every move `seat` may make now; none for a seat that may not act."""
    return [game_pb2.Move.FromString(move) for move in encoded_legal_moves(state, seat)]


def encoded_legal_moves(state: game_pb2.GameState, seat: int) -> list[bytes]:
    """`legal_moves`, each move serialized: the same moves in the same order."""
    return _encoded_moves(state, seat, rules_of(state).misplay)


def _encoded_moves(state: game_pb2.GameState, seat: int, misplay: bool) -> list[bytes]:
    """The seat's moves; `misplay` False leaves out every move U16 penalises
    (a misplayed card, a false call or catch): the moves the rules accept as
    they are, which are exactly the legal moves without U16."""
    if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        return []
    # The engine keeps the acting seats in the state it hands over.
    if seat not in (state.acting_seats or acting_seats(state)):
        return []
    deal = state.uno
    rules = rules_of(state)
    if rules.overlays:
        if deal.HasField("card_swap"):
            return [_encoded(seat, "give", c) for c in sorted(set(deal.hands[seat].cards))]
        if deal.HasField("ready_seat"):
            return [_encoded(seat, "ready")]
        if deal.HasField("slap"):
            return [_encoded(seat, "slap_time_up" if seat == deal.slap.caller else "slap")]
    out: list[bytes] = []
    holder = seat == state.current_seat
    if holder:
        _turn_moves(state, seat, rules, misplay, out)
    else:
        _jump_ins(state, seat, rules, misplay, out)
    if deal.silence or misplay or deal.HasField("uno_offender"):
        _side_moves(state, seat, rules, misplay, out)
    return out


def _turn_moves(
    state: game_pb2.GameState, seat: int, rules: Rules, misplay: bool, out: list[bytes]
) -> None:
    """The moves of the seat whose turn it is, by phase (R4, R6, R7, U1a)."""
    deal = state.uno
    phase = deal.phase
    if phase == NAME_COLOUR:
        out.extend(_encoded(seat, "name_colour", c) for c in COLOURS)
        return
    hand = deal.hands[seat].cards[:]
    top = deal.discard[-1]
    colour = deal.colour
    if phase == PLAY:
        playable = rules.playable_on(top, colour)
        legal = sorted(playable.intersection(hand))
        if rules.strict_wd4 and WILD_DRAW_FOUR in playable:
            legal = [c for c in legal if _wd4_fits(c, hand, colour, rules)]
        _plays(state, seat, rules, sorted(set(hand)) if misplay else legal, False, misplay, out)
        if rules.voluntary_draw or not legal:
            out.append(_encoded(seat, "draw"))
        return
    if phase == DRAWN:
        drawn = deal.drawn_card
        fits = drawn in rules.playable_on(top, colour) and _wd4_fits(drawn, hand, colour, rules)
        cards = sorted(set(hand)) if misplay else [drawn] if fits else []
        _plays(state, seat, rules, cards, False, misplay, out)
        must = rules.play_drawn == pb.UNO_PLAY_DRAWN_MUST
        if not (fits and must and wd4_condition_met(drawn, hand, colour)):
            out.append(_encoded(seat, "pass"))
    elif phase == RESPOND:
        cards = sorted(set(hand))
        final = _round_decided(state, rules)
        answers = set() if final else rules.answers(deal.pending_kind, top, colour)
        legal = [c for c in cards if c in answers and _wd4_fits(c, hand, colour, rules)]
        _plays(state, seat, rules, cards if misplay else legal, False, misplay, out)
        out.append(_encoded(seat, "accept"))
        if deal.challengeable and rules.challenge:
            out.append(_encoded(seat, "challenge"))


def _round_decided(state: game_pb2.GameState, rules: Rules) -> bool:
    """A final effect waits for its answer: the round itself is over (U13)."""
    deal = state.uno
    if rules.play_to_last:
        return len(state.seats) - len(deal.finished) <= 1
    return any(not hand.cards for hand in deal.hands)


def _wd4_fits(card: int, hand: Iterable[int], colour: int, rules: Rules) -> bool:
    """U7 STRICT: a Wild Draw Four only without a card of the current colour."""
    return not rules.strict_wd4 or wd4_condition_met(card, hand, colour)


def _jump_ins(
    state: game_pb2.GameState, seat: int, rules: Rules, misplay: bool, out: list[bytes]
) -> None:
    """H1: a seat other than the one to act, while the window is open; under
    U16 any card of the hand at any moment (H17: a jump-in the rules forbid
    is a misplay)."""
    deal = state.uno
    if misplay and rules.jump_in:
        _plays(state, seat, rules, sorted(set(deal.hands[seat].cards)), True, misplay, out)
        return
    if not (rules.jump_in and deal.jump_in_open and deal.HasField("top_player")):
        return
    top = deal.discard[-1]
    if top not in JUMPABLE or (deal.top_player == seat and not rules.jump_own):
        return
    cards = sorted(set(deal.hands[seat].cards))
    if not misplay:
        cards = [c for c in cards if identical(c, top)]
    _plays(state, seat, rules, cards, True, misplay, out)


def _side_moves(
    state: game_pb2.GameState, seat: int, rules: Rules, misplay: bool, out: list[bytes]
) -> None:
    """Calls, catches and reports: the windows of R8 and H5 (and U16's false
    ones, open to every acting seat)."""
    deal = state.uno
    seats = len(state.seats)
    offender = deal.uno_offender if deal.HasField("uno_offender") else -1
    catchable = offender >= 0 and len(deal.hands[offender].cards) == 1
    if (offender == seat and rules.until_caught) or misplay:
        out.append(_encoded(seat, "call_uno"))
    if misplay:
        out.extend(_encoded(seat, "catch", s) for s in range(seats) if s != seat)
    elif catchable and offender != seat:
        out.append(_encoded(seat, "catch", offender))
    if deal.silence:
        finished = deal.finished
        out.extend(
            _encoded(seat, "report_silence", s)
            for s in range(seats)
            if s != seat and s not in finished
        )


def _plays(
    state: game_pb2.GameState,
    seat: int,
    rules: Rules,
    cards: Iterable[int],
    jump: bool,
    misplay: bool,
    out: list[bytes],
) -> None:
    """Every well-formed play of each card, with each choice it may carry;
    with "UNO!" for the second-to-last card, or (`misplay`, U16) for every
    card: a false call the rules penalise (D17)."""
    deal = state.uno
    size = len(deal.hands[seat].cards)
    calls = size == 2 or misplay
    labelled = rules.h2o and h2o_label_due(rules, size, deal.stages[seat] if deal.stages else 1)
    table_key = (seat, calls, rules.rotation, jump, labelled)
    plain = _PLAIN.get(table_key)
    if plain is None:
        plain = _PLAIN[table_key] = {}
    exchanges = rules.seven_zero or rules.swap_five
    for card in cards:
        if exchanges:
            number = NUMBER_OF[card]
            if (number == 7 and rules.seven_zero) or (number == 5 and rules.swap_five):
                for key in _play_keys(state, seat, rules, card, calls):
                    out.append(_encoded_play(seat, jump, key))
                continue
        plays = plain.get(card)
        if plays is None:
            plays = plain[card] = _plain_plays(seat, card, calls, labelled, rules.rotation, jump)
        out += plays


def _plain_plays(
    seat: int, card: int, calls: bool, labelled: bool, rotation: bool, jump: bool
) -> list[bytes]:
    """The plays of a card without an exchange: each colour a black card may
    name (none under H9), without and (`calls`: the second-to-last card, or
    U16) with "UNO!", without and (H15, the card that wins the round) with
    each H2O label."""
    colours: Iterable[int] = (0,)
    if KIND_OF[card] >= Kind.WILD and not rotation:
        colours = COLOURS
    uno_calls = (False, True) if calls else (False,)
    labels = H2O_LABELS if labelled else (0,)
    return [
        play_move(seat, card, colour, uno, h2o_label=label, jump=jump).SerializeToString()
        for colour in colours
        for label in labels
        for uno in uno_calls
    ]


# (seat, "UNO!" listed?, H9?, jump-in?, H15 label due?) -> card -> its serialized plays
_PLAIN: dict[tuple[int, bool, bool, bool, bool], dict[int, list[bytes]]] = {}
# H15's labels in listing order, none first (UnoH2oLabel).
H2O_LABELS = (
    pb.UNO_H2O_LABEL_UNSPECIFIED,
    pb.UNO_H2O_LABEL_PLUS_ONE,
    pb.UNO_H2O_LABEL_WILD_PLUS_TWO,
)


def _play_keys(
    state: game_pb2.GameState, seat: int, rules: Rules, card: int, with_calls: bool
) -> list[PlayKey]:
    """The choices a play of `card` may carry here (moves._check_choices);
    "UNO!" too when `with_calls` (_plays)."""
    deal = state.uno
    hand = deal.hands[seat].cards
    size = len(hand)
    colours: Iterable[int] = (0,)
    if KIND_OF[card] >= Kind.WILD and not rules.rotation:
        colours = COLOURS
    calls = (False, True) if with_calls else (False,)
    stage = deal.stages[seat] if deal.stages else 1
    labels = H2O_LABELS if h2o_label_due(rules, size, stage) else (0,)
    swaps: list[tuple[int, int]] = [(-1, 0)]
    number = NUMBER_OF[card]
    others = [s for s in range(len(state.seats)) if s != seat and s not in deal.finished]
    if rules.seven_zero and number == 7:
        if size >= 2 or (rules.seven_rounds and deal.stages[seat] > 1):
            swaps = [(s, 0) for s in others]
    elif rules.swap_five and number == 5 and size >= 2:
        rest: list[int] = list(hand)
        rest.remove(card)
        gives = sorted(set(rest))
        swaps += [(s, g) for s in others for g in gives]
    return [
        (card, c, u, s, g, label)
        for c in colours
        for label in labels
        for u in calls
        for s, g in swaps
    ]


# -- serialized moves, built once each -------------------------------------------------

# Plays carry a swap's seat and card (H4, H5): too many to build them all, so
# the ones met are kept, within a bound (engine/caches.py). Other actions are
# a few per seat, all kept.
_PLAYS: caches.Bounded[tuple[int, bool, PlayKey], bytes] = caches.Bounded(
    "uno.legal.plays", 2048, 260
)
_OTHERS: dict[tuple[int, str, int], bytes] = {}


def _encoded_play(seat: int, jump: bool, key: PlayKey) -> bytes:
    entry = _PLAYS.get((seat, jump, key))
    if entry is None:
        entry = _PLAYS.put((seat, jump, key), play_move(seat, *key, jump=jump).SerializeToString())
    return entry


def _encoded(seat: int, action: str, value: int = 0) -> bytes:
    entry = _OTHERS.get((seat, action, value))
    if entry is None:
        entry = _OTHERS[(seat, action, value)] = action_move(
            seat, action, value
        ).SerializeToString()
    return entry


def play_move(
    seat: int,
    card: int,
    colour: int = 0,
    uno: bool = False,
    swap_with: int = -1,
    give: int = 0,
    h2o_label: int = 0,
    *,
    jump: bool = False,
) -> game_pb2.Move:
    """The move playing (or, `jump`, jumping in with) `card` with its choices."""
    move = game_pb2.Move(seat=seat)
    play = move.uno.jump_in if jump else move.uno.play
    play.card = card  # type: ignore[assignment]
    play.colour = colour  # type: ignore[assignment]
    play.uno = uno
    play.h2o_label = h2o_label  # type: ignore[assignment]
    if swap_with >= 0:
        play.swap_with = swap_with
        play.give = give  # type: ignore[assignment]
    return move


_VALUE_FIELDS = {
    "catch": "seat",
    "report_silence": "seat",
    "give": "card",
    "name_colour": "colour",
}


def action_move(seat: int, action: str, value: int = 0) -> game_pb2.Move:
    """A move without a card choice: "draw", "pass", "accept", "challenge",
    "call_uno", "slap", "slap_time_up", "ready"; or one carrying one value:
    "catch" / "report_silence" (a seat), "give" (a card), "name_colour"."""
    move = game_pb2.Move(seat=seat)
    message = getattr(move.uno, action)
    message.SetInParent()
    field = _VALUE_FIELDS.get(action)
    if field is not None:
        setattr(message, field, value)
    return move


# -- the conformance suite's hooks ---------------------------------------------------


def default_move(state: game_pb2.GameState, seat: int) -> game_pb2.Move:
    """The move `seat` is deemed to make when its clock runs out (RULES.md,
    "Default move", D14): never a move the rules penalise (U16's misplays,
    false calls and catches are left out: the moves are those the rules
    accept without U16) and never a REPORT. PASS, DRAW, ACCEPT, READY, TIME
    (the caller), SLAP; else the first listed move — the first legal card of
    a seat that must play one (the drawn card under U9 MUST), the lowest card
    to GIVE, COLOUR R; for a seat that owes nothing (`owes_move` False) a
    jump-in, its own "UNO!" under UNTIL_CAUGHT, the catch of the offender. A
    play or jump-in of the second-to-last card calls "UNO!". A seat with no
    such move owes none: FAILED_PRECONDITION."""
    encoded = _encoded_moves(state, seat, misplay=False)
    moves = [game_pb2.Move.FromString(move) for move in encoded]
    for name in ("pass", "draw", "accept", "ready", "slap_time_up", "slap"):
        for move in moves:
            if move.uno.WhichOneof("action") == name:
                return move
    moves = [move for move in moves if move.uno.WhichOneof("action") != "report_silence"]
    if not moves:
        raise FailedPrecondition(
            f"seat {seat} owes no move and has none to be deemed: it may act only in a window, "
            "with no identical card to jump in with, no catch due and no call of its own "
            "(a report, a misplay, a false call or catch is never a default)"
        )
    move = moves[0]
    action = move.uno.WhichOneof("action")
    if action in ("play", "jump_in") and len(state.uno.hands[seat].cards) == 2:
        called = game_pb2.Move()
        called.CopyFrom(move)
        getattr(called.uno, action).uno = True  # R8: the second-to-last card calls "UNO!"
        if called.SerializeToString() in encoded:
            return called
    return move


def owes_move(state: game_pb2.GameState, seat: int) -> bool:
    """Whether `seat` owes a move now (D14): the seat to act, in any phase,
    or a seat an overlay waits for (H6's GIVE, H16's READY, H8's caller and
    the seats yet to slap). Every other acting seat acts only in a window (a
    jump-in, a catch, its own "UNO!", a report) and owes nothing; its default
    may not exist. The conformance suite's hook: a seat that owes a move
    always has a default."""
    if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        return False
    if seat not in (state.acting_seats or acting_seats(state)):
        return False
    deal = state.uno
    if deal.HasField("card_swap") or deal.HasField("ready_seat") or deal.HasField("slap"):
        return True
    return seat == state.current_seat


def candidate_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Well-formed moves worth trying for `seat` (the conformance suite's
    hook), kept to a few dozen: each card of its hand and one it lacks as a
    play, black cards with every colour and with none; "UNO!" with each card
    when the hand has two, else with one; H15's labels with one; as jump-ins the cards identical to
    the top and two others; the exchanges of a 7 or 5 its options offer (one
    otherwise); every card-less action; every seat caught or reported; every
    colour named; every card given."""
    deal = state.uno
    rules = rules_of(state)
    hand: list[int] = sorted(set(deal.hands[seat].cards))
    foreign = next((c for c in rules.deck if c not in hand), BLANK)
    top = deal.discard[-1] if deal.discard else 0
    seats = len(state.seats)
    others = [s for s in range(seats) if s != seat]
    cards = [*hand, foreign]
    jumps: list[int] = [c for c in hand if identical(c, top)]
    jumps += [c for c in cards if c not in jumps][:2]
    out: list[game_pb2.Move] = []
    for jump, chosen in ((False, cards), (True, jumps)):
        for i, card in enumerate(chosen):
            colours = (0, *COLOURS) if KIND_OF[card] >= Kind.WILD else (0,)
            calls = (False, True) if len(hand) == 2 or i == 0 else (False,)
            swaps: list[tuple[int, int]] = [(-1, 0)]
            number = NUMBER_OF[card]
            if number == 7:
                swaps += [(s, 0) for s in others] if rules.seven_zero else [(others[0], 0)]
            elif number == 5 and hand:
                swaps += (
                    [(s, hand[0]) for s in others] if rules.swap_five else [(others[0], hand[0])]
                )
            labels = H2O_LABELS if i == 0 else (0,)  # H15's, legal or not
            for colour in colours:
                for label in labels:
                    for uno in calls:
                        for swap, give in swaps:
                            out.append(
                                play_move(seat, card, colour, uno, swap, give, label, jump=jump)
                            )
    for name in ("draw", "pass", "accept", "challenge", "call_uno", "slap", "slap_time_up",
                 "ready"):  # fmt: skip
        out.append(action_move(seat, name))
    out += [action_move(seat, "catch", s) for s in range(seats)]
    out += [action_move(seat, "report_silence", s) for s in range(seats)]
    out += [action_move(seat, "give", c) for c in cards]
    out += [action_move(seat, "name_colour", c) for c in COLOURS]
    return out
