"""Checking and applying one UNO move, by action (RULES.md R3–R9, H1–H17).

Each handler opens with its rule and either raises IllegalMove naming it or
changes the table. `legal.py` generates the same moves independently; the
conformance suite holds the two to agreement.

Order of the checks: an open overlay (H6 exchange, H16 "Ready", H8 slap)
admits only its own moves; then the action's handler. Under U16
(misplay_penalty) a card played against the rules by a seat entitled to play
one (the seat to act, or a seat in an open H1 window) is not refused: the
card stays and its player draws 2 (H17, B33); so are false calls and catches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from croupier.engine.errors import IllegalMove, InvalidInput
from croupier.engine.uno_cards import COLOUR_OF, KIND_OF, NUMBER_OF, WILD_DRAW_FOUR, Kind
from croupier.engine.uno_cards import uno_card_text as card_text
from croupier.games.uno.effects import Pending, finish_round_after_answer, pending_of, play_card
from croupier.games.uno.rules import JUMPABLE, h2o_label_due, identical, wd4_condition_met
from croupier.games.uno.table import DRAWN, NAME_COLOUR, PLAY, RESPOND, Table
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

Why = pb.UnoRejectionReason
IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
Action = pb.UnoMove
MISPLAY_PENALTY = 2  # H17: any wrong card or false shout costs 2 cards

Handler = Callable[[Table, int, Action], None]


def apply(state: game_pb2.GameState, move: game_pb2.Move) -> Sequence[game_pb2.Event]:
    """Play `move` of an acting seat on `state` in place, or raise IllegalMove.

    The engine has already refused a move of a seat that may not act, or
    made after the deal or match ended."""
    table = Table(state)
    deal = table.deal
    rules = table.rules
    if rules.challenge:  # only a challenge reveals a hand (U5)
        deal.ClearField("reveal")  # a revealed hand is shown until the next move (R7)
    m = move.uno
    action = m.WhichOneof("action") or ""
    seat = move.seat
    if rules.overlays:
        _check_overlays(deal, action)
    _HANDLERS[action](table, seat, m)
    table.close_stale_catch()
    return table.events


def _check_overlays(deal: pb.UnoState, action: str) -> None:
    """An open overlay admits only its own moves (H6, H16, H8)."""
    if deal.HasField("card_swap"):
        _overlay(action, "give", Why.UNO_REJECTION_REASON_MUST_GIVE_A_CARD,
                 "give a card for the exchange first", "H6")  # fmt: skip
    elif deal.HasField("ready_seat"):
        _overlay(action, "ready", Why.UNO_REJECTION_REASON_MUST_SAY_READY,
                 'play waits for "Ready"', "H16")  # fmt: skip
    elif deal.HasField("slap") and action not in ("slap", "slap_time_up"):
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_SLAP_WINDOW_OPEN,
            "the slap window is open: slap, or the caller calls time",
            "H8",
        )


def _overlay(action: str, only: str, reason: int, message: str, rule: str) -> None:
    if action != only:
        raise IllegalMove(reason, message, rule)


# -- shared checks -----------------------------------------------------------------


def _hold(table: Table, seat: int, card: int, rule: str = "R4") -> None:
    if card not in table.hand(seat):
        raise IllegalMove(
            game_pb2.REJECTION_REASON_CARD_NOT_IN_HAND,
            f"{card_text(card)} is not in the hand",
            rule,
            common=True,
        )


def _holder(table: Table, seat: int, what: str) -> None:
    """Only the seat to act plays, draws, passes, accepts or challenges (R4)."""
    if seat != table.state.current_seat:
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_OUT_OF_TURN,
            f"only {table.name(table.state.current_seat)}, whose turn it is, may {what}",
            "R4",
        )


def _seat_of(table: Table, seat: int, path: str) -> None:
    if seat >= len(table.state.seats):
        raise InvalidInput(path, f"seat {seat} does not exist (the table has "
                                 f"{len(table.state.seats)})")  # fmt: skip


def _check_choices(table: Table, seat: int, play: pb.UnoMove.Play) -> bool:
    """The choices a play carries fit the position (never a misplay: a wrong
    choice is refused, RULES.md Moves): a black card names a colour except
    under H9; "UNO!" only with the second-to-last card (R8) — under U16 a
    call with another card is a false call (H17, D17): True, and the play
    goes on; a 7 names the seat to swap hands with under H3 unless it ends
    its player's round for good (C-UNO-9); a 5 may offer an exchange under
    H6 unless it is the last card."""
    rules, deal = table.rules, table.deal
    card = play.card
    kind = KIND_OF[card]
    hand = table.hand(seat)
    if kind >= Kind.WILD:
        if rules.rotation and play.colour:
            raise IllegalMove(
                Why.UNO_REJECTION_REASON_COLOUR_CHOICE_INVALID,
                "under colour_rotation the wheel picks the colour (H9): name none",
                "H9",
            )
        if not rules.rotation and not play.colour:
            raise IllegalMove(
                Why.UNO_REJECTION_REASON_COLOUR_CHOICE_INVALID,
                f"{card_text(card)} names the colour to follow",
                "R6",
            )
    false_call = play.uno and len(hand) != 2
    if false_call and not rules.misplay:
        raise _call_not_due()
    if play.h2o_label:
        stage = deal.stages[seat] if rules.seven_rounds else 1
        if not h2o_label_due(rules, len(hand), stage):
            why = "the card that wins the round" if rules.h2o else "h2o_finish_bonus (H15)"
            raise IllegalMove(
                Why.UNO_REJECTION_REASON_NOT_DUE_NOW, f"an H2O label goes only with {why}", "H15"
            )
    number = NUMBER_OF[card]
    swapping = play.HasField("swap_with")
    if rules.seven_zero and number == 7:
        due = len(hand) >= 2 or (rules.seven_rounds and deal.stages[seat] > 1)
        if due != swapping:
            why = "names the seat to swap hands with" if due else "ends the round: no exchange"
            raise IllegalMove(Why.UNO_REJECTION_REASON_SWAP_CHOICE_INVALID, f"a 7 {why} (H3)", "H3")
    elif rules.swap_five and number == 5:
        if swapping and len(hand) < 2:
            raise IllegalMove(
                Why.UNO_REJECTION_REASON_SWAP_CHOICE_INVALID,
                "the 5 is the last card: no exchange (H6)",
                "H6",
            )
        if swapping:
            rest = list(hand)
            rest.remove(card)
            if play.give not in rest:
                raise IllegalMove(
                    Why.UNO_REJECTION_REASON_SWAP_CHOICE_INVALID,
                    f"{card_text(play.give)} is not a card left in the hand to give",
                    "H6",
                )
    elif swapping:
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_SWAP_CHOICE_INVALID,
            f"{card_text(card)} offers no exchange under these options",
            "H3" if number == 7 else "H6",
        )
    if swapping:
        other = play.swap_with
        _seat_of(table, other, "move.uno.play.swap_with")
        if other == seat or not table.in_round(other):
            raise IllegalMove(
                Why.UNO_REJECTION_REASON_SWAP_CHOICE_INVALID,
                "the exchange is with another player still in the round",
                "H3" if number == 7 else "H6",
            )
    return false_call


def _false_call_with_play(table: Table, seat: int) -> None:
    """U16/H17, D17: a play or jump-in called "UNO!" with another card than the
    second-to-last costs 2 once the card has acted, unless it emptied the hand
    (the round won, or the seat finished under H12: the shout is moot)."""
    if table.hand(seat) and table.state.match.phase == IN_PROGRESS:
        _false_call(table, seat, _call_not_due())


def _wd4_allowed(table: Table, seat: int, card: int) -> None:
    """R7, U7 STRICT: a Wild Draw Four only without a card of the current colour."""
    if card != WILD_DRAW_FOUR or not table.rules.strict_wd4:
        return
    colour = table.deal.colour
    if any(COLOUR_OF[c] == colour for c in table.hand(seat)):
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_WILD_DRAW_FOUR_WITH_CURRENT_COLOUR,
            f"a Wild Draw Four may not be played holding {table.colour_words(colour)} "
            "(wd4_enforcement STRICT)",
            "U7",
        )


def _not_matching(table: Table, card: int) -> IllegalMove:
    return IllegalMove(
        Why.UNO_REJECTION_REASON_MUST_MATCH_COLOUR_OR_SYMBOL,
        f"{card_text(card)} matches neither {table.colour_words(table.deal.colour)} nor "
        f"{card_text(table.top)}",
        "R3",
    )


def _misplay(table: Table, seat: int, illegal: IllegalMove) -> None:
    """U16/H17: a wrong card stays in the hand and its player draws 2; play
    goes on as before (B33)."""
    if not table.rules.misplay:
        raise illegal
    table.emit_rule(
        pb.UNO_EVENT_KIND_MISPLAYED, seat, f"played against the rules ({illegal.message})"
    )
    table.draw(seat, MISPLAY_PENALTY)


# -- handlers --------------------------------------------------------------------------


def _play(table: Table, seat: int, m: Action) -> None:
    """R4/R6: the seat to act plays a card: a legal one (PLAY), the drawn one
    (DRAWN) or a permitted answer to the pending effect (RESPOND)."""
    _holder(table, seat, "play a card in turn (others jump in, H1)")
    deal = table.deal
    play = m.play
    card = play.card
    if deal.phase == NAME_COLOUR:
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_MUST_NAME_COLOUR,
            "name the colour of the Wild first card first",
            "U1a",
        )
    _hold(table, seat, card)
    false_call = _check_choices(table, seat, play)
    try:
        if deal.phase == RESPOND:
            _check_answer(table, seat, card)
        else:
            if deal.phase == DRAWN and card != deal.drawn_card:
                raise IllegalMove(
                    Why.UNO_REJECTION_REASON_ONLY_DRAWN_CARD_PLAYABLE,
                    f"after drawing only the drawn {card_text(deal.drawn_card)} may be played",
                    "R4",
                )
            if card not in table.rules.playable_on(table.top, deal.colour):
                raise _not_matching(table, card)
            _wd4_allowed(table, seat, card)
    except IllegalMove as illegal:
        _misplay(table, seat, illegal)  # the card stays: its call is moot (D17)
        return
    play_card(table, seat, play, pending_of(table))
    if false_call:
        _false_call_with_play(table, seat)


def _check_answer(table: Table, seat: int, card: int) -> None:
    """R6 (table 2.4, H1, H4, H11): the cards the options let answer the
    pending effect; none when the round is already over (B11, U13)."""
    deal = table.deal
    final = table.final_pending()
    answers = set() if final else table.rules.answers(deal.pending_kind, table.top, deal.colour)
    if card not in answers:
        # Say every way out: the answers these options permit, then ACCEPT
        # (and CHALLENGE): a bot or a player learns the rule from the refusal.
        ways = [f"answer with {' or '.join(sorted({card_text(c) for c in answers}))}"]
        ways = ways if answers else []
        ways.append("accept it")
        if deal.challengeable:
            ways.append("challenge")
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_NOT_A_PERMITTED_ANSWER,
            f"{card_text(card)} does not answer the pending "
            f"{'effect of the last card' if final else 'effect'}: "
            + (", ".join(ways[:-1]) + " or " + ways[-1] if len(ways) > 1 else ways[0]),
            "R6",
        )
    _wd4_allowed(table, seat, card)


def _jump_in(table: Table, seat: int, m: Action) -> None:
    """H1: a card identical to the top card, out of turn, while the window
    the top card opened is open (C-UNO-3); never the first card, a Wild Draw
    Four or a "+10"; one's own card only under H2. Under U16 an attempt the
    window does not admit is a misplay too (H17: "an illegal PLAY attempt
    (own turn or jump-in)"), as is a card not identical."""
    deal, rules = table.deal, table.rules
    play = m.jump_in
    card = play.card
    top = table.top
    why = ""
    if not rules.jump_in:
        why = "jump-ins are off (H1)"
    elif seat == table.state.current_seat:
        why = "it is this seat's turn: play the card"
    elif not table.in_round(seat):
        why = "the seat has left the round (H12)"
    if why:
        raise IllegalMove(Why.UNO_REJECTION_REASON_JUMP_IN_NOT_ALLOWED, why, "H1")
    if not deal.jump_in_open or not deal.HasField("top_player"):
        why = "no card has landed since the last turn action (C-UNO-3)"
    elif top not in JUMPABLE:
        why = f"nobody jumps in on {card_text(top)}"
    elif deal.top_player == seat and not rules.jump_own:
        why = "a player jumps in on his own card only under jump_in_own_card (H2)"
    closed = IllegalMove(Why.UNO_REJECTION_REASON_JUMP_IN_NOT_ALLOWED, why, "H1") if why else None
    if closed is not None and not rules.misplay:
        raise closed
    _hold(table, seat, card, "H1")
    false_call = _check_choices(table, seat, play)
    if closed is not None:
        _misplay(table, seat, closed)  # U16: the window does not admit it (H17)
        return
    if not identical(card, top):
        illegal = IllegalMove(
            Why.UNO_REJECTION_REASON_JUMP_IN_NOT_IDENTICAL,
            f"{card_text(card)} is not identical to {card_text(top)}",
            "H1",
        )
        _misplay(table, seat, illegal)
        return
    play_card(table, seat, play, pending_of(table), jump=True)
    if false_call:
        _false_call_with_play(table, seat)


def _draw(table: Table, seat: int, m: Action) -> None:
    """R4: draw one card when holding no legal card, or at will (U8); a legal
    drawn card may then be played (U9)."""
    _holder(table, seat, "draw")
    deal, rules = table.deal, table.rules
    _turn_phase(table, "draw")
    if not rules.voluntary_draw:
        playable = rules.playable_on(table.top, deal.colour)
        hand = table.hand(seat)
        if any(c in playable and _wd4_ok(table, seat, c) for c in hand):
            raise IllegalMove(
                Why.UNO_REJECTION_REASON_MUST_PLAY_A_LEGAL_CARD,
                "a player holding a legal card plays it (voluntary_draw off)",
                "U8",
            )
    table.close_turn_windows()
    drawn = table.draw(seat, 1)
    if not drawn or rules.play_drawn == pb.UNO_PLAY_DRAWN_NEVER:
        table.pass_turn(seat)  # nothing drawn, or U9 NEVER: public facts only
        return
    deal.phase = DRAWN  # type: ignore[assignment]
    deal.drawn_card = drawn[0]  # type: ignore[assignment]


def _wd4_ok(table: Table, seat: int, card: int) -> bool:
    try:
        _wd4_allowed(table, seat, card)
    except IllegalMove:
        return False
    return True


def _turn_phase(table: Table, what: str) -> None:
    """Draw belongs to the PLAY phase."""
    phase = table.deal.phase
    if phase == DRAWN:
        raise IllegalMove(Why.UNO_REJECTION_REASON_ALREADY_DRAWN, "one draw per turn", "R4")
    if phase == RESPOND:
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_MUST_ANSWER_PENDING_EFFECT,
            f"answer the pending effect before anything else (no {what})",
            "R6",
        )
    if phase == NAME_COLOUR:
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_MUST_NAME_COLOUR,
            "name the colour of the Wild first card first",
            "U1a",
        )


