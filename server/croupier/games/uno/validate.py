"""Is an UNO state (or move) well formed? Checked before any rule runs.

Any state that passes is a game (DESIGN.md): a hand-built puzzle position is
as good as a dealt one. Each check names the field that breaks it.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine.conservation import check_conservation, holds_exactly
from croupier.engine.errors import InvalidInput
from croupier.engine.uno_cards import (
    BLANK,
    COLOUR_OF,
    COLOURS,
    KIND_OF,
    NUMBER_OF,
    REVERSE,
    SKIP,
    UNO,
    WILD,
    WILD_DRAW_FOUR,
    Kind,
    is_coloured,
    uno_card_text,
)
from croupier.games.uno.rules import Rules, rules_for
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

P = "state.uno"
PLAY = pb.UNO_PHASE_PLAY
DRAWN = pb.UNO_PHASE_DRAWN
RESPOND = pb.UNO_PHASE_RESPOND
NAME_COLOUR = pb.UNO_PHASE_NAME_COLOUR
DEAL_OVER = pb.UNO_PHASE_DEAL_OVER
_PHASES = (PLAY, DRAWN, RESPOND, NAME_COLOUR, DEAL_OVER)
HAND_SIZE = 7
# H15's labels of a finishing card (UnoH2oLabel), none included.
_LABELS = frozenset(pb.UnoH2oLabel.values())
STAGES = 7
# A bound on a stacked count (H4). Not the deck's own total: penalties drawn
# during a chain (a catch, a misplay) restock the pile, and its draw cards come
# back into play.
MOST_PENDING = 10_000

# Which top cards each pending kind may lie under (R6; a Reverse after H11).
_PENDING_TOPS = {
    pb.UNO_PENDING_KIND_DRAW_TWO: (Kind.DRAW_TWO, Kind.REVERSE),
    pb.UNO_PENDING_KIND_WILD_DRAW_FOUR: (Kind.WILD_DRAW_FOUR, Kind.REVERSE),
    pb.UNO_PENDING_KIND_PLUS_TEN: (Kind.BLANK,),
    pb.UNO_PENDING_KIND_SKIP: (Kind.SKIP, Kind.REVERSE),
}
_OWN_COUNT = {
    pb.UNO_PENDING_KIND_DRAW_TWO: 2,
    pb.UNO_PENDING_KIND_WILD_DRAW_FOUR: 4,
    pb.UNO_PENDING_KIND_PLUS_TEN: 10,
    pb.UNO_PENDING_KIND_SKIP: 0,
}


def validate(state: game_pb2.GameState) -> None:
    """Raise InvalidInput unless the UNO part of `state` is consistent."""
    deal = state.uno
    seats = state.seats
    n = len(seats)
    if len(deal.hands) != n:
        raise InvalidInput(f"{P}.hands", f"needs one hand per seat ({n}); got {len(deal.hands)}")
    for i, seat in enumerate(seats):
        if seat.team:
            raise InvalidInput(
                f"state.seats[{i}].team", f"UNO has no partnerships: must be 0; got {seat.team}"
            )
        if seat.eliminated:
            raise InvalidInput(f"state.seats[{i}].eliminated", "nobody leaves an UNO match")
    rules = rules_for(state.options.uno)
    hands = [h.cards for h in deal.hands]
    if not holds_exactly([*hands, deal.stock, deal.discard], rules.deck):
        zones = [(f"{P}.hands[{i}].cards", cards) for i, cards in enumerate(hands)]
        zones += [(f"{P}.stock", deal.stock), (f"{P}.discard", deal.discard)]
        check_conservation(zones, rules.deck, P, UNO)
    phase = deal.phase
    if phase not in _PHASES:
        raise InvalidInput(f"{P}.phase", f"unknown phase {phase}")
    in_play = state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    if (phase == DEAL_OVER) == in_play:
        raise InvalidInput(
            f"{P}.phase", "must be DEAL_OVER exactly when the match phase is not in progress"
        )
    _seat_field(deal.dealer, n, f"{P}.dealer")
    _seat_field(deal.round_loser, n, f"{P}.round_loser")
    _check_scores(state, rules)
    _check_match_undecided(state, rules)
    if len(state.match.deal_winners) > 1:
        raise InvalidInput("state.match.deal_winners", "an UNO round has one winner")
    _check_house_fields(state, rules)
    _check_finishing_label(state, rules)
    if not in_play:
        return
    _check_table(state, rules)
    _check_turn(state, rules)
    _check_windows(state, rules)


def _seat_field(seat: int, n: int, path: str) -> None:
    if seat >= n:
        raise InvalidInput(path, f"seat {seat} does not exist (the table has {n})")


def _seat_list(listed: Sequence[int], n: int, path: str) -> None:
    seen: set[int] = set()
    for i, seat in enumerate(listed):
        _seat_field(seat, n, f"{path}[{i}]")
        if seat in seen:
            raise InvalidInput(f"{path}[{i}]", f"names seat {seat} twice")
        seen.add(seat)


def _check_finishing_label(state: game_pb2.GameState, rules: Rules) -> None:
    """H15: a finishing label is the label of the card that emptied
    `top_player`'s hand, under h2o_finish_bonus only."""
    deal = state.uno
    label = deal.finishing_label
    if not label:
        return
    path = f"{P}.finishing_label"
    if label not in _LABELS:
        raise InvalidInput(path, f"unknown H2O label {label}")
    if not rules.h2o:
        raise InvalidInput(path, "an H2O label needs h2o_finish_bonus (H15)")
    top = deal.top_player if deal.HasField("top_player") else len(deal.hands)
    if top >= len(deal.hands) or deal.hands[top].cards:
        raise InvalidInput(path, "labels the card that emptied top_player's hand: none did")


