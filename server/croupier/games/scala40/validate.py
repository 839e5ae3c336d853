"""Is a Scala 40 state (or move) well formed? Checked before any rule runs.

Any state that passes is a game (DESIGN.md): a hand-built position is as
good as a dealt one. Each check names the field that breaks it.
"""

from __future__ import annotations

from croupier.engine.cards import BLACK_JOKER, LAST_SUITED, is_joker
from croupier.engine.conservation import check_conservation, holds_exactly
from croupier.engine.errors import InvalidInput
from croupier.engine.melds import check_card, check_lay_off_shape
from croupier.games.scala40 import completion
from croupier.games.scala40.analyser import TableFault, table_melds
from croupier.games.scala40.options import check_seats
from croupier.games.scala40.position import Position
from croupier.games.scala40.rules import DECK, MAX_TURNS, STALEMATE_RESTOCKS, rules_for
from croupier.games.scala40.table import DEAL_OVER, DRAW, PLAY
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb

P = "state.scala40"
# R-S40-05: 13 dealt, one drawn; every later action keeps a hand at or below it.
MAX_HAND = 14
# Penalties are at most 200 a seat a deal (V7 × V9); no match comes near this.
MAX_SCORE = 10**9
_DECK = list(DECK)


def validate(state: game_pb2.GameState) -> None:
    """Raise InvalidInput unless the Scala 40 part of `state` is consistent."""
    options = state.options.scala40
    deal = state.scala40
    seats = state.seats
    n = len(seats)
    check_seats(options, n, "state.options.scala40")
    for name in ("hands", "opened", "turns_started"):
        if len(getattr(deal, name)) != n:
            raise InvalidInput(f"{P}.{name}", f"needs one entry per seat ({n})")
    if n and max(deal.turns_started) > MAX_TURNS:
        i = next(i for i, turns in enumerate(deal.turns_started) if turns > MAX_TURNS)
        raise InvalidInput(
            f"{P}.turns_started[{i}]", f"at most {MAX_TURNS}: no deal lasts that many turns"
        )
    rules = rules_for(options)
    hands = [h.cards for h in deal.hands]
    # Only the seat that has drawn this turn holds the 14th card: any other
    # 14-card hand would reach 15 by the next draw, a state no move may make.
    drawn = state.current_seat if deal.phase == PLAY else -1
    for i, hand in enumerate(hands):
        limit = MAX_HAND if i == drawn else MAX_HAND - 1
        if len(hand) > limit:
            raise InvalidInput(
                f"{P}.hands[{i}].cards",
                f"a hand holds at most {limit} cards here (13, and one drawn by the seat in play)",
            )
    melds = [m.cards for m in deal.melds]
    if not holds_exactly([*hands, deal.stock, deal.discard, *melds], _DECK):
        zones = [(f"{P}.hands[{i}].cards", cards) for i, cards in enumerate(hands)]
        zones += [(f"{P}.stock", deal.stock), (f"{P}.discard", deal.discard)]
        zones += [(f"{P}.melds[{i}].cards", cards) for i, cards in enumerate(melds)]
        check_conservation(zones, _DECK, P)
    _check_seats(state, hands)
    _check_melds(state, rules)
    _check_turn(state, hands, rules)


def _check_seats(state: game_pb2.GameState, hands) -> None:  # type: ignore[no-untyped-def]
    deal, seats = state.scala40, state.seats
    in_play = state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    options = state.options.scala40
    teams = options.teams != pb.SCALA40_TEAMS_NONE
    # A seat still in an ELIMINATION match is below the threshold.
    ceiling = MAX_SCORE
    ongoing = state.match.phase != game_pb2.MATCH_PHASE_MATCH_OVER
    if ongoing and options.match_mode == pb.SCALA40_MATCH_MODE_ELIMINATION:
        ceiling = options.elimination_threshold - 1
    playing = 0
    for i, seat in enumerate(seats):
        want = 1 + i % 2 if teams else 0
        if seat.team != want:
            raise InvalidInput(f"state.seats[{i}].team", f"must be {want} (V18: alternate seats)")
        score = seat.score
        if not 0 <= score <= MAX_SCORE:
            raise InvalidInput(f"state.seats[{i}].score", f"a total is 0 to {MAX_SCORE}")
        if seat.eliminated:
            if in_play and hands[i]:
                raise InvalidInput(
                    f"{P}.hands[{i}].cards", "a seat out of the match holds no cards"
                )
            continue
        playing += 1
        if score > ceiling:
            raise InvalidInput(
                f"state.seats[{i}].score",
                f"a seat still in the match is below {options.elimination_threshold}",
            )
    if teams:
        for i, seat in enumerate(seats):
            if seat.score != seats[i % 2].score:
                raise InvalidInput(
                    f"state.seats[{i}].score", "partners share one score (the team total)"
                )
    if playing < 2 and state.match.phase != game_pb2.MATCH_PHASE_MATCH_OVER:
        raise InvalidInput("state.seats", "a match in play needs two seats still in it")
    if deal.dealer >= len(seats):
        raise InvalidInput(f"{P}.dealer", f"seat {deal.dealer} does not exist")


