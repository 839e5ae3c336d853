"""Every consistency check of a Scala 40 state and every move-shape check has
a hand-broken input that reaches it, with the field path and message it
names (issue 6 item 9; validate.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.engine import api, cards
from croupier.engine.errors import InvalidInput
from croupier.v1 import game_pb2, service_pb2

MINE = (0, "[2♠ 3♠ 4♠]")
P = "state.scala40"


def _base(table, **kw):
    layout = {"hands": {0: "K♠ 2♦ 9♥"}, "melds": [MINE, "[5♥ JK→6♥ 7♥]"]}
    layout.update(kw)
    return table.build(**layout)


def _refused(state: game_pb2.GameState, field: str, words: str) -> None:
    with pytest.raises(InvalidInput) as error:
        api.check_state(state)
    found, problem = error.value.violations[0]
    assert found == field, error.value.violations
    assert words in problem, problem


Breaker = Callable[[game_pb2.GameState], None]


def _pop_hand(s):
    del s.scala40.hands[-1]


def _dup_card(s):
    s.scala40.hands[0].cards.append(s.scala40.hands[0].cards[0])


def _big_hand(s):
    s.scala40.hands[0].cards.extend(s.scala40.stock[:12])
    del s.scala40.stock[:12]


def _team(s):
    s.seats[1].team = 2
    s.seats[2].team = 2


def _eliminated_with_cards(s):
    s.seats[2].eliminated = True


def _score(s):
    s.seats[1].score = -1


def _over_threshold(s):
    s.seats[1].score = 151


def _one_playing(s):
    for seat in (1, 2):
        s.seats[seat].eliminated = True
        s.scala40.stock.extend(s.scala40.hands[seat].cards)
        del s.scala40.hands[seat].cards[:]


def _dealer(s):
    s.scala40.dealer = 7


def _meld_id(s):
    s.scala40.melds[1].id = s.scala40.melds[0].id


def _owner(s):
    s.scala40.opened[1] = False


def _joker_as(s):
    del s.scala40.melds[1].joker_as[:]


def _bad_meld(s):
    s.scala40.melds[0].cards[2] = cards.parse_card("5S")
    s.scala40.stock.append(cards.parse_card("4S"))
    s.scala40.stock.remove(cards.parse_card("5S"))


def _phase(s):
    s.scala40.phase = 9  # type: ignore[assignment]


def _deal_over(s):
    s.scala40.phase = 3  # type: ignore[assignment]


def _draw_with_turn_fields(s):
    s.scala40.phase = 1  # type: ignore[assignment]
    s.scala40.drawn_card = cards.parse_card("KS")  # type: ignore[assignment]


def _current_out(s):
    s.seats[0].eliminated = True
    s.scala40.stock.extend(s.scala40.hands[0].cards)
    del s.scala40.hands[0].cards[:]


def _no_turn(s):
    s.scala40.turns_started[0] = 0


def _draw_no_stock(s):
    s.scala40.phase = 1  # type: ignore[assignment]
    s.scala40.discard.extend(s.scala40.stock)
    del s.scala40.stock[:]


def _empty_hand(s):
    s.scala40.stock.extend(s.scala40.hands[0].cards)
    del s.scala40.hands[0].cards[:]


def _both_draws(s):
    s.scala40.drawn_card = cards.parse_card("KS")  # type: ignore[assignment]
    s.scala40.taken_card = cards.parse_card("2D")  # type: ignore[assignment]


def _owed_without_card(s):
    s.scala40.taken_must_be_placed = True


def _opened_this_turn(s):
    s.scala40.opened[0] = False
    s.scala40.melds[0].owner = 1
    s.scala40.opened_this_turn = True


def _must_close(s):
    s.scala40.must_close = True


def _jokers_owed(s):
    s.scala40.jokers_owed = 1


def _restocks(s):
    s.scala40.restocks_without_play = 4


def _turns_at_the_top(s):
    # Fuzz, session 18: 2^32 - 1 turns begun; the next turn's count overflowed
    # (ValueError, INTERNAL over the wire).
    s.scala40.turns_started[1] = 2**32 - 1


def _drawn_elsewhere(s):
    # F6 (fuzz): a drawn card that is in another seat's hand.
    s.scala40.drawn_card = s.scala40.hands[1].cards[0]


CASES = [
    ("hands", _pop_hand, f"{P}.hands", "one entry per seat"),
    ("conservation", _dup_card, f"{P}.hands[0].cards", "appears too often"),
    ("hand size", _big_hand, f"{P}.hands[0].cards", "at most 14 cards"),
    ("team", _team, "state.seats[1].team", "must be 0"),
    ("eliminated", _eliminated_with_cards, f"{P}.hands[2].cards", "holds no cards"),
    ("score", _score, "state.seats[1].score", "a total is 0 to"),
    ("threshold", _over_threshold, "state.seats[1].score", "is below 151"),
    ("playing", _one_playing, "state.seats", "two seats still in it"),
    ("dealer", _dealer, f"{P}.dealer", "does not exist"),
    ("meld id", _meld_id, f"{P}.melds[1].id", "ids are distinct"),
    ("meld owner", _owner, f"{P}.melds[1].owner", "has opened"),
    ("joker_as", _joker_as, f"{P}.melds[1].joker_as", "one identity per joker"),
    ("meld", _bad_meld, f"{P}.melds[0].cards", "not a valid meld"),
    ("phase", _phase, f"{P}.phase", "unknown phase"),
    ("deal over", _deal_over, f"{P}.phase", "must be DEAL_OVER exactly"),
    ("turn fields", _draw_with_turn_fields, f"{P}.drawn_card", "only in phase PLAY"),
    ("current out", _current_out, "state.current_seat", "out of the match"),
    ("turns", _no_turn, f"{P}.turns_started[0]", "has begun a turn"),
    ("stock", _draw_no_stock, f"{P}.stock", "R-S40-91"),
    ("hand", _empty_hand, f"{P}.hands[0].cards", "holds a card"),
    ("both draws", _both_draws, f"{P}.taken_card", "not both"),
    ("owed", _owed_without_card, f"{P}.taken_copies", "needs its card"),
    ("opened this turn", _opened_this_turn, f"{P}.opened", "opened this turn"),
    ("must close", _must_close, f"{P}.must_close", "exactly one card"),
    ("jokers owed", _jokers_owed, f"{P}.jokers_owed", "more jokers owed"),
    ("restocks", _restocks, f"{P}.restocks_without_play", "K-S40-1"),
    ("turns overflow", _turns_at_the_top, f"{P}.turns_started[1]", "at most 2147483648"),
    ("drawn elsewhere", _drawn_elsewhere, f"{P}.drawn_card", "in the hand of the seat to act"),
]


def test_a_finished_deal_keeps_every_seat_in_the_match_below_the_threshold(table):
    # F5 (fuzz): totals set to 256 after a deal, nobody out: NextDeal must refuse.
    s = _base(table)
    s.match.phase = 2  # type: ignore[assignment]  # DEAL_OVER
    s.match.deal_points.extend([0, 0, 0])
    s.scala40.phase = 3  # type: ignore[assignment]
    for seat in s.seats:
        seat.score = 256
    _refused(s, "state.seats[0].score", "is below 151")


@pytest.mark.parametrize(("name", "breaker", "field", "words"), CASES, ids=[c[0] for c in CASES])
def test_a_broken_state_is_refused_naming_the_field(table, name, breaker, field, words):
    s = _base(table)
    breaker(s)
    _refused(s, field, words)


def test_a_turn_that_can_no_longer_be_completed_is_refused(table):
    # Fuzz, session 18: a take whose card cannot reach the table any more (a
    # card swapped between hands) passed validation, and DefaultMove raised
    # IndexError on its empty list of legal moves (INTERNAL over the wire).
    s = _base(table, hands={0: "K♠ 2♦ 9♥"})
    s.scala40.taken_card = cards.parse_card("9H")  # type: ignore[assignment]
    s.scala40.taken_must_be_placed = True
    s.scala40.taken_copies = 1
    _refused(s, f"{P}.taken_card", "the turn can no longer be completed (C-S40-1)")
    # With the 8♥ in hand the 9♥ still reaches the table (8♥ then 9♥ on
    # [5♥ JK→6♥ 7♥]): the same duty is a game, and its seat has moves.
    s = _base(table, hands={0: "K♠ 8♥ 9♥"})
    s.scala40.taken_card = cards.parse_card("9H")  # type: ignore[assignment]
    s.scala40.taken_must_be_placed = True
    s.scala40.taken_copies = 1
    api.check_state(s)
    request = service_pb2.DefaultMoveRequest(state=s, seat=0)
    default = api.default_move(request).move
    assert default.notation, default
    assert default.move.scala40.WhichOneof("action") == "lay_off", default.notation


def test_a_first_turn_with_one_card_in_play_is_refused(table):
    # R-S40-71: a seat does not close in its first turn, so one card in hand
    # in the PLAY phase of a first turn has no legal end.
    s = _base(table, hands={0: "K♠ 2♦"}, turn=1)
    s.scala40.stock.append(s.scala40.hands[0].cards.pop())
    _refused(s, f"{P}.hands[0].cards", "the turn can no longer be completed (C-S40-1)")


def test_teams_and_seats_must_agree(table):
    s = table.build(4, hands={0: "K♠ 2♦"}, options={"teams": "PAIRS"})
    s.seats.add(name="P4")
    s.scala40.hands.add()
    s.scala40.opened.append(False)
    s.scala40.turns_started.append(0)
    s.options.scala40.teams = 1  # type: ignore[assignment]
    for seat in s.seats:
        seat.team = 0
    api.check_state(s)  # five seats without teams is a table
    s.options.scala40.teams = 2  # type: ignore[assignment]
    _refused(s, "state.options.scala40.teams", "needs 4 seats")


def test_partners_share_one_score(table):
    s = table.build(4, hands={0: "K♠ 2♦"}, options={"teams": "PAIRS"})
    s.seats[2].score = 5
    _refused(s, "state.seats[2].score", "partners share one score")


def _move(**action) -> game_pb2.Move:
    move = game_pb2.Move(seat=0)
    for name, value in action.items():
        getattr(move.scala40, name).CopyFrom(value)
    return move


def _shape(table, move, field, words):
    s = _base(table)
    with pytest.raises(InvalidInput) as error:
        api.apply_move(service_pb2.ApplyMoveRequest(state=s, move=move))
    found, problem = error.value.violations[0]
    assert found == field, error.value.violations
    assert words in problem, problem


def test_a_move_needs_an_action(table):
    move = game_pb2.Move(seat=0)
    move.scala40.SetInParent()
    _shape(table, move, "move.scala40", "needs one action")


def test_malformed_melds_are_refused(table):
    from croupier.v1 import scala40_pb2 as s40

    Move = s40.Scala40Move
    empty = Move.Open()
    _shape(table, _move(open=empty), "move.scala40.open.melds", "one or more melds")
    spec = s40.Scala40MeldSpec()
    _shape(table, _move(meld=Move.Meld(meld=spec)), "move.scala40.meld.meld.cards", "needs cards")
    spec = s40.Scala40MeldSpec(cards=[99])  # type: ignore[list-item]
    _shape(table, _move(meld=Move.Meld(meld=spec)), "move.scala40.meld.meld.cards", "French")
    spec = s40.Scala40MeldSpec(cards=[1, 2, cards.RED_JOKER])
    _shape(table, _move(meld=Move.Meld(meld=spec)), "move.scala40.meld.meld.joker_as", "per joker")
    spec = s40.Scala40MeldSpec(cards=[1, 2, cards.RED_JOKER], joker_as=[cards.BLACK_JOKER])
    _shape(table, _move(meld=Move.Meld(meld=spec)), "move.scala40.meld.meld.joker_as", "suited")
    split = Move.Split(meld_id=1, parts=[s40.Scala40MeldSpec()])
    _shape(table, _move(split=split), "move.scala40.split.parts[0].cards", "needs cards")


def test_malformed_lay_offs_swaps_and_discards_are_refused(table):
    from croupier.v1 import scala40_pb2 as s40

    Move = s40.Scala40Move
    path = "move.scala40"
    lay = Move.LayOff(meld_id=1, card=0)  # type: ignore[arg-type]
    _shape(table, _move(lay_off=lay), f"{path}.lay_off.card", "French")
    lay = Move.LayOff(meld_id=1, card=1, end=7)  # type: ignore[arg-type]
    _shape(table, _move(lay_off=lay), f"{path}.lay_off.end", "unknown end")
    lay = Move.LayOff(meld_id=1, card=1, joker_as=2)  # type: ignore[arg-type]
    _shape(table, _move(lay_off=lay), f"{path}.lay_off.joker_as", "only a joker")
    lay = Move.LayOff(meld_id=1, card=cards.RED_JOKER, joker_as=cards.BLACK_JOKER)
    _shape(table, _move(lay_off=lay), f"{path}.lay_off.joker_as", "suited card")
    swap = Move.SwapJoker(meld_id=1, card=0)  # type: ignore[arg-type]
    _shape(table, _move(swap_joker=swap), f"{path}.swap_joker.card", "French")
    discard = Move.Discard(card=0)  # type: ignore[arg-type]
    _shape(table, _move(discard=discard), f"{path}.discard.card", "French")


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("draw", "ALREADY_DRAWN"),
        ("take", "ALREADY_DRAWN"),
    ],
)
def test_one_draw_per_turn(table, move, reason):
    s = _base(table)
    assert table.reason(s, getattr(table, move)(0)) == reason


def test_the_turn_begins_with_a_draw(table):
    s = _base(table, phase="DRAW")
    assert table.reason(s, table.discard(s, 0, "K♠")) == "MUST_DRAW_FIRST"


def test_rules_refusals_of_play_actions(table):
    s = _base(table)
    assert table.reason(s, table.lay(s, 0, "K♠", 9, "low")) == "NO_SUCH_MELD"
    assert table.reason(s, table.lay(s, 0, "K♠", 2)) == "LAY_OFF_DOES_NOT_FIT"  # no end named
    assert table.reason(s, table.open(s, 0, "[2♦ 3♦ 4♦]")) == "ALREADY_OPENED"
    assert table.reason(s, table.discard(s, 0, "Q♦")) == "CARD_NOT_IN_HAND"
    unopened = table.build(hands={0: "K♠ 2♦ 9♥"}, melds=["[5♥ JK→6♥ 7♥]"])
    assert table.reason(unopened, table.lay(unopened, 0, "K♠", 1, "low")) == "MUST_OPEN_FIRST"
    assert table.reason(unopened, table.meld(unopened, 0, "[2♦ 3♦ 4♦]")) == "MUST_OPEN_FIRST"
    split = table.split(s, 0, 2, "[5♥ JK→6♥ 7♥]", "[8♥ 9♥ 10♥]")
    assert table.reason(s, split) == "SPLIT_NOT_ALLOWED"


def test_an_extra_empty_meld_is_refused_even_after_its_table_was_checked(table):
    # The table cache once keyed on the melds' bytes joined together: an empty
    # meld adds no bytes, so a table with one more (empty) meld passed as the
    # table checked before, and GetView then failed on it (INTERNAL).
    state = _base(table)
    api.check_state(state)  # the table without it is remembered as good
    state.scala40.melds.add()
    _refused(state, f"{P}.melds[2].id", "ids are distinct")
    with pytest.raises(InvalidInput):
        api.get_view(service_pb2.GetViewRequest(state=state, seat=0))


def test_only_the_seat_that_has_drawn_holds_a_fourteenth_card(table):
    # R-S40-05: 13 dealt and one drawn. A 14-card hand anywhere else passed
    # once, and the seat's next draw made a 15-card state (found by make fuzz).
    state = _base(table)
    deal = state.scala40
    more = 14 - len(deal.hands[1].cards)
    deal.hands[1].cards.extend(deal.stock[:more])
    del deal.stock[:more]  # moved, not copied: the deck stays whole
    _refused(state, f"{P}.hands[1].cards", "at most 13 cards")
    deal.stock.append(deal.hands[1].cards.pop())  # 13 again: the same table passes
    api.check_state(state)


def test_the_turn_counter_stops_at_its_bound_and_every_answer_is_valid(table):
    # Fuzz, session 18 (seed 13): a count of 2^31, valid, went to 2^31 + 1 with
    # the next turn, and the answered state was refused when sent back.
    s = _base(table, hands={0: "K♠ 2♦ 9♥"})
    s.scala40.turns_started[1] = 2**31
    api.check_state(s)
    move = game_pb2.Move(seat=0)
    move.scala40.discard.card = cards.parse_card("9H")  # type: ignore[assignment]
    answer = api.apply_move(service_pb2.ApplyMoveRequest(state=s, move=move))
    assert answer.accepted, answer.rejection
    assert answer.state.current_seat == 1
    assert answer.state.scala40.turns_started[1] == 2**31
    api.check_state(answer.state)