def _check_scores(state: game_pb2.GameState, rules: Rules) -> None:
    """U14: totals only grow (H15's bonus may lower a winner's, by 40 a round)."""
    low = -40 * state.match.deal_number if rules.h2o else 0
    for i, seat in enumerate(state.seats):
        if seat.score < low:
            raise InvalidInput(
                f"state.seats[{i}].score", f"must be at least {low}; got {seat.score}"
            )
    for i, points in enumerate(state.match.deal_points):
        if points < (-40 if rules.h2o else 0):
            raise InvalidInput(f"state.match.deal_points[{i}]", f"no round gives {points} points")


def _check_match_undecided(state: game_pb2.GameState, rules: Rules) -> None:
    """U14, U15, D11: a match still in play (a round in progress, or over with
    another to deal) is undecided; the round that decides it ends the match.
    WINNER_COLLECTS: no total has reached `target`; PENALTY_LIMIT: none has
    reached `limit` (B30); LAZY: no more rounds played than `lazy_rounds`,
    the last of them still in progress (a round over at `lazy_rounds` ends
    the match)."""
    phase = state.match.phase
    if phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        when = "in play"
    elif phase == game_pb2.MATCH_PHASE_DEAL_OVER:
        when = "waiting for its next round"
    else:
        return
    if rules.scoring == pb.UNO_SCORING_METHOD_LAZY:
        number, rounds = state.match.deal_number, rules.lazy_rounds
        over = number >= rounds if phase == game_pb2.MATCH_PHASE_DEAL_OVER else number > rounds
        if over:
            raise InvalidInput(
                "state.match.deal_number",
                f"round {number} of a LAZY match of {rounds} rounds (lazy_rounds, D11) "
                f"is past its end, so the match is over, yet it is {when}",
            )
        return
    if rules.scoring == pb.UNO_SCORING_METHOD_PENALTY_LIMIT:
        bound, name, what = rules.limit, "limit", "loses it (B30)"
    else:
        bound, name, what = rules.target, "target", "wins it"
    for i, seat in enumerate(state.seats):
        if seat.score >= bound:
            raise InvalidInput(
                f"state.seats[{i}].score",
                f"{seat.score} reaches the {name} {bound}: the match is over (a total at the "
                f"{name} {what}), yet it is {when}",
            )


