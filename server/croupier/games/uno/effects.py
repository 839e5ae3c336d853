"""What playing a card does (R3–R6, §2.4, the house rules that act on plays).

`play_card` is the one place where a card leaves a hand for the discard
pile, whether on the seat's own turn, as the answer to a pending effect or as
a jump-in (H1: "as if the jumper had played the card on his own turn"). Its
steps, in order: the card lands and names its colour; the UNO call (R8, H8);
an emptied hand (round end R10, H12, H13); the house effects of numbers and
black cards (H3, H5, H6); then the effect on the turn (R6) — a pending effect
carried over from the card's answer (H4 stacking, H11 bounce, H1's
re-targeting, B16).
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.engine.uno_cards import COLOUR_OF, KIND_OF, NUMBER_OF, WILD_DRAW_FOUR, Kind
from croupier.engine.uno_cards import uno_card_text as card_text
from croupier.games.uno.rules import DRAW_PENDINGS, PENDING_OF, SKIP_PENDING, wheel_next
from croupier.games.uno.scoring import end_round
from croupier.games.uno.table import RESPOND, Table
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb


@dataclass(frozen=True)
class Pending:
    """A pending effect that a play answers (its target's) or supersedes (a
    jump-in's, B16): its kind and accumulated count."""

    kind: int
    count: int


def pending_of(table: Table) -> Pending | None:
    """The pending effect on the seat to act, if any."""
    deal = table.deal
    if deal.phase == RESPOND:
        return Pending(deal.pending_kind, deal.pending_count)
    return None


def play_card(
    table: Table, seat: int, play: pb.UnoMove.Play, prior: Pending | None, jump: bool = False
) -> None:
    """Play `play.card` from `seat`'s hand (already checked legal)."""
    deal, rules = table.deal, table.rules
    card = play.card
    hand = table.hand(seat)
    previous_colour = deal.colour
    kind = KIND_OF[card]
    hand.remove(card)
    if kind == Kind.WILD_DRAW_FOUR:
        # R7: guilt is judged on the hand as it was when the card was played.
        deal.wd4_guilty = any(COLOUR_OF[c] == previous_colour for c in hand)
        deal.wd4_previous_colour = previous_colour
    deal.discard.append(card)  # type: ignore[arg-type]
    deal.top_player = seat
    deal.challengeable = False
    deal.drawn_card = 0  # type: ignore[assignment]
    deal.pending_kind = 0  # type: ignore[assignment]
    deal.pending_count = 0
    table.close_turn_windows()  # a play closes both windows (C-UNO-3, C-UNO-4)
    deal.jump_in_open = True  # ... and opens the H1 window on this card

    black = kind >= Kind.WILD
    if black:
        colour = wheel_next(previous_colour, deal.reversed) if rules.rotation else play.colour
    else:
        colour = COLOUR_OF[card]
    verb = "jumps in with" if jump else "plays"
    table.emit(game_pb2.EVENT_KIND_CARD_PLAYED, seat, f"{verb} {card_text(card)}", uno_cards=[card])
    if jump:
        table.emit_rule(pb.UNO_EVENT_KIND_JUMPED_IN, seat, "jumped in out of turn")
    table.set_colour(colour, seat)
    if black:
        table.emit_rule(
            pb.UNO_EVENT_KIND_COLOUR_NAMED, seat, f"names {table.colour_words(colour)}", colour
        )

    called = False
    if len(hand) == 1:  # R8: the second-to-last card
        if play.uno:
            called = True
            table.emit_rule(pb.UNO_EVENT_KIND_UNO_CALLED, seat, 'calls "UNO!"')
        else:
            deal.uno_offender = seat
            table.emit_rule(pb.UNO_EVENT_KIND_UNO_MISSED, seat, 'did not call "UNO!"')

    for_good = False
    if not hand:
        if rules.seven_rounds and deal.stages[seat] > 1:
            # H3's exchange takes the refilled hand away at once (C-UNO-9).
            # The card still acts: a Wild Draw Four will be open to a
            # challenge, so a restock keeps the card under it (C-UNO-8).
            refill(
                table,
                seat,
                shown=not (rules.seven_zero and NUMBER_OF[card] in (0, 7)),
                wd4_on_top=kind == Kind.WILD_DRAW_FOUR and rules.challenge,
            )
        elif rules.play_to_last:
            for_good = True
            deal.finished.append(seat)
            table.emit_rule(pb.UNO_EVENT_KIND_FINISHED, seat, "has shed every card")
            if len(table.round_seats()) <= 1:
                finish_round(table, seat, card, prior)
                return
        else:
            # H15: the label of the card that won the round, scored when the
            # round ends (after the answer to a final Wild Draw Four).
            deal.finishing_label = play.h2o_label  # type: ignore[assignment]
            finish_round(table, seat, card, prior)
            return

    house_effects(table, seat, card, play, exchanges=not for_good)
    turn_effect(table, seat, card, prior)
    if called and rules.slap and len(table.round_seats()) > 1:
        deal.slap.caller = seat  # H8: the others must put a hand on his
        table.emit_rule(pb.UNO_EVENT_KIND_SLAP_WINDOW_OPENED, seat, "keeps a hand on the pile")
    table.close_stale_catch()


def refill(table: Table, seat: int, shown: bool = True, wd4_on_top: bool = False) -> None:
    """H13: emptied at stage k > 1, the seat draws k − 1 cards (not a penalty)
    and goes down to stage k − 1; then play goes on."""
    deal = table.deal
    stage = deal.stages[seat] - 1
    deal.stages[seat] = stage
    table.emit_rule(pb.UNO_EVENT_KIND_STAGE_REFILLED, seat, f"reaches stage {stage}", stage=stage)
    table.draw(seat, stage, shown=shown, wd4_on_top=wd4_on_top)


def house_effects(
    table: Table, seat: int, card: int, play: pb.UnoMove.Play, exchanges: bool = True
) -> None:
    """H3 (0 and 7), H6 (5), H5 (2 or a black card): the house rules that act
    on a played card, before the turn moves on (also on a jump-in). A card
    that ends its player's round for good (H12) makes no exchange (B18,
    C-UNO-9) but still imposes silence: H5 excepts no card."""
    rules = table.rules
    if exchanges:
        exchange(table, seat, card, play)
    if rules.silent_twos and NUMBER_OF[card] == 2:
        table.begin_silence(seat, until_seat=True)
    elif rules.silent_black and (card == WILD_DRAW_FOUR or KIND_OF[card] == Kind.WILD):
        table.begin_silence(seat, until_seat=False)


def exchange(table: Table, seat: int, card: int, play: pb.UnoMove.Play) -> None:
    """H3 (a 0 passes every hand on, a 7 swaps two hands) and H6 (a 5 offers
    a card exchange)."""
    deal, rules = table.deal, table.rules
    number = NUMBER_OF[card]
    if rules.seven_zero and number == 0:
        pass_hands(table, seat)
    elif rules.seven_zero and number == 7 and play.HasField("swap_with"):
        other = play.swap_with
        mine, theirs = list(table.hand(seat)), list(table.hand(other))
        table.hand(seat)[:] = theirs
        table.hand(other)[:] = mine
        table.emit_rule(
            pb.UNO_EVENT_KIND_HANDS_EXCHANGED,
            seat,
            f"exchanges hands with {table.name(other)}",
            target_seat=other,
        )
    elif rules.swap_five and number == 5 and play.HasField("swap_with"):
        swap = deal.card_swap
        swap.offered_by = seat
        swap.offered_to = play.swap_with
        swap.card = play.give
        table.emit_rule(
            pb.UNO_EVENT_KIND_CARD_SWAP_OFFERED,
            seat,
            f"offers {table.name(play.swap_with)} a card exchange",
            target_seat=play.swap_with,
        )


def pass_hands(table: Table, seat: int) -> None:
    """H3, a 0: every player in the round passes his whole hand to the next
    player in the direction of play."""
    seats = table.round_seats()
    hands = {s: list(table.hand(s)) for s in seats}
    for s in seats:
        table.hand(table.next_of(s))[:] = hands[s]
    table.emit_rule(pb.UNO_EVENT_KIND_HANDS_PASSED, seat, "makes every hand pass on")


def turn_effect(table: Table, seat: int, card: int, prior: Pending | None) -> None:
    """R6: the card's effect on the turn. A draw card adds the count it answers
    under H4; a Reverse answering (or jumped in on) a pending effect sends it
    on unchanged (H11, B16, B17)."""
    deal, rules = table.deal, table.rules
    kind = KIND_OF[card]
    if kind == Kind.REVERSE:
        deal.reversed = not deal.reversed
        table.emit(game_pb2.EVENT_KIND_DIRECTION_REVERSED, seat, "reverses the direction")
        target = table.next_of(seat)
        if prior is not None:
            table.emit_rule(
                pb.UNO_EVENT_KIND_BOUNCED,
                seat,
                f"sends the effect on to {table.name(target)}",
                target_seat=target,
            )
            table.impose(seat, target, prior.kind, prior.count)
        elif table.two_in_round() and rules.two_player_reverse_skip:
            table.impose(seat, target, SKIP_PENDING, 0)  # U12, C-UNO-5
        else:
            table.begin_turn(target)
        return
    effect = PENDING_OF.get(kind)
    if effect is None:
        table.begin_turn(table.next_of(seat))
        return
    pending_kind, count = effect
    if rules.stacking and prior is not None and prior.kind in DRAW_PENDINGS and count:
        count += prior.count  # H4: the counts add up
    if pending_kind == pb.UNO_PENDING_KIND_WILD_DRAW_FOUR:
        deal.challengeable = rules.challenge
    table.impose(seat, table.next_of(seat), pending_kind, count)


def finish_round(table: Table, seat: int, card: int, prior: Pending | None) -> None:
    """R10: the round ends with this card. A final draw card still makes its
    target draw (U13, B32: the whole accumulated count); a final Wild Draw
    Four waits for its target's answer when challenges are on (B11). A final
    Reverse that bounces a draw (H11, or jumped in on one, B17) sends it on
    to the seat before, which draws it (D16)."""
    deal, rules = table.deal, table.rules
    deal.silence = False
    deal.ClearField("silence_seat")
    deal.ClearField("uno_offender")
    if KIND_OF[card] == Kind.REVERSE and prior is not None and prior.count:
        if rules.final_draw:
            deal.reversed = not deal.reversed  # the bounce's direction, as turn_effect sets it
            target = table.next_of(seat)
            table.emit_rule(
                pb.UNO_EVENT_KIND_BOUNCED,
                seat,
                f"sends the effect on to {table.name(target)}",
                target_seat=target,
            )
            table.draw(target, prior.count)
        end_round(table, winner=seat)
        return
    effect = PENDING_OF.get(KIND_OF[card])
    if rules.final_draw and effect is not None and effect[1]:
        kind, count = effect
        if rules.stacking and prior is not None and prior.kind in DRAW_PENDINGS:
            count += prior.count
        target = table.next_of(seat)
        # D3: a target that lost its next turn has no turn to answer with;
        # the effect resolves at once, as if accepted (never passed on).
        waits = target not in deal.turn_lost
        if kind == pb.UNO_PENDING_KIND_WILD_DRAW_FOUR and rules.challenge and waits:
            deal.challengeable = True
            table.begin_turn(target, RESPOND)
            deal.pending_kind = kind  # type: ignore[assignment]
            deal.pending_count = count
            table.emit(
                game_pb2.EVENT_KIND_PENALTY_PENDING,
                seat,
                f"makes {table.name(target)} take {count} cards or challenge",
                target_seat=target,
                count=count,
            )
            return
        table.draw(target, count)
    end_round(table, winner=seat)


def finish_round_after_answer(table: Table) -> None:
    """The target of a final Wild Draw Four has answered it (accepted or
    challenged in vain): the round it ended is scored (B11)."""
    deal = table.deal
    end_round(table, winner=deal.top_player)