def _pass(table: Table, seat: int, m: Action) -> None:
    """R4: after drawing, keep the card and end the turn (U9 MUST: only when
    the drawn card is not legal)."""
    _holder(table, seat, "pass")
    deal, rules = table.deal, table.rules
    if deal.phase != DRAWN:
        if deal.phase == PLAY:
            raise IllegalMove(
                Why.UNO_REJECTION_REASON_MUST_DRAW_BEFORE_PASSING, "draw before passing", "R4"
            )
        _turn_phase(table, "pass")
    drawn = deal.drawn_card
    if (
        rules.play_drawn == pb.UNO_PLAY_DRAWN_MUST
        and drawn in rules.playable_on(table.top, deal.colour)
        and wd4_condition_met(drawn, table.hand(seat), deal.colour)
    ):
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_MUST_PLAY_DRAWN_CARD,
            f"the drawn {card_text(drawn)} is legal and must be played (play_drawn MUST)",
            "U9",
        )
    table.close_turn_windows(catch_too=False)
    table.pass_turn(seat)


def _accept(table: Table, seat: int, m: Action) -> None:
    """R6: the target takes the pending effect: draws its count, loses the turn."""
    _holder(table, seat, "accept")
    deal = table.deal
    if deal.phase != RESPOND:
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_NOTHING_TO_ACCEPT, "no effect is pending on this seat", "R6"
        )
    count = deal.pending_count
    table.close_turn_windows()
    if table.final_pending():
        deal.challengeable = False  # accepted: no longer challengeable (R9, C-UNO-8)
        table.draw(seat, count)
        finish_round_after_answer(table)
        return
    deal.pending_kind = 0  # type: ignore[assignment]
    deal.pending_count = 0
    table.resolve(seat, count)


