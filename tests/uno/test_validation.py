"""Every refusal of an UNO state or move shape has a test that reaches it:
a valid hand-built state, one field broken, the exact field path named."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.engine.uno_cards import parse_uno_card
from croupier.games.uno.validate import check_move_shape
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

P = "state.uno"
R4, R9, W, WD4 = (parse_uno_card(t) for t in ("R4", "R9", "W", "W+4"))


def _swap_cards(state: game_pb2.GameState, a: str, b: str) -> None:
    """Put card `b` (from wherever it is) where card `a` is, and `a` there."""
    zones = [h.cards for h in state.uno.hands] + [state.uno.stock, state.uno.discard]
    ca, cb = parse_uno_card(a), parse_uno_card(b)
    za = next(z for z in zones if ca in z)
    zb = next(z for z in zones if cb in z and z is not za)
    za[list(za).index(ca)] = cb
    zb[list(zb).index(cb)] = ca


def _empty(state: game_pb2.GameState, seat: int) -> None:
    """Give a seat's cards to P3."""
    state.uno.hands[3].cards.extend(state.uno.hands[seat].cards)
    state.uno.hands[seat].ClearField("cards")


Break = Callable[[game_pb2.GameState], object]

# (name, options, break the state, the field named, words of the message)
STATE_CASES: list[tuple[str, dict, Break, str, str]] = [
    ("one hand per seat", {}, lambda s: s.uno.hands.add(), f"{P}.hands", "one hand per seat"),
    ("no teams", {}, lambda s: setattr(s.seats[1], "team", 1), "state.seats[1].team", "partner"),
    ("nobody is eliminated", {}, lambda s: setattr(s.seats[1], "eliminated", True),
     "state.seats[1].eliminated", "nobody leaves"),
    ("a card twice", {}, lambda s: s.uno.hands[1].cards.append(R9), f"{P}.hands[0].cards",
     "appears too often"),
    ("a phase", {}, lambda s: setattr(s.uno, "phase", 9), f"{P}.phase", "unknown phase"),
    ("deal over in play", {}, lambda s: setattr(s.uno, "phase", pb.UNO_PHASE_DEAL_OVER),
     f"{P}.phase", "DEAL_OVER"),
    ("a dealer", {}, lambda s: setattr(s.uno, "dealer", 7), f"{P}.dealer", "does not exist"),
    ("a round loser", {}, lambda s: setattr(s.uno, "round_loser", 7), f"{P}.round_loser",
     "does not exist"),
    ("a score", {}, lambda s: setattr(s.seats[2], "score", -1), "state.seats[2].score", "at least"),
    ("one round winner", {},
     lambda s: (setattr(s.match, "deal_number", 2), s.match.deal_winners.extend([0, 1])),
     "state.match.deal_winners", "one winner"),
    ("finished without H12", {}, lambda s: s.uno.finished.append(2), f"{P}.finished", "H12"),
    ("a finished seat holds cards", {"play_to_last": True}, lambda s: s.uno.finished.append(2),
     f"{P}.finished[0]", "holds cards"),
    ("stages without H13", {}, lambda s: s.uno.stages.extend([7] * 4), f"{P}.stages", "H13"),
    ("a stage per seat", {"seven_rounds": True}, lambda s: s.uno.stages.pop(), f"{P}.stages",
     "one stage per seat"),
    ("a stage from 1 to 7", {"seven_rounds": True}, lambda s: s.uno.stages.__setitem__(1, 8),
     f"{P}.stages[1]", "1 to 7"),
    ("silence without H5", {}, lambda s: setattr(s.uno, "silence", True), f"{P}.silence", "H5"),
    ("a silence seat only for TWOS", {"silent_trigger": "BLACK"},
     lambda s: (setattr(s.uno, "silence", True), setattr(s.uno, "silence_seat", 1)),
     f"{P}.silence_seat", "TWOS"),
    ("a slap window without H8", {}, lambda s: setattr(s.uno.slap, "caller", 1), f"{P}.slap", "H8"),
    ("an exchange without H6", {}, lambda s: setattr(s.uno.card_swap, "offered_to", 1),
     f"{P}.card_swap", "H6"),
    ("a Ready without H16", {}, lambda s: setattr(s.uno, "ready_seat", 1), f"{P}.ready_seat",
     "H16"),
    ("a lost turn without SEED challenges", {"challenge_outcome": "MATTEL"},
     lambda s: s.uno.turn_lost.append(1), f"{P}.turn_lost", "U6"),
    ("lost turns in seat order", {}, lambda s: s.uno.turn_lost.extend([2, 1]),
     f"{P}.turn_lost", "seat order"),
    ("a reveal to another seat", {},
     lambda s: (setattr(s.uno.reveal, "viewer", 1), setattr(s.uno.reveal, "owner", 1)),
     f"{P}.reveal", "another seat"),
    ("a reveal needs challenges", {"challenge_enabled": False},
     lambda s: setattr(s.uno.reveal, "owner", 1), f"{P}.reveal", "U5"),
    ("a revealed card of the deck", {},
     lambda s: (setattr(s.uno.reveal, "owner", 1), s.uno.reveal.cards.append(55)),
     f"{P}.reveal.cards[0]", "not in the deck"),
    ("a colour", {}, lambda s: setattr(s.uno, "colour", 0), f"{P}.colour", "must be a colour"),
    ("the top card's colour", {}, lambda s: setattr(s.uno, "colour", 3), f"{P}.colour",
     "colour of the top card"),
    ("a previous colour", {}, lambda s: setattr(s.uno, "wd4_previous_colour", 9),
     f"{P}.wd4_previous_colour", "colour"),
    ("name colour on a Wild first", {},
     lambda s: setattr(s.uno, "phase", pb.UNO_PHASE_NAME_COLOUR),
     f"{P}.phase", "NAME_COLOUR"),
    ("a drawn card in DRAWN", {}, lambda s: setattr(s.uno, "phase", pb.UNO_PHASE_DRAWN),
     f"{P}.drawn_card", "hand of the seat to act"),
    ("a drawn card only in DRAWN", {},
     lambda s: setattr(s.uno, "drawn_card", s.uno.hands[0].cards[0]),
     f"{P}.drawn_card", "only in phase DRAWN"),
    ("RESPOND needs a pending effect", {}, lambda s: setattr(s.uno, "phase", pb.UNO_PHASE_RESPOND),
     f"{P}.pending_kind", "needs a pending effect"),
    ("pending only in RESPOND", {}, lambda s: setattr(s.uno, "pending_count", 2),
     f"{P}.pending_kind", "only in phase RESPOND"),
    ("a pending effect under its card", {},
     lambda s: (setattr(s.uno, "phase", pb.UNO_PHASE_RESPOND),
                setattr(s.uno, "pending_kind", pb.UNO_PENDING_KIND_DRAW_TWO),
                setattr(s.uno, "pending_count", 2)),
     f"{P}.pending_kind", "cannot lie under"),
    ("a top player", {}, lambda s: setattr(s.uno, "top_player", 8), f"{P}.top_player",
     "does not exist"),
    ("challengeable needs a Wild Draw Four", {}, lambda s: setattr(s.uno, "challengeable", True),
     f"{P}.challengeable", "Wild Draw Four"),
    ("a window on a played card", {}, lambda s: setattr(s.uno, "jump_in_open", True),
     f"{P}.jump_in_open", "a seat played"),
    ("an offender holds one card", {}, lambda s: setattr(s.uno, "uno_offender", 1),
     f"{P}.uno_offender", "one card"),
    ("a seat to act in the round", {"play_to_last": True},
     lambda s: (_empty(s, 0), s.uno.finished.append(0)),
     "state.current_seat", "left the round"),
    ("an empty hand ends the round", {},
     lambda s: _empty(s, 2),
     f"{P}.hands", "the round is over"),
    ("an empty hand under H12 has finished", {"play_to_last": True},
     lambda s: _empty(s, 2),
     f"{P}.hands[2]", "finished"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "options", "breaks", "field", "words"), STATE_CASES,
                         ids=[case[0] for case in STATE_CASES])  # fmt: skip