def _check_house_fields(state: game_pb2.GameState, rules: Rules) -> None:
    """Fields of a house rule are empty when it is off, and well formed when on."""
    deal = state.uno
    n = len(state.seats)
    if not (deal.finished or deal.stages or deal.silence or deal.turn_lost) and not (
        deal.HasField("silence_seat")
        or deal.HasField("slap")
        or deal.HasField("card_swap")
        or deal.HasField("ready_seat")
        or deal.HasField("reveal")
    ):
        if rules.seven_rounds:
            raise InvalidInput(f"{P}.stages", f"needs one stage per seat ({n})")
        return  # no house rule's field is in use

    def only(flag: bool, present: bool, field: str, rule: str) -> None:
        if present and not flag:
            raise InvalidInput(f"{P}.{field}", f"is {rule}'s; must be empty without it")

    only(rules.play_to_last, bool(deal.finished), "finished", "H12 (play_to_last)")
    _seat_list(deal.finished, n, f"{P}.finished")
    for i, seat in enumerate(deal.finished):
        if deal.hands[seat].cards:
            raise InvalidInput(f"{P}.finished[{i}]", f"seat {seat} finished but holds cards")
    only(rules.seven_rounds, bool(deal.stages), "stages", "H13 (seven_rounds)")
    if rules.seven_rounds:
        if len(deal.stages) != n:
            raise InvalidInput(f"{P}.stages", f"needs one stage per seat ({n})")
        for i, stage in enumerate(deal.stages):
            if not 1 <= stage <= STAGES:
                raise InvalidInput(f"{P}.stages[{i}]", f"a stage is 1 to {STAGES}; got {stage}")
    silent = rules.silent_twos or rules.silent_black
    only(silent, deal.silence, "silence", "H5 (silent_trigger)")
    only(rules.silent_twos and deal.silence, deal.HasField("silence_seat"), "silence_seat",
         "H5 TWOS silence")  # fmt: skip
    if deal.HasField("silence_seat"):
        _seat_field(deal.silence_seat, n, f"{P}.silence_seat")
    only(rules.slap, deal.HasField("slap"), "slap", "H8 (uno_in_centre)")
    only(rules.swap_five, deal.HasField("card_swap"), "card_swap", "H6 (swap_on_five)")
    only(rules.ready, deal.HasField("ready_seat"), "ready_seat", "H16 (politeness_ready)")
    if deal.HasField("ready_seat"):
        _seat_field(deal.ready_seat, n, f"{P}.ready_seat")
    only(rules.challenge_seed and rules.challenge, bool(deal.turn_lost), "turn_lost",
         "U6 SEED (a guilty challenge)")  # fmt: skip
    _seat_list(deal.turn_lost, n, f"{P}.turn_lost")
    if list(deal.turn_lost) != sorted(deal.turn_lost):
        raise InvalidInput(f"{P}.turn_lost", "must be in seat order")
    if deal.HasField("reveal"):
        reveal = deal.reveal
        _seat_field(reveal.viewer, n, f"{P}.reveal.viewer")
        _seat_field(reveal.owner, n, f"{P}.reveal.owner")
        if reveal.viewer == reveal.owner:
            raise InvalidInput(f"{P}.reveal", "a hand is revealed to another seat")
        if not rules.challenge:
            raise InvalidInput(f"{P}.reveal", "only a challenge reveals a hand (U5)")
        for i, card in enumerate(reveal.cards):
            if card not in rules.deck:
                raise InvalidInput(f"{P}.reveal.cards[{i}]", f"card {card} is not in the deck")