def _challenge(table: Table, seat: int, m: Action) -> None:
    """R7: the target of the Wild Draw Four on top challenges it: the hand of
    its player is shown to him alone, and the outcome follows U6 (H4: the
    accumulated count)."""
    _holder(table, seat, "challenge")
    deal, rules = table.deal, table.rules
    if deal.phase != RESPOND or not deal.challengeable or not rules.challenge:
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_NOTHING_TO_CHALLENGE,
            "only the target of the Wild Draw Four on top may challenge it"
            + ("" if rules.challenge else " (challenges are off)"),
            "R7",
        )
    player = deal.top_player
    total = deal.pending_count
    final = table.final_pending()
    guilty = deal.wd4_guilty and not final
    table.close_turn_windows()
    shown = list(table.hand(player))
    deal.reveal.viewer = seat
    deal.reveal.owner = player
    deal.reveal.cards.extend(shown)  # type: ignore[arg-type]
    verdict = "guilty" if guilty else "innocent"
    table.emit_rule(
        pb.UNO_EVENT_KIND_CHALLENGED,
        seat,
        f"challenges {table.name(player)}, who is {verdict}",
        target_seat=player,
        guilty=guilty,
    )
    table.emit_rule(
        pb.UNO_EVENT_KIND_HAND_REVEALED,
        seat,
        f"sees the hand of {table.name(player)}",
        target_seat=player,
        uno_cards=shown,
        visible_to=[seat],
    )
    deal.challengeable = False
    deal.pending_kind = 0  # type: ignore[assignment]
    deal.pending_count = 0
    if not guilty:
        table.draw(seat, total + 2, penalty=not final)  # R7: the challenger draws 2 more
        if final:
            finish_round_after_answer(table)
        else:
            table.skip(seat)
        return
    if rules.challenge_seed:
        # U6 SEED: the card goes back, top and colour revert, he loses a turn.
        table.hand(player).append(deal.discard.pop())
        deal.ClearField("top_player")
        table.set_colour(deal.wd4_previous_colour, player)
        table.draw(player, total, penalty=True)
        if player not in deal.turn_lost:
            deal.turn_lost.append(player)
            deal.turn_lost.sort()
        table.emit_rule(pb.UNO_EVENT_KIND_TURN_LOST, player, "will lose the next turn")
    else:
        table.draw(player, total, penalty=True)  # U6 MATTEL: the card stays
    table.begin_turn(seat, PLAY)  # the challenger takes a normal turn (B9)