def test_a_broken_state_is_refused_at_its_field(table, name, options, breaks, field, words):
    state = table.build(top="R4", hands={0: "R9 Y1 Y2", 1: "G1 G2"}, options=options)
    breaks(state)
    with pytest.raises(InvalidInput) as refused:
        api.check_state(state)
    path, problem = refused.value.violations[0]
    assert path == field, refused.value
    assert words in problem, problem


def _respond(table, pending, count, top="R+2", options=None):
    return table.build(top=top, hands={0: "Y1 Y2", 1: "G1"}, current=1, phase="RESPOND",
                       pending=(pending, count), top_player=0, options=options or {})  # fmt: skip


def test_pending_counts(table):
    state = table.build(top="R+2", hands={0: "Y1"}, phase="PLAY")
    state.uno.phase = pb.UNO_PHASE_RESPOND
    state.uno.pending_kind = pb.UNO_PENDING_KIND_DRAW_TWO
    state.uno.pending_count = 4
    with pytest.raises(InvalidInput, match="must be 2"):
        api.check_state(state)
    state.options.uno.stacking = True
    state.uno.pending_count = 3
    with pytest.raises(InvalidInput, match="even count"):
        api.check_state(state)


def test_challengeable_needs_the_card_under_it_and_challenges_on(table):
    state = table.build(discard="R4 W+4", colour="G", hands={0: "Y1 Y2", 1: "G1 G2"},
                        current=1, phase="RESPOND", pending=("WILD_DRAW_FOUR", 4), top_player=0,
                        challengeable=True, wd4_previous_colour=1)  # fmt: skip
    state.uno.wd4_previous_colour = 0
    with pytest.raises(InvalidInput, match="C-UNO-8"):
        api.check_state(state)
    state.uno.wd4_previous_colour = 1
    state.options.uno.challenge_enabled = False
    state.options.uno.draw2_response = 1
    with pytest.raises(InvalidInput, match="challenges are off"):
        api.check_state(state)


