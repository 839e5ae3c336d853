"""An UNO deal in progress: the primitives every move is made of.

`Table` wraps one GameState (already a copy: it is changed in place) with its
compiled rules and the events the move produces. The move handlers
(`moves.py`), the card effects (`effects.py`), the deal (`deal.py`) and
scoring (`scoring.py`) are written in terms of these primitives, so each rule
of RULES.md is stated once: who is next (R5), how a turn begins (lost turns,
TWOS silence), how a pending effect waits or resolves (R6, C-UNO-1), DRAW with
RESTOCK (R9, C-UNO-8), and the side overlays of H6, H8 and H16.
"""

from __future__ import annotations

from typing import Any

from croupier.engine import rng
from croupier.engine.table import GameTable
from croupier.engine.uno_cards import colour_text
from croupier.games.uno.rules import DRAW_PENDINGS, WD4_PENDING, Rules, rules_of
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

PLAY = pb.UNO_PHASE_PLAY
DRAWN = pb.UNO_PHASE_DRAWN
RESPOND = pb.UNO_PHASE_RESPOND
NAME_COLOUR = pb.UNO_PHASE_NAME_COLOUR
DEAL_OVER = pb.UNO_PHASE_DEAL_OVER

PENDING_WORDS: dict[int, str] = {
    pb.UNO_PENDING_KIND_DRAW_TWO: "+2",
    pb.UNO_PENDING_KIND_WILD_DRAW_FOUR: "Wild Draw Four",
    pb.UNO_PENDING_KIND_PLUS_TEN: "+10",
    pb.UNO_PENDING_KIND_SKIP: "skip",
}

# H16 (C-UNO-10): a penalty of this many cards or more waits for "Ready".
READY_AFTER = 4