# Meld ids restart at 1 each deal and grow by one per meld laid or split;
# a deal lays a few hundred at most, so a counter near the top of uint32 is
# no position a game reaches (and would overflow when a meld is laid).
MAX_NEXT_MELD_ID = 2**31


def _check_melds(state: game_pb2.GameState, rules) -> None:  # type: ignore[no-untyped-def]
    deal = state.scala40
    if not 1 <= deal.next_meld_id <= MAX_NEXT_MELD_ID:
        raise InvalidInput(
            f"{P}.next_meld_id", f"is 1 to {MAX_NEXT_MELD_ID}; got {deal.next_meld_id}"
        )
    try:
        table = table_melds(deal.melds, rules.melds)
    except TableFault as fault:
        raise InvalidInput(f"{P}.melds[{fault.index}].{fault.field}", fault.problem) from None
    if table.top_id >= deal.next_meld_id:
        index = next(i for i, m in enumerate(deal.melds) if m.id >= deal.next_meld_id)
        raise InvalidInput(
            f"{P}.melds[{index}].id", "ids are distinct, from 1 and below next_meld_id"
        )
    opened, seats = deal.opened, len(state.seats)
    for owner in table.owners:
        if owner >= seats or not opened[owner]:
            index = next(i for i, m in enumerate(deal.melds) if m.owner == owner)
            raise InvalidInput(f"{P}.melds[{index}].owner", "must be a seat that has opened")


def _check_turn(state: game_pb2.GameState, hands, rules) -> None:  # type: ignore[no-untyped-def]
    deal = state.scala40
    phase = deal.phase
    in_play = state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    if phase not in (DRAW, PLAY, DEAL_OVER):
        raise InvalidInput(f"{P}.phase", f"unknown phase {phase}")
    if (phase == DEAL_OVER) == in_play:
        raise InvalidInput(
            f"{P}.phase", "must be DEAL_OVER exactly when the match phase is not in progress"
        )
    turn = ("drawn_card", "taken_card", "taken_must_be_placed", "taken_copies", "jokers_owed",
            "opened_this_turn", "must_close")  # fmt: skip
    if phase != PLAY:
        for name in turn:
            if getattr(deal, name):
                raise InvalidInput(f"{P}.{name}", "is set only in phase PLAY")
    if not in_play:
        return
    seat = state.current_seat
    if state.seats[seat].eliminated:
        raise InvalidInput("state.current_seat", "the seat to act is out of the match")
    if deal.turns_started[seat] < 1:
        raise InvalidInput(f"{P}.turns_started[{seat}]", "the seat to act has begun a turn")
    hand = hands[seat]
    if deal.restocks_without_play > STALEMATE_RESTOCKS:
        raise InvalidInput(f"{P}.restocks_without_play", f"at most {STALEMATE_RESTOCKS} (K-S40-1)")
    if phase == DRAW:
        if not deal.stock:
            raise InvalidInput(f"{P}.stock", "a turn begins with a card in the stock (R-S40-91)")
        return
    if not hand and not state.options.scala40.close_without_discard:
        raise InvalidInput(f"{P}.hands[{seat}].cards", "the seat to act holds a card")
    if deal.drawn_card and deal.taken_card:
        raise InvalidInput(f"{P}.taken_card", "a turn draws from the stock or takes, not both")
    for name in ("drawn_card", "taken_card"):
        value = getattr(deal, name)
        if not 0 <= value <= BLACK_JOKER:
            raise InvalidInput(f"{P}.{name}", f"not a card: {value}")
        # The card came to this hand this turn: it is there, or on the table
        # (laid, or set aside with a quad on the discard pile).
        if (
            value
            and value not in hand
            and value not in deal.discard
            and not any(value in m.cards for m in deal.melds)
        ):
            raise InvalidInput(f"{P}.{name}", "is in the hand of the seat to act or laid")
    if deal.taken_must_be_placed and not (deal.taken_card and deal.taken_copies):
        raise InvalidInput(
            f"{P}.taken_copies", "a taken card that must be placed needs its card and copies"
        )
    if (deal.opened_this_turn or deal.must_close) and not deal.opened[seat]:
        raise InvalidInput(f"{P}.opened", "the seat opened this turn")
    if deal.must_close and len(hand) != 1:
        raise InvalidInput(f"{P}.must_close", "closing in hand leaves exactly one card")
    if deal.jokers_owed > sum(1 for v in hand if is_joker(v)):
        raise InvalidInput(f"{P}.jokers_owed", "more jokers owed than the hand holds")
    # No dead ends (C-S40-1): every move is refused that would leave a turn
    # no legal way to end, so no game reaches one; a hand-built state must not
    # either (the seat to act always has a move). Only a card taken or a
    # joker owed, or a hand of one card, can leave a turn without an end:
    # with none of them any card may be discarded.
    if deal.taken_card or deal.jokers_owed or len(hand) < 2:
        _check_completable(state, rules)