def _call_uno(table: Table, seat: int, m: Action) -> None:
    """R8, U10: a call after the card left the hand protects its caller only
    under UNTIL_CAUGHT, before anyone catches him. Otherwise it is refused,
    or under U16 a false call that costs 2 (C-UNO-11)."""
    deal, rules = table.deal, table.rules
    offender = deal.uno_offender if deal.HasField("uno_offender") else None
    if offender == seat and rules.until_caught:
        deal.ClearField("uno_offender")
        table.emit_rule(pb.UNO_EVENT_KIND_UNO_CALLED, seat, 'calls "UNO!" in time')
        return
    if offender == seat:
        illegal = IllegalMove(
            Why.UNO_REJECTION_REASON_UNO_CALL_TOO_LATE,
            '"UNO!" counts only with the card (uno_call_timing DURING_PLAY)',
            "U10",
        )
    else:
        illegal = _call_not_due()
    _false_call(table, seat, illegal)


def _call_not_due() -> IllegalMove:
    return IllegalMove(
        Why.UNO_REJECTION_REASON_UNO_CALL_NOT_DUE,
        '"UNO!" is called with the second-to-last card',
        "R8",
    )


def _false_call(table: Table, seat: int, illegal: IllegalMove) -> None:
    """U16/H17: a false shout costs 2 cards; without U16 it is refused."""
    if not table.rules.misplay:
        raise illegal
    table.emit_rule(pb.UNO_EVENT_KIND_FALSE_CALL, seat, f"called falsely ({illegal.message})")
    table.draw(seat, MISPLAY_PENALTY)


