"""The conformance suite catches planted faults.

Each fault is a stand-in for the real 101 game that delegates every hook to
it but breaks one. It is registered under the real game's name for the
test (states, options and moves carry that name in their oneofs, so a
stand-in can only play as it) and the real game is put back afterwards.
The suite runs unchanged on it and must fail with the check that names the
fault; a faithful stand-in, run the same way, passes, so each failure is
the fault's and not the stand-in mechanism's.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from conformance import suite
from conformance.suite import Case, play_checked
from croupier.engine import registry
from croupier.engine.errors import IllegalMove
from croupier.engine.registry import Game
from croupier.games.hundred_and_one.legal import action
from croupier.v1 import game_pb2

GAME = "hundred_and_one"
CASE = Case(GAME, "hd", 3)
SEED, CHOOSER_SEED = 7, 11


# The hooks of the Game protocol. A stand-in offers these and nothing else:
# a shortcut the real game may add (e.g. `encoded_legal_moves`, the hot
# path's legal moves as bytes) would otherwise go round the broken hook.
PROTOCOL = {name for name in vars(Game) if not name.startswith("_")} | set(Game.__annotations__)


class StandIn:
    """The real game in every hook of the protocol; subclasses break one."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def __getattr__(self, name: str) -> Any:
        if name not in PROTOCOL:
            raise AttributeError(name)
        return getattr(self.real, name)


class LeaksACardIntoAView(StandIn):
    """Shows each seat one card it may not see: the stock's top, else the
    first card of another seat's hand."""

    def view(self, state: game_pb2.GameState, seat: int, out: game_pb2.View) -> None:
        self.real.view(state, seat, out)
        deal = state.hundred_and_one
        others = [c for s, h in enumerate(deal.hands) if s != seat for c in h.cards]
        hidden = [*deal.stock, *others]
        if hidden:
            out.hundred_and_one.hand.append(hidden[0])


class LeaksADrawnCardInAnEvent(StandIn):
    """Makes every private event public, drawn cards included."""

    def apply(self, state: game_pb2.GameState, move: game_pb2.Move) -> list[game_pb2.Event]:
        events = self.real.apply(state, move)
        for event in events:
            del event.visible_to[:]
        return events


class MutatesItsInput(StandIn):
    """Listing the legal moves turns the seat's hand around in the caller's state."""

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        moves = self.real.legal_moves(state, seat)
        hand = state.hundred_and_one.hands[seat].cards
        if len(hand) > 1:
            hand.append(hand.pop(0))
        return moves  # type: ignore[no-any-return]


class OmitsALegalMove(StandIn):
    """Lists every legal move but the last, which its check still accepts."""

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        moves = self.real.legal_moves(state, seat)
        return moves[:-1] if len(moves) > 1 else moves  # type: ignore[no-any-return]


class ListsAnIllegalMove(StandIn):
    """Lists the first candidate move its check refuses."""

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        moves: list[game_pb2.Move] = self.real.legal_moves(state, seat)
        if not moves:
            return moves
        listed = {m.SerializeToString() for m in moves}
        extra = [
            m for m in self.real.candidate_moves(state, seat) if m.SerializeToString() not in listed
        ]
        return moves + extra[:1]


class FastPathOmitsAMove(StandIn):
    """Offers the hot path's legal moves as bytes (engine/move_codec.py), one short."""

    def encoded_legal_moves(self, state: game_pb2.GameState, seat: int) -> list[bytes]:
        moves = [move.SerializeToString() for move in self.real.legal_moves(state, seat)]
        return moves[:-1] if len(moves) > 1 else moves


class LosesACard(StandIn):
    """Every move loses a card: the stock's last, else the bottom of the discard pile."""

    def apply(self, state: game_pb2.GameState, move: game_pb2.Move) -> list[game_pb2.Event]:
        events = self.real.apply(state, move)
        deal = state.hundred_and_one
        if deal.stock:
            deal.stock.pop()
        elif len(deal.discard) > 1:
            del deal.discard[0]
        return events  # type: ignore[no-any-return]


class LosesACardOnceMidDeal(StandIn):
    """Loses the stock's last card once, on the sixth move of the match."""

    def apply(self, state: game_pb2.GameState, move: game_pb2.Move) -> list[game_pb2.Event]:
        events = self.real.apply(state, move)
        if state.move_number == 5 and state.hundred_and_one.stock:
            state.hundred_and_one.stock.pop()
        return events  # type: ignore[no-any-return]


class CitesARuleItsRulesDoNotName(StandIn):
    """Every rejection of the game's own rules cites a rule RULES.md lacks."""

    def apply(self, state: game_pb2.GameState, move: game_pb2.Move) -> list[game_pb2.Event]:
        try:
            return self.real.apply(state, move)  # type: ignore[no-any-return]
        except IllegalMove as illegal:
            illegal.rule = "C99"
            raise


class DefaultsToAnIllegalMove(StandIn):
    """A seat whose clock runs out always draws, legal or not."""

    def default_move(self, state: game_pb2.GameState, seat: int) -> game_pb2.Move:
        return action(seat, "draw")