def _check_table(state: game_pb2.GameState, rules: Rules) -> None:
    """The discard pile and the colour (R3)."""
    deal = state.uno
    if not deal.discard:
        raise InvalidInput(f"{P}.discard", "a round in play has a card on the discard pile")
    top = deal.discard[-1]
    if deal.phase == NAME_COLOUR:
        if top != WILD or deal.colour or len(deal.discard) != 1:
            raise InvalidInput(
                f"{P}.phase", "NAME_COLOUR is the first card, a Wild, before its colour is named"
            )
        return
    if deal.colour not in COLOURS:
        raise InvalidInput(f"{P}.colour", f"must be a colour; got {deal.colour}")
    if is_coloured(top) and deal.colour != COLOUR_OF[top]:
        raise InvalidInput(
            f"{P}.colour", f"must be the colour of the top card {uno_card_text(top)}"
        )
    if deal.wd4_previous_colour not in (0, *COLOURS):
        raise InvalidInput(f"{P}.wd4_previous_colour", "must be a colour or unset")


def _check_turn(state: game_pb2.GameState, rules: Rules) -> None:
    """The seat to act, its phase, the pending effect and the drawn card."""
    deal = state.uno
    n = len(state.seats)
    current = state.current_seat
    if current in deal.finished:
        raise InvalidInput("state.current_seat", "the seat to act has left the round (H12)")
    hands = [h.cards for h in deal.hands]
    top = deal.discard[-1]
    finished = set(deal.finished)
    empty = [s for s, cards in enumerate(hands) if not cards and s not in finished]
    decided = n - len(finished) <= 1 if rules.play_to_last else bool(empty)
    if rules.play_to_last and empty:
        raise InvalidInput(f"{P}.hands[{empty[0]}]", "a seat without cards has finished (H12)")
    phase = deal.phase
    if decided and not (phase == RESPOND and deal.challengeable):
        raise InvalidInput(
            f"{P}.hands", "the round is over: only a final Wild Draw Four's answer is awaited"
        )
    if phase == DRAWN:
        if not deal.drawn_card or deal.drawn_card not in hands[current]:
            raise InvalidInput(f"{P}.drawn_card", "must be a card in the hand of the seat to act")
    elif deal.drawn_card:
        raise InvalidInput(f"{P}.drawn_card", "is set only in phase DRAWN")
    if phase == RESPOND:
        _check_pending(deal, top, rules)
    elif deal.pending_kind or deal.pending_count:
        raise InvalidInput(f"{P}.pending_kind", "is set only in phase RESPOND")
    if deal.HasField("top_player"):
        _seat_field(deal.top_player, n, f"{P}.top_player")
    if deal.challengeable:
        if phase != RESPOND or top != WILD_DRAW_FOUR or not deal.HasField("top_player"):
            raise InvalidInput(
                f"{P}.challengeable", "needs a pending Wild Draw Four on top, played by a seat"
            )
        if len(deal.discard) < 2 or deal.wd4_previous_colour not in COLOURS:
            raise InvalidInput(
                f"{P}.challengeable", "needs the card and the colour it was played on (C-UNO-8)"
            )
        if not rules.challenge:
            raise InvalidInput(f"{P}.challengeable", "challenges are off (U5)")
    if deal.jump_in_open and not deal.HasField("top_player"):
        raise InvalidInput(f"{P}.jump_in_open", "a jump-in window opens on a card a seat played")


def _check_pending(deal: pb.UnoState, top: int, rules: Rules) -> None:
    kind, count = deal.pending_kind, deal.pending_count
    tops = _PENDING_TOPS.get(kind)
    if tops is None:
        raise InvalidInput(f"{P}.pending_kind", "phase RESPOND needs a pending effect")
    if KIND_OF[top] not in tops:
        raise InvalidInput(
            f"{P}.pending_kind",
            f"a pending {pb.UnoPendingKind.Name(kind)} cannot lie under {uno_card_text(top)}",
        )
    own = _OWN_COUNT[kind]
    if rules.stacking and own:
        if not own <= count <= MOST_PENDING or count % 2:
            raise InvalidInput(
                f"{P}.pending_count", f"must be an even count from {own} to {MOST_PENDING}"
            )
    elif count != own:
        raise InvalidInput(f"{P}.pending_count", f"must be {own}; got {count}")