def _catch(table: Table, seat: int, m: Action) -> None:
    """R8: any other seat catches the one that played its second-to-last card
    without "UNO!", while the window is open and it holds one card."""
    deal, rules = table.deal, table.rules
    target = m.catch.seat
    _seat_of(table, target, "move.uno.catch.seat")
    if target == seat:
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_NOTHING_TO_CATCH, "a seat does not catch itself", "R8"
        )
    open_window = deal.HasField("uno_offender") and deal.uno_offender == target
    if open_window and len(table.hand(target)) == 1:
        deal.ClearField("uno_offender")
        table.emit_rule(
            pb.UNO_EVENT_KIND_UNO_CAUGHT,
            seat,
            f'catches {table.name(target)} without "UNO!"',
            target_seat=target,
        )
        table.draw(target, rules.uno_penalty, penalty=True)
        return
    illegal = IllegalMove(
        Why.UNO_REJECTION_REASON_NOTHING_TO_CATCH,
        f"{table.name(target)} may not be caught now",
        "R8",
    )
    _false_call(table, seat, illegal)


def _slap(table: Table, seat: int, m: Action) -> None:
    """H8: each other seat puts a hand on the caller's; the last draws 2."""
    deal = table.deal
    window = deal.slap
    if not deal.HasField("slap") or seat == window.caller or seat in window.slapped:
        raise IllegalMove(Why.UNO_REJECTION_REASON_SLAP_NOT_DUE, "no slap is due", "H8")
    window.slapped.append(seat)
    table.emit_rule(pb.UNO_EVENT_KIND_SLAPPED, seat, "slaps the pile")
    waiting = _not_slapped(table)
    if not waiting:
        deal.ClearField("slap")
        table.emit_rule(
            pb.UNO_EVENT_KIND_SLAP_WINDOW_CLOSED, seat, "was the last to slap", seats=[seat]
        )
        table.draw(seat, 2)