def test_slap_windows_and_exchanges(table):
    state = table.build(top="R4", hands={0: "Y1", 1: "G1 G2"}, options={"uno_in_centre": True})
    state.uno.slap.caller = 0
    state.uno.slap.slapped.append(0)
    with pytest.raises(InvalidInput, match="only the other seats"):
        api.check_state(state)
    del state.uno.slap.slapped[:]
    state.uno.slap.slapped.extend([1, 2, 3])
    with pytest.raises(InvalidInput, match="closes with the last slap"):
        api.check_state(state)
    state = table.build(top="R4", hands={0: "Y1 Y2", 1: "G1"}, options={"swap_on_five": True})
    state.uno.card_swap.offered_by = 1
    state.uno.card_swap.offered_to = 1
    with pytest.raises(InvalidInput, match="between two seats"):
        api.check_state(state)
    state.uno.card_swap.offered_to = 2
    state.uno.card_swap.card = R9
    with pytest.raises(InvalidInput, match="offering seat"):
        api.check_state(state)


def _move(**fields: object) -> game_pb2.Move:
    move = game_pb2.Move(seat=0)
    action = fields.pop("action", "play")
    message = getattr(move.uno, action)
    message.SetInParent()
    for name, value in fields.items():
        setattr(message, name, value)
    return move


MOVE_CASES = [
    (game_pb2.Move(seat=0, uno=pb.UnoMove()), "move.uno", "needs one action"),
    (_move(card=0), "move.uno.play.card", "needs an UNO card"),
    (_move(card=W, colour=7), "move.uno.play.colour", "needs a colour"),
    (_move(card=R4, colour=1), "move.uno.play.colour", "only a black card"),
    (_move(card=R4, swap_with=1), "move.uno.play.swap_with", "only a 7 or a 5"),
    (_move(card=parse_uno_card("R5"), swap_with=1), "move.uno.play.give", "gives a card"),
    (_move(card=parse_uno_card("R7"), swap_with=1, give=R4), "move.uno.play.give", "only a 5"),
    (_move(action="jump_in", card=99), "move.uno.jump_in.card", "needs an UNO card"),
    (_move(action="give", card=0), "move.uno.give.card", "needs an UNO card"),
    (_move(action="name_colour", colour=0), "move.uno.name_colour.colour", "needs a colour"),
]


@pytest.mark.parametrize(("move", "field", "words"), MOVE_CASES)
def test_a_malformed_move_is_refused_at_its_field(move, field, words):
    with pytest.raises(InvalidInput) as refused:
        check_move_shape(move)
    path, problem = refused.value.violations[0]
    assert path == field and words in problem


def test_a_seat_named_by_a_move_exists(table):
    state = table.build(top="R7", hands={0: "R3 G5"})
    state = table.ok(state, table.play(0, "R3"))
    with pytest.raises(InvalidInput, match="does not exist"):
        table.apply(state, table.move(2, "CATCH 9"))


def test_the_wd4_fixture_cards_exist():
    assert WD4 == 54


def test_regression_a_stacked_count_may_exceed_the_decks_draw_cards(table):
    # Found by a random-options playout: penalties drawn during a chain
    # restocked the pile and its draw cards came back; the count passed 72.
    state = table.build(top="X+10[G]", hands={0: "Y1 Y2", 1: "G1"}, current=1, phase="RESPOND",
                        pending=("PLUS_TEN", 80), top_player=0,
                        options={"plus_ten": True, "stacking": True})  # fmt: skip
    api.check_state(state)


# -- U14, U15, D11: a match in play is undecided ---------------------------------------------