def _check_windows(state: game_pb2.GameState, rules: Rules) -> None:
    """The catch window, the overlays (R8, H6, H8)."""
    deal = state.uno
    n = len(state.seats)
    hands = [h.cards for h in deal.hands]
    if deal.HasField("uno_offender"):
        seat = deal.uno_offender
        _seat_field(seat, n, f"{P}.uno_offender")
        if len(hands[seat]) != 1:
            raise InvalidInput(f"{P}.uno_offender", "a seat may be caught only holding one card")
    if deal.HasField("slap"):
        window = deal.slap
        _seat_field(window.caller, n, f"{P}.slap.caller")
        _seat_list(window.slapped, n, f"{P}.slap.slapped")
        others = [s for s in range(n) if s != window.caller and s not in deal.finished]
        if window.caller in window.slapped or any(s not in others for s in window.slapped):
            raise InvalidInput(f"{P}.slap.slapped", "only the other seats in the round slap")
        if len(window.slapped) >= len(others):
            raise InvalidInput(f"{P}.slap.slapped", "the window closes with the last slap")
    if deal.HasField("card_swap"):
        swap = deal.card_swap
        _seat_field(swap.offered_by, n, f"{P}.card_swap.offered_by")
        _seat_field(swap.offered_to, n, f"{P}.card_swap.offered_to")
        if swap.offered_by == swap.offered_to:
            raise InvalidInput(f"{P}.card_swap", "an exchange is between two seats")
        if swap.card not in hands[swap.offered_by]:
            raise InvalidInput(f"{P}.card_swap.card", "must be a card of the offering seat")


def check_move_shape(move: game_pb2.Move) -> None:
    """Raise InvalidInput unless the move is one action with the fields it
    needs: a typed move has one spelling (a coloured card names no colour,
    only a 7 or 5 names an exchange, only a 5's exchange gives a card)."""
    m = move.uno
    path = "move.uno"
    action = m.WhichOneof("action")
    if action is None:
        raise InvalidInput(path, "needs one action (play, jump_in, draw, pass, accept, …)")
    if action in ("play", "jump_in"):
        play = getattr(m, action)
        here = f"{path}.{action}"
        card = play.card
        if not 1 <= card <= BLANK:
            raise InvalidInput(f"{here}.card", f"needs an UNO card; got {card}")
        if play.colour not in (0, *COLOURS):
            raise InvalidInput(f"{here}.colour", f"needs a colour; got {play.colour}")
        if is_coloured(card) and play.colour:
            raise InvalidInput(
                f"{here}.colour",
                f"only a black card names a colour; {uno_card_text(card)} does not",
            )
        number = NUMBER_OF[card]
        if play.HasField("swap_with") and number not in (5, 7):
            raise InvalidInput(
                f"{here}.swap_with", f"only a 7 or a 5 names an exchange; not {uno_card_text(card)}"
            )
        five_swap = number == 5 and play.HasField("swap_with")
        if five_swap and not 1 <= play.give <= BLANK:
            raise InvalidInput(f"{here}.give", "a 5's exchange gives a card")
        if not five_swap and play.give:
            raise InvalidInput(f"{here}.give", "only a 5's exchange gives a card")
        if play.h2o_label not in _LABELS:
            raise InvalidInput(f"{here}.h2o_label", f"needs an H2O label; got {play.h2o_label}")
    elif action == "give" and not 1 <= m.give.card <= BLANK:
        raise InvalidInput(f"{path}.give.card", f"needs an UNO card; got {m.give.card}")
    elif action == "name_colour" and m.name_colour.colour not in COLOURS:
        raise InvalidInput(f"{path}.name_colour.colour", "needs a colour")


__all__ = ["REVERSE", "SKIP", "check_move_shape", "validate"]