def _not_slapped(table: Table) -> list[int]:
    window = table.deal.slap
    return [s for s in table.round_seats() if s != window.caller and s not in window.slapped]


def _slap_time_up(table: Table, seat: int, m: Action) -> None:
    """H8, B22: the caller calls time; every seat that has not slapped draws 2."""
    deal = table.deal
    if not deal.HasField("slap") or seat != deal.slap.caller:
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_SLAP_NOT_DUE, "only the caller calls time (H8)", "H8"
        )
    late = _not_slapped(table)
    deal.ClearField("slap")
    names = ", ".join(table.name(s) for s in late)
    table.emit_rule(
        pb.UNO_EVENT_KIND_SLAP_WINDOW_CLOSED, seat, f"calls time on {names}", seats=late
    )
    for other in late:
        table.draw(other, 2)


def _report_silence(table: Table, seat: int, m: Action) -> None:
    """H5: a seat that broke the silence draws 2, and the silence is over."""
    deal = table.deal
    speaker = m.report_silence.seat
    _seat_of(table, speaker, "move.uno.report_silence.seat")
    if not deal.silence or speaker == seat or not table.in_round(speaker):
        raise IllegalMove(
            Why.UNO_REJECTION_REASON_NO_SILENCE,
            "no silence that seat could break" if deal.silence else "nobody keeps silence now",
            "H5",
        )
    table.emit_rule(
        pb.UNO_EVENT_KIND_SILENCE_BROKEN,
        seat,
        f"reports that {table.name(speaker)} spoke",
        target_seat=speaker,
    )
    deal.silence = False
    deal.ClearField("silence_seat")
    table.draw(speaker, 2)