def _refused_at(state, field, words):
    with pytest.raises(InvalidInput) as refused:
        api.check_state(state)
    path, problem = refused.value.violations[0]
    assert path == field, refused.value
    assert words in problem, problem


def _round_over(table, options=None, scores=None):
    """P0 sheds its last card: DEAL_OVER, the match going on."""
    state = table.build(top="R3", hands={0: "R7", 1: "Y1", 2: "Y2", 3: "Y3"},
                        scores=scores, options=options or {})  # fmt: skip
    state = table.ok(state, table.play(0, "R7"))
    assert table.match_phase(state) == "DEAL_OVER"
    return state


def test_u15_winner_collects_a_total_at_the_target_in_play_is_refused(table):
    state = table.build(top="R4", hands={0: "R6 Y1"}, scores=[0, 499, 0, 0])
    api.check_state(state)  # one below the target: the match goes on
    state.seats[1].score = 500
    _refused_at(state, "state.seats[1].score", "reaches the target 500")
    state = _round_over(table)
    state.seats[2].score = 600
    _refused_at(state, "state.seats[2].score", "waiting for its next round")


def test_b30_penalty_limit_a_total_at_the_limit_in_play_is_refused(table):
    # The audit's state: P0 at the limit goes out and every total is at the
    # limit; scoring named winners[0] of an empty list (IndexError).
    options = {"scoring_method": "PENALTY_LIMIT", "limit": 100}
    state = table.build(top="R4", hands={0: "R6", 1: "W", 2: "Y9", 3: "Y1"},
                        scores=[99, 60, 95, 99], options=options)  # fmt: skip
    state.seats[0].score = 100
    _refused_at(state, "state.seats[0].score", "reaches the limit 100")
    state = _round_over(table, options)
    state.seats[3].score = 100
    _refused_at(state, "state.seats[3].score", "the match is over")


def test_d11_lazy_more_rounds_than_lazy_rounds_in_play_is_refused(table):
    options = {"scoring_method": "LAZY", "lazy_rounds": 3}
    # The last round in progress: the match is legitimately undecided.
    state = table.build(top="R4", hands={0: "R6 Y1"}, scores=[1, 1, 0, 0], deal_number=3,
                        options=options)  # fmt: skip
    api.check_state(state)
    state.match.deal_number = 4
    _refused_at(state, "state.match.deal_number", "past its end")
    # A round over before the last: the match goes on; at the last: it is over.
    state = table.build(top="R3", hands={0: "R7", 1: "Y1", 2: "Y2", 3: "Y3"}, deal_number=2,
                        options=options)  # fmt: skip
    state = table.ok(state, table.play(0, "R7"))
    assert table.match_phase(state) == "DEAL_OVER"
    api.check_state(state)
    state.match.deal_number = 3
    _refused_at(state, "state.match.deal_number", "waiting for its next round")


def test_b30_scoring_never_raises_when_every_total_reaches_the_limit(table):
    # Validation refuses such a state; scoring itself still ends the match
    # with no winner instead of raising (MATCH_ENDED named winners[0]).
    from croupier.games.uno.scoring import end_round
    from croupier.games.uno.table import Table

    options = {"scoring_method": "PENALTY_LIMIT", "limit": 100}
    state = table.build(top="R4", hands={0: "R6", 1: "W", 2: "Y9", 3: "Y1 R4"},
                        scores=[0, 60, 95, 99], options=options)  # fmt: skip
    state.uno.discard.append(state.uno.hands[0].cards.pop())  # P0 has gone out
    state.seats[0].score = 100
    end_round(Table(state), winner=0)
    assert state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert [seat.score for seat in state.seats] == [100, 110, 104, 104]
    assert list(state.match.winners) == []


def test_h15_a_finishing_label_labels_the_card_that_emptied_top_players_hand(table):
    h15 = {"h2o_finish_bonus": True}
    state = _round_over(table, h15)
    state.uno.finishing_label = pb.UNO_H2O_LABEL_PLUS_ONE
    api.check_state(state)  # P0's R7 emptied his hand
    state.uno.finishing_label = 9
    _refused_at(state, "state.uno.finishing_label", "unknown H2O label 9")
    state = table.build(top="R4", hands={0: "R6 Y1"}, options=h15)
    state.uno.finishing_label = pb.UNO_H2O_LABEL_PLUS_ONE
    _refused_at(state, "state.uno.finishing_label", "none did")
    state = _round_over(table)
    state.uno.finishing_label = pb.UNO_H2O_LABEL_WILD_PLUS_TWO
    _refused_at(state, "state.uno.finishing_label", "needs h2o_finish_bonus (H15)")