class RemembersBetweenCalls(StandIn):
    """Cuts the stock by a count kept outside the state, so a replay of the
    same seed and moves deals other cards (randomness not from the state)."""

    def __init__(self, real: Any) -> None:
        super().__init__(real)
        self.calls = itertools.count(1)

    def apply(self, state: game_pb2.GameState, move: game_pb2.Move) -> list[game_pb2.Event]:
        events = self.real.apply(state, move)
        stock = state.hundred_and_one.stock
        if len(stock) > 1:
            cut = next(self.calls) % len(stock)
            cards = list(stock)
            del stock[:]
            stock.extend(cards[cut:] + cards[:cut])
        return events  # type: ignore[no-any-return]


@pytest.fixture
def stand_in() -> Iterator[Callable[[type[StandIn]], None]]:
    """Registers a stand-in under the real game's name; puts the real one back."""
    real = registry.find(GAME)
    assert real is not None

    def install(kind: type[StandIn]) -> None:
        registry.register(kind(real))

    yield install
    registry.register(real)
    assert registry.find(GAME) is real


def test_a_faithful_stand_in_passes(stand_in: Callable[[type[StandIn]], None]) -> None:
    stand_in(StandIn)
    final, _ = play_checked(CASE, SEED, CHOOSER_SEED, stride=1)
    assert final.match.winners


@pytest.mark.parametrize(
    ("fault", "caught_by"),
    [
        (LeaksACardIntoAView, r"^LEAK: the view of seat"),
        (LeaksADrawnCardInAnEvent, r"^LEAK: ApplyMove's event"),
        (MutatesItsInput, r"^MUTATION: list_legal_moves changed its request"),
        (OmitsALegalMove, r"^CHECK != GENERATE: .* is accepted but not listed"),
        (ListsAnIllegalMove, r"^CHECK != GENERATE: .* listed move .* is rejected"),
        (FastPathOmitsAMove, r"^FAST PATH: hundred_and_one.encoded_legal_moves disagrees"),
        (LosesACard, r"^INVALID STATE: ApplyMove of seat \d+ produced a state the engine refuses"),
        (DefaultsToAnIllegalMove, r"^DEFAULT MOVE: "),
        (CitesARuleItsRulesDoNotName, r"^RULE REFERENCE: .* cites rule 'C99'"),
        (RemembersBetweenCalls, r"^REPLAY: step \d+ gives another state"),
    ],
    ids=lambda value: value.__name__ if isinstance(value, type) else "",
)
def test_the_suite_catches_a_planted_fault(
    stand_in: Callable[[type[StandIn]], None], fault: type[StandIn], caught_by: str
) -> None:
    stand_in(fault)
    with pytest.raises(AssertionError, match=caught_by):
        play_checked(CASE, SEED, CHOOSER_SEED, stride=1)


# «Мост» reads another spelling of a move as the move (Game.canonical_move,
# engine/registry.py): its listing must hold each move in its one spelling.
MOST_CASE = Case("most", "seed", 2)


class MostStandIn(StandIn):
    """The real «Мост», its optional respelling hook included."""

    def canonical_move(self, state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
        return self.real.canonical_move(state, move)  # type: ignore[no-any-return]


class ListsAMeldInAnotherSpelling(MostStandIn):
    """Lists every meld of naturals written backwards: its check reads that
    as the meld and accepts it, but a listing holds one spelling per move."""

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        out = []
        for move in self.real.legal_moves(state, seat):
            if move.most.WhichOneof("action") == "meld" and not move.most.meld.joker_as:
                backwards = game_pb2.Move()
                backwards.CopyFrom(move)
                backwards.most.meld.cards[:] = list(move.most.meld.cards)[::-1]
                move = backwards
            out.append(move)
        return out


@pytest.fixture
def most_stand_in() -> Iterator[Callable[[type[StandIn]], None]]:
    """Registers a «Мост» stand-in under its name; puts the real one back."""
    real = registry.find(MOST_CASE.game)
    assert real is not None

    def install(kind: type[StandIn]) -> None:
        registry.register(kind(real))

    yield install
    registry.register(real)
    assert registry.find(MOST_CASE.game) is real


def test_a_listing_in_another_spelling_is_caught(
    most_stand_in: Callable[[type[StandIn]], None],
) -> None:
    most_stand_in(MostStandIn)
    play_checked(MOST_CASE, SEED, CHOOSER_SEED, stride=1)  # faithful: passes
    most_stand_in(ListsAMeldInAnotherSpelling)
    with pytest.raises(AssertionError, match=r"^CANONICAL: seat \d+'s listed move MELD .* is not"):
        play_checked(MOST_CASE, SEED, CHOOSER_SEED, stride=1)


def test_a_match_that_outlasts_its_bound_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(suite.MOVE_BOUNDS, GAME, 20)
    with pytest.raises(AssertionError, match=r"^NO WINNER within 20 moves"):
        play_checked(CASE, SEED, CHOOSER_SEED, stride=1)


def test_a_fault_in_the_unchecked_middle_of_a_deal_is_caught_at_its_end(
    stand_in: Callable[[type[StandIn]], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game checked at both ends of each deal only (CHECKED_MOVES_PER_DEAL,
    UNO's long matches) still fails on a card lost by an unchecked move: the
    state its deal's last moves start from is checked once the deal is over."""
    monkeypatch.setattr(suite, "checked_moves_per_deal", lambda game: 3)
    stand_in(StandIn)
    play_checked(CASE, SEED, CHOOSER_SEED, stride=1)  # faithful: passes
    stand_in(LosesACardOnceMidDeal)
    with pytest.raises(AssertionError, match=r"^INVALID STATE: a move played unchecked"):
        play_checked(CASE, SEED, CHOOSER_SEED, stride=1)