class Table(GameTable[pb.UnoState, Rules]):
    """One UNO deal, changed in place by the move being applied."""

    def __init__(self, state: game_pb2.GameState) -> None:
        super().__init__(state, state.uno, rules_of(state))

    # -- looking -------------------------------------------------------------

    @property
    def top(self) -> int:
        discard = self.deal.discard
        return discard[-1] if discard else 0

    @property
    def direction(self) -> int:
        return -1 if self.deal.reversed else 1

    def in_round(self, seat: int) -> bool:
        """H12: a seat that has shed its cards for good has left the rotation."""
        return seat not in self.deal.finished

    def round_seats(self) -> list[int]:
        """The seats still in the round, in seat order."""
        finished = self.deal.finished
        return [s for s in range(len(self.state.seats)) if s not in finished]

    def next_of(self, seat: int) -> int:
        """next(p) (§0.4): the first seat after `seat` in the direction of
        play that is still in the round."""
        n = len(self.state.seats)
        step = -1 if self.deal.reversed else 1
        finished = self.deal.finished
        if not finished:
            return (seat + step) % n
        probe = seat
        for _ in range(n):
            probe = (probe + step) % n
            if probe not in finished:
                return probe
        return seat

    def two_in_round(self) -> bool:
        """§2.9: two players (H12: two left in the round)."""
        return len(self.state.seats) - len(self.deal.finished) == 2

    # -- events --------------------------------------------------------------

    def emit_rule(self, kind: int, seat: int, says: str, colour: int = 0, **fields: Any) -> None:
        """An event only UNO has: EVENT_KIND_GAME_RULE with its UNO kind."""
        detail = pb.UnoEvent(kind=kind, colour=colour)  # type: ignore[arg-type]
        guilty = fields.pop("guilty", None)
        if guilty is not None:
            detail.guilty = guilty
        stage = fields.pop("stage", None)
        if stage is not None:
            detail.stage = stage
        self.emit(game_pb2.EVENT_KIND_GAME_RULE, seat, says, uno=detail, **fields)

    # -- drawing (R9, §0.5) --------------------------------------------------

    def draw(
        self,
        seat: int,
        count: int,
        penalty: bool = False,
        shown: bool = True,
        wd4_on_top: bool = False,
    ) -> list[int]:
        """DRAW(seat, count): one card at a time, restocking when the stock
        runs out; draws that find both piles empty are forfeited (B29). A
        penalty of READY_AFTER cards or more waits for "Ready" (H16). The
        event shows the drawer its cards unless they leave its hand in the
        same move (`shown` False: H13's refill before H3's exchange).
        `wd4_on_top`: the top card is a Wild Draw Four that will be open to a
        challenge once it acts (H13's refill comes first), see `restock`."""
        deal = self.deal
        stock, hand = deal.stock, self.hand(seat)
        drawn: list[int] = []
        for _ in range(count):
            if not stock:
                self.restock(seat, wd4_on_top)
                if not stock:
                    break
            drawn.append(stock[0])
            del stock[0]
        hand.extend(drawn)
        plural = "card" if len(drawn) == 1 else "cards"
        self.emit(
            game_pb2.EVENT_KIND_CARDS_DRAWN,
            seat,
            f"draws {len(drawn)} {plural}",
            count=len(drawn),
            uno_cards=drawn if shown else [],
            visible_to=[seat],
        )
        if penalty and count >= READY_AFTER and self.rules.ready:
            self.await_ready(seat)
        return drawn

    def restock(self, seat: int, wd4_on_top: bool = False) -> None:
        """RESTOCK (R9): every discard but the top is shuffled into the stock;
        the card under a Wild Draw Four that may still be challenged (or, with
        `wd4_on_top`, will be) stays, so that a guilty revert can restore it
        (C-UNO-8)."""
        deal = self.deal
        keep = 2 if deal.challengeable or wd4_on_top else 1
        if len(deal.discard) <= keep:
            return
        cards = list(deal.discard[:-keep])
        del deal.discard[:-keep]
        rng.shuffle(self.state, cards)
        deal.stock.extend(cards)
        self.emit(
            game_pb2.EVENT_KIND_STOCK_RESTOCKED,
            seat,
            f"shuffles the discards into a new stock ({len(cards)} cards)",
            count=len(cards),
        )

    # -- turns (R5) ------------------------------------------------------------

    def begin_turn(self, seat: int, phase: int = PLAY) -> None:
        """Give `seat` a turn, unless it lost it (U6 SEED), in which case the
        one after it gets it (R5); a TWOS silence ends when its seat's turn
        begins (C-UNO-10)."""
        deal = self.deal
        for _ in range(len(self.state.seats) + 1):
            self.turn_reached(seat)
            if seat not in deal.turn_lost:
                break
            self.lose_turn(seat)
            seat = self.next_of(seat)
        self.state.current_seat = seat
        deal.phase = phase  # type: ignore[assignment]
        deal.drawn_card = 0  # type: ignore[assignment]
        if phase != RESPOND:
            deal.pending_kind = 0  # type: ignore[assignment]
            deal.pending_count = 0

    def turn_reached(self, seat: int) -> None:
        """A turn of `seat` begins or is consumed: a TWOS silence kept until
        it ends (H5, C-UNO-10)."""
        deal = self.deal
        if deal.silence and deal.HasField("silence_seat") and deal.silence_seat == seat:
            self.end_silence(seat)

    def lose_turn(self, seat: int) -> None:
        """The turn a guilty challenge took away is consumed (U6 SEED)."""
        marks = self.deal.turn_lost
        marks.remove(seat)
        self.emit(game_pb2.EVENT_KIND_TURN_SKIPPED, seat, "loses this turn")

    def skip(self, seat: int) -> None:
        """`seat` is skipped: its turn is consumed (a lost turn with it) and
        the next seat plays."""
        self.turn_reached(seat)
        if seat in self.deal.turn_lost:
            self.deal.turn_lost.remove(seat)
        self.emit(game_pb2.EVENT_KIND_TURN_SKIPPED, seat, "is skipped")
        self.begin_turn(self.next_of(seat))

    def pass_turn(self, seat: int) -> None:
        self.emit(game_pb2.EVENT_KIND_PASSED, seat, "passes")
        self.begin_turn(self.next_of(seat))

    # -- pending effects (R6, C-UNO-1) -----------------------------------------

    def impose(self, source: int, target: int, kind: int, count: int) -> None:
        """A pending effect {target, count, skip} played by `source`. It waits
        for the target's answer when the options give its kind one
        (C-UNO-1) and the target has a turn to answer with (a lost turn is
        consumed by it instead); otherwise it resolves at once."""
        deal = self.deal
        words = PENDING_WORDS[kind]
        if self.rules.waits[kind] and target not in deal.turn_lost:
            self.begin_turn(target, RESPOND)
            deal.pending_kind = kind  # type: ignore[assignment]
            deal.pending_count = count
            says = f"makes {self.name(target)} answer a {words}"
            if count:
                says += f" of {count} cards"
            self.emit(
                game_pb2.EVENT_KIND_PENALTY_PENDING,
                source,
                says,
                target_seat=target,
                count=count,
            )
            return
        self.resolve(target, count)

    def resolve(self, target: int, count: int) -> None:
        """ACCEPT, or an effect without answer: draw the count and be skipped.
        The Wild Draw Four can no longer be challenged, so a restock during
        the draw keeps only the top card (R9, C-UNO-8)."""
        self.deal.challengeable = False
        if count:
            self.draw(target, count, penalty=True)
        self.skip(target)

    # -- windows and overlays ----------------------------------------------------

    def close_turn_windows(self, catch_too: bool = True) -> None:
        """A turn action was made: the H1 window closes (C-UNO-3) and, unless
        the action was a pass, the catch window too (C-UNO-4)."""
        deal = self.deal
        deal.jump_in_open = False
        if catch_too:
            deal.ClearField("uno_offender")

    def await_ready(self, seat: int) -> None:
        """H16: play waits for `seat`'s "Ready"."""
        self.deal.ready_seat = seat
        self.emit_rule(pb.UNO_EVENT_KIND_READY_AWAITED, seat, "sorts the new cards")

    def set_colour(self, colour: int, seat: int) -> None:
        """The current colour becomes `colour`; a BLACK silence ends when it
        changes (H5, C-UNO-10)."""
        deal = self.deal
        if colour != deal.colour and deal.silence and not deal.HasField("silence_seat"):
            deal.colour = colour  # type: ignore[assignment]
            self.end_silence(seat)
        deal.colour = colour  # type: ignore[assignment]

    def begin_silence(self, seat: int, until_seat: bool) -> None:
        """H5: silence from now (TWOS: until `seat`'s next turn begins)."""
        deal = self.deal
        deal.silence = True
        if until_seat:
            deal.silence_seat = seat
        else:
            deal.ClearField("silence_seat")
        self.emit_rule(pb.UNO_EVENT_KIND_SILENCE_BEGAN, seat, "imposes silence")

    def end_silence(self, seat: int) -> None:
        deal = self.deal
        deal.silence = False
        deal.ClearField("silence_seat")
        self.emit_rule(pb.UNO_EVENT_KIND_SILENCE_ENDED, seat, "ends the silence")

    def close_stale_catch(self) -> None:
        """A catch window closes when its seat no longer holds exactly one card
        (a public fact: hand sizes are public)."""
        deal = self.deal
        if deal.HasField("uno_offender") and len(self.hand(deal.uno_offender)) != 1:
            deal.ClearField("uno_offender")

    def colour_words(self, colour: int) -> str:
        return {1: "red", 2: "yellow", 3: "green", 4: "blue"}.get(colour, colour_text(colour))

    def final_pending(self) -> bool:
        """The pending effect is that of a card that ended the round (U13)."""
        return self.deal.phase == RESPOND and self.round_decided()

    def round_decided(self) -> bool:
        """The round is over but for a final effect's answer: a hand is empty
        (H13 refills one at once), or under H12 one seat is left."""
        if self.rules.play_to_last:
            return len(self.state.seats) - len(self.deal.finished) <= 1
        return any(not hand.cards for hand in self.deal.hands)

    def pending_is_draw(self) -> bool:
        return self.deal.pending_kind in DRAW_PENDINGS

    def pending_is_wd4(self) -> bool:
        return self.deal.pending_kind == WD4_PENDING