def _give(table: Table, seat: int, m: Action) -> None:
    """H6: the seat offered an exchange gives a card of its choice; the two
    cards change hands (each seen by the two seats only)."""
    deal = table.deal
    if not deal.HasField("card_swap"):
        raise IllegalMove(Why.UNO_REJECTION_REASON_NOT_DUE_NOW, "no exchange is offered", "H6")
    card = m.give.card
    _hold(table, seat, card, "H6")
    swap = deal.card_swap
    giver, offered = swap.offered_by, swap.card
    table.hand(seat).remove(card)
    table.hand(giver).remove(offered)
    table.hand(seat).append(offered)
    table.hand(giver).append(card)
    deal.ClearField("card_swap")
    seen_by = sorted({giver, seat})
    for source, target, card_given in ((giver, seat, offered), (seat, giver, card)):
        table.emit_rule(
            pb.UNO_EVENT_KIND_CARDS_EXCHANGED,
            source,
            f"gives {table.name(target)} a card",
            target_seat=target,
            uno_cards=[card_given],
            visible_to=seen_by,
        )


def _name_colour(table: Table, seat: int, m: Action) -> None:
    """U1a FIRST_PLAYER_CHOOSES: the first player names the Wild's colour,
    then plays."""
    deal = table.deal
    if deal.phase != NAME_COLOUR or seat != table.state.current_seat:
        raise IllegalMove(Why.UNO_REJECTION_REASON_NOT_DUE_NOW, "there is no colour to name",
                          "U1a")  # fmt: skip
    colour = m.name_colour.colour
    deal.colour = colour  # type: ignore[assignment]
    table.emit_rule(
        pb.UNO_EVENT_KIND_COLOUR_NAMED, seat, f"names {table.colour_words(colour)}", colour
    )
    deal.phase = PLAY  # type: ignore[assignment]


def _ready(table: Table, seat: int, m: Action) -> None:
    """H16: the seat that drew the penalty is ready; play goes on."""
    deal = table.deal
    if not deal.HasField("ready_seat") or deal.ready_seat != seat:
        raise IllegalMove(Why.UNO_REJECTION_REASON_NOT_DUE_NOW, 'no "Ready" is awaited', "H16")
    deal.ClearField("ready_seat")
    table.emit_rule(pb.UNO_EVENT_KIND_READY, seat, "is ready")


_HANDLERS: dict[str, Handler] = {
    "play": _play,
    "jump_in": _jump_in,
    "draw": _draw,
    "pass": _pass,
    "accept": _accept,
    "challenge": _challenge,
    "call_uno": _call_uno,
    "catch": _catch,
    "slap": _slap,
    "slap_time_up": _slap_time_up,
    "report_silence": _report_silence,
    "give": _give,
    "name_colour": _name_colour,
    "ready": _ready,
}

__all__ = ["Pending", "apply"]