def _check_completable(state: game_pb2.GameState, rules) -> None:  # type: ignore[no-untyped-def]
    pos = Position.read(state, rules)
    problem = completion.refusal(pos)
    if problem is None:
        return
    if pos.taken_pending:
        field = "taken_card"
    elif pos.jokers_owed:
        field = "jokers_owed"
    else:
        field = f"hands[{pos.seat}].cards"
    raise InvalidInput(
        f"{P}.{field}",
        f"the turn can no longer be completed (C-S40-1): {problem.message} ({problem.rule})",
    )


def check_move_shape(move: game_pb2.Move) -> None:
    """Raise InvalidInput unless the move is one action with the fields it needs."""
    m = move.scala40
    path = "move.scala40"
    action = m.WhichOneof("action")
    if action is None:
        raise InvalidInput(
            path,
            "needs one action: draw_stock, take_discard, open, meld, lay_off, swap_joker, "
            "split or discard",
        )
    if action == "open":
        if not m.open.melds:
            raise InvalidInput(f"{path}.open.melds", "an opening lays one or more melds")
        for i, spec in enumerate(m.open.melds):
            _check_spec(spec, f"{path}.open.melds[{i}]")
    elif action == "meld":
        _check_spec(m.meld.meld, f"{path}.meld.meld")
    elif action == "split":
        for i, spec in enumerate(m.split.parts):
            _check_spec(spec, f"{path}.split.parts[{i}]")
    elif action == "lay_off":
        lay = m.lay_off
        check_lay_off_shape(lay.card, lay.end, lay.joker_as, f"{path}.lay_off")
    elif action == "swap_joker":
        check_card(m.swap_joker.card, f"{path}.swap_joker.card")
    elif action == "discard":
        check_card(m.discard.card, f"{path}.discard.card")


def _check_spec(spec: pb.Scala40MeldSpec, path: str) -> None:
    if not spec.cards:
        raise InvalidInput(f"{path}.cards", "a meld needs cards")
    for value in spec.cards:
        check_card(value, f"{path}.cards")
    jokers = sum(1 for v in spec.cards if is_joker(v))
    if len(spec.joker_as) != jokers:
        raise InvalidInput(
            f"{path}.joker_as", f"one identity per joker in the meld ({jokers}); got "
            f"{len(spec.joker_as)}",
        )  # fmt: skip
    for value in spec.joker_as:
        if not 0 <= value <= LAST_SUITED:
            raise InvalidInput(f"{path}.joker_as", f"an identity is a suited card; got {value}")
