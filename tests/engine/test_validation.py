"""Every refusal of the engine's front door, each reached by a hand-broken input.

The engine checks the envelope every game shares (`api.check_state`), a
move's seat and kind (`_check_move`), the gates before any rule (`_gate`),
the requests of NewGame and the option catalogue (`engine/options.py`). Each
case below starts from a real deal (or a valid request), breaks one thing,
and names the field path and the message the refusal must carry. The 101
part of a state is broken in tests/hundred_and_one/test_validation.py.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.engine import api, registry
from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.engine.options import BOOL, Catalogue, OptionSpec
from croupier.games.hundred_and_one.options import SPECS
from croupier.v1 import game_pb2, hundred_and_one_pb2, options_pb2, service_pb2

GAME = "hundred_and_one"
State = game_pb2.GameState
IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
DEAL_OVER = game_pb2.MATCH_PHASE_DEAL_OVER
MATCH_OVER = game_pb2.MATCH_PHASE_MATCH_OVER


def dealt(preset: str = "hd", seats: int = 3, seed: int = 1) -> State:
    request = service_pb2.NewGameRequest(game=GAME, preset=preset, seat_count=seats, seed=seed)
    return api.new_game(request).state


def refusal(call: Callable[[], object]) -> tuple[str, str]:
    """The (field path, message) of the first violation `call` raises."""
    with pytest.raises(InvalidInput) as caught:
        call()
    return caught.value.violations[0]


def first_legal(state: State) -> game_pb2.Move:
    seat = state.acting_seats[0]
    request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
    return api.list_legal_moves(request).moves[0].move


def apply(state: State, move: game_pb2.Move) -> service_pb2.ApplyMoveResponse:
    return api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))


def deal_over(state: State) -> State:
    """`state` with its deal ended by hand: a consistent DEAL_OVER record."""
    state.match.phase = DEAL_OVER
    state.match.deal_winners.append(state.current_seat)
    state.hundred_and_one.phase = hundred_and_one_pb2.HUNDRED_AND_ONE_PHASE_DEAL_OVER
    del state.acting_seats[:]
    return state


def match_over(state: State) -> State:
    deal_over(state)
    state.match.phase = MATCH_OVER
    state.match.winners.append(state.current_seat)
    return state


# -- check_state: the envelope ---------------------------------------------------------


def _schema_0(s: State) -> None:
    s.schema_version = 0


def _unknown_game(s: State) -> None:
    s.game = "chess"


def _rules_version_0(s: State) -> None:
    s.rules_version = 0


def _no_options(s: State) -> None:
    s.ClearField("options")


def _option_out_of_range(s: State) -> None:
    s.options.hundred_and_one.deck_size = 40


def _option_enum_unknown(s: State) -> None:
    s.options.hundred_and_one.effects = 9  # type: ignore[assignment]


def _option_dependency(s: State) -> None:
    s.options.hundred_and_one.fives_active = True  # a 36-card deck has no fives


def _one_seat(s: State) -> None:
    del s.seats[1:]


def _current_seat_missing(s: State) -> None:
    s.current_seat = 7


def _match_phase_unset(s: State) -> None:
    s.match.phase = game_pb2.MATCH_PHASE_UNSPECIFIED


def _deal_number_0(s: State) -> None:
    s.match.deal_number = 0


def _deal_points_short(s: State) -> None:
    s.match.deal_number = 2
    s.match.deal_points.extend([1, 2])


def _deal_points_before_any_deal(s: State) -> None:
    s.match.deal_points.extend([0, 5, 7])


def _deal_winner_seat_99(s: State) -> None:
    s.match.deal_number = 2
    s.match.deal_winners.append(99)


def _deal_winner_twice(s: State) -> None:
    s.match.deal_number = 2
    s.match.deal_winners.extend([1, 1])


def _deal_winner_before_any_deal(s: State) -> None:
    s.match.deal_winners.append(1)


def _winner_seat_5(s: State) -> None:
    match_over(s)
    s.match.winners[0] = 5


def _winner_twice(s: State) -> None:
    match_over(s)
    s.match.winners.append(s.match.winners[0])


def _winners_while_playing(s: State) -> None:
    s.match.winners.append(0)


def _match_over_without_winners(s: State) -> None:
    match_over(s)
    del s.match.winners[:]


def _team_without_partner(s: State) -> None:
    s.seats[0].team = 3


def _game_state_missing(s: State) -> None:
    s.ClearField("hundred_and_one")


def _acting_seats_too_many(s: State) -> None:
    s.acting_seats.extend([0, 1, 2])


def _acting_seats_wrong(s: State) -> None:
    s.acting_seats[0] = (s.acting_seats[0] + 1) % 3


BROKEN_ENVELOPES = [
    ("schema_version_0", _schema_0, "state.schema_version", "missing (0)"),
    ("unknown_game", _unknown_game, "state.game", "unknown game 'chess'"),
    ("rules_version_0", _rules_version_0, "state.rules_version", "missing (0)"),
    ("options_of_no_game", _no_options, "state.options", "must hold hundred_and_one options"),
    (
        "option_out_of_range", _option_out_of_range, "state.options.hundred_and_one.deck_size",
        "option deck_size must be one of 36, 52; got 40",
    ),
    (
        "option_enum_unknown", _option_enum_unknown, "state.options.hundred_and_one.effects",
        "option effects must be one of HD, CL, RU; got '#9'",
    ),
    (
        "option_dependency", _option_dependency, "state.options.hundred_and_one.fives_active",
        "needs deck_size 52",
    ),
    ("one_seat", _one_seat, "state.seats", "hundred_and_one seats 2 to 8; got 1"),
    ("current_seat_missing", _current_seat_missing, "state.current_seat", "seat 7 does not exist"),
    ("match_phase_unset", _match_phase_unset, "state.match.phase", "must be set"),
    (
        "deal_number_0", _deal_number_0, "state.match.deal_number",
        "missing (0): the first deal is 1",
    ),
    (
        "deal_points_short", _deal_points_short, "state.match.deal_points",
        "give none or one per seat (3); got 2",
    ),
    (
        "deal_points_before_any_deal", _deal_points_before_any_deal, "state.match.deal_points",
        "no deal has ended yet: must be empty",
    ),
    (
        "deal_winner_seat_99", _deal_winner_seat_99, "state.match.deal_winners[0]",
        "seat 99 does not exist (the table has 3)",
    ),
    (
        "deal_winner_twice", _deal_winner_twice, "state.match.deal_winners[1]",
        "names seat 1 twice",
    ),
    (
        "deal_winner_before_any_deal", _deal_winner_before_any_deal, "state.match.deal_winners",
        "no deal has ended yet: must be empty",
    ),
    (
        "winner_seat_5", _winner_seat_5, "state.match.winners[0]",
        "seat 5 does not exist (the table has 3)",
    ),
    ("winner_twice", _winner_twice, "state.match.winners[1]", "twice"),
    (
        "winners_while_playing", _winners_while_playing, "state.match.winners",
        "the match is not over: must be empty",
    ),
    (
        "match_over_without_winners", _match_over_without_winners, "state.match.winners",
        "a match that is over names its winners",
    ),
    ("team_without_partner", _team_without_partner, "state.seats[0].team", "team 3 has no partner"),
    (
        "game_state_missing", _game_state_missing, "state",
        "the hundred_and_one game state is missing",
    ),
    (
        "acting_seats_too_many", _acting_seats_too_many, "state.acting_seats",
        "lists 4 seats; the table has 3",
    ),
    ("acting_seats_wrong", _acting_seats_wrong, "state.acting_seats", "in this position; got"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("breaker", "path", "message"),
    [case[1:] for case in BROKEN_ENVELOPES],
    ids=[case[0] for case in BROKEN_ENVELOPES],
)
def test_a_broken_envelope_is_refused_naming_its_field(breaker, path, message) -> None:
    state = dealt()
    breaker(state)
    field, problem = refusal(lambda: api.check_state(state))
    assert field == path
    assert message in problem


def test_an_empty_state_is_refused_as_missing() -> None:
    assert refusal(lambda: api.check_state(State())) == ("state", "missing or empty game state")


def test_a_state_from_a_newer_schema_or_rules_version_is_a_failed_precondition() -> None:
    newer_schema = dealt()
    newer_schema.schema_version = api.SCHEMA_VERSION + 1
    with pytest.raises(FailedPrecondition, match="schema_version 3 is newer"):
        api.check_state(newer_schema)
    newer_rules = dealt()
    newer_rules.rules_version = 99
    with pytest.raises(FailedPrecondition, match="rules_version 99 is newer"):
        api.check_state(newer_rules)


def test_a_move_on_an_older_rules_version_is_answered_at_this_servers_version() -> None:
    # The answer was played by this server's rules: its state says so, as it
    # says this server's schema version. The older state is still served.
    older = dealt()
    current = older.rules_version
    older.rules_version = 1
    seat = older.acting_seats[0]
    move = api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=older, seat=seat)).moves[0]
    answer = api.apply_move(service_pb2.ApplyMoveRequest(state=older, move=move.move))
    assert answer.accepted
    assert (answer.state.rules_version, answer.state.schema_version) == (
        current,
        api.SCHEMA_VERSION,
    )
    assert older.rules_version == 1  # the request itself is not changed


def _relabelled(state: State, game: str) -> State:
    """`state` (a 101 deal) claiming to be a game of `game`, its parts untouched."""
    state.game = game
    return state


def test_a_state_whose_parts_disagree_on_its_game_is_malformed_whatever_its_version() -> None:
    # A 101 state relabelled "uno" (at 101's rules version 4, above UNO's 2)
    # was FAILED_PRECONDITION "uno rules_version 4 is newer than this
    # server's 2": the version was checked before the parts' agreement.
    uno = registry.find("uno")
    assert uno is not None
    state = _relabelled(dealt(), "uno")
    state.rules_version = uno.rules_version + 1  # newer than UNO's: still malformed first
    assert refusal(lambda: api.check_state(state)) == (
        "state.options",
        "must hold uno options, the state's game; got hundred_and_one options",
    )
    move = first_legal(dealt())
    assert refusal(lambda: apply(state, move))[0] == "state.options"
    # Options of the named game, but another game's state.
    state.options.uno.SetInParent()
    assert refusal(lambda: api.check_state(state)) == (
        "state.hundred_and_one",
        "a hundred_and_one game state, but the state is a uno game",
    )
    # Both of the named game's, but none of its game state.
    state.ClearField("hundred_and_one")
    assert refusal(lambda: api.check_state(state)) == ("state", "the uno game state is missing")


def test_only_a_consistent_state_of_a_newer_rules_version_is_a_failed_precondition() -> None:
    state = dealt()
    state.rules_version = 99
    with pytest.raises(FailedPrecondition, match="hundred_and_one rules_version 99 is newer"):
        api.check_state(state)
    state.ClearField("hundred_and_one")
    assert refusal(lambda: api.check_state(state)) == (
        "state",
        "the hundred_and_one game state is missing",
    )


def test_a_partnership_passes_the_envelope_and_meets_the_games_own_rule() -> None:
    # Two seats share team 1: the envelope accepts it; 101 has no partnerships.
    state = dealt()
    state.seats[0].team = state.seats[1].team = 1
    assert refusal(lambda: api.check_state(state)) == (
        "state.seats[0].team",
        "101 has no partnerships: must be 0; got 1",
    )


def test_a_schema_1_state_has_its_acting_seats_computed() -> None:
    state = dealt()
    acting = list(state.acting_seats)
    state.schema_version = 1
    del state.acting_seats[:]
    api.check_state(state)
    assert api.acting_seats(state) == acting


def test_an_older_rules_versions_acting_seats_are_computed_not_checked() -> None:
    # Its moves are played by this server's rules, which may let other seats
    # act than its own version's did (UNO 5 under U16): its list is not held
    # to these rules but computed by them, everywhere a seat's turn matters.
    state = dealt()
    acting = list(state.acting_seats)
    other = (acting[0] + 1) % len(state.seats)
    state.acting_seats[:] = [other]
    with pytest.raises(InvalidInput, match="acting_seats"):
        api.check_state(state)  # this version's own list must be right
    state.rules_version -= 1
    api.check_state(state)
    assert api.acting_seats(state) == acting
    listed = api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=state, seat=acting[0]))
    assert listed.moves
    idle = api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=state, seat=other))
    assert not idle.moves
    view = api.get_view(service_pb2.GetViewRequest(state=state, seat=other)).view
    assert list(view.acting_seats) == acting
    move = listed.moves[0].move
    answer = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))
    assert answer.accepted and answer.state.rules_version == state.rules_version + 1
    wrong = game_pb2.Move()
    wrong.CopyFrom(move)
    wrong.seat = other
    refused = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=wrong))
    assert refused.rejection.reason == game_pb2.REJECTION_REASON_NOT_YOUR_TURN
    assert list(state.acting_seats) == [other]  # the request's state is left as it was


# -- the move: seat, kind, shape ------------------------------------------------------


def test_a_move_of_a_seat_that_does_not_exist_is_refused() -> None:
    state = dealt()
    move = first_legal(state)
    move.seat = 3
    field, problem = refusal(lambda: apply(state, move))
    assert (field, problem) == ("move.seat", "seat 3 does not exist (the table has 3)")


def test_an_empty_move_is_refused() -> None:
    state = dealt()
    field, problem = refusal(lambda: apply(state, game_pb2.Move(seat=state.current_seat)))
    assert (field, problem) == ("move", "missing or empty move")


def test_a_move_for_another_game_is_refused() -> None:
    kinds = game_pb2.Move.DESCRIPTOR.oneofs_by_name["game_move"].fields
    other = next((f.name for f in kinds if f.name != GAME), None)
    if other is None:
        pytest.skip("only one game's moves in the contract")
    state = dealt()
    move = game_pb2.Move(seat=state.current_seat)
    getattr(move, other).SetInParent()
    field, problem = refusal(lambda: apply(state, move))
    assert field == f"move.{other}"
    assert problem == f"a {other} move, but the state is a {GAME} game"


# -- the gates every game shares (answers, not errors) ----------------------------------


def _rejection(response: service_pb2.ApplyMoveResponse) -> tuple[str, str]:
    assert not response.accepted
    assert response.rejection.rule == "engine"
    return api.rejection_name(response.rejection), response.rejection.message


def test_gate_match_over() -> None:
    state = dealt()
    move = first_legal(state)
    match_over(state)
    assert _rejection(apply(state, move)) == ("REJECTION_REASON_MATCH_OVER", "the match is over")


def test_gate_deal_over() -> None:
    state = dealt()
    move = first_legal(state)
    deal_over(state)
    assert _rejection(apply(state, move)) == (
        "REJECTION_REASON_DEAL_OVER",
        "the deal is over: call NextDeal",
    )


def test_gate_stale_state() -> None:
    state = dealt()
    move = first_legal(state)
    move.seen_move_number = state.move_number + 1
    assert _rejection(apply(state, move)) == (
        "REJECTION_REASON_STALE_STATE",
        f"the move was made at move {state.move_number + 1}; the table is at move "
        f"{state.move_number}",
    )


def test_gate_not_your_turn() -> None:
    state = dealt()
    move = first_legal(state)
    move.seat = (state.current_seat + 1) % 3
    reason, message = _rejection(apply(state, move))
    assert reason == "REJECTION_REASON_NOT_YOUR_TURN"
    assert message == f"seat {move.seat} may not act now (acting: seat {state.current_seat})"


# -- the other calls' own refusals -----------------------------------------------------


def test_list_legal_moves_of_a_seat_that_does_not_exist() -> None:
    state = dealt()
    request = service_pb2.ListLegalMovesRequest(state=state, seat=9)
    assert refusal(lambda: api.list_legal_moves(request)) == (
        "seat",
        "seat 9 does not exist (the table has 3)",
    )


def test_get_view_of_a_seat_that_does_not_exist() -> None:
    request = service_pb2.GetViewRequest(state=dealt(), seat=3)
    assert refusal(lambda: api.get_view(request))[0] == "seat"


def test_default_move_refusals() -> None:
    state = dealt()
    other = (state.current_seat + 1) % 3
    request = service_pb2.DefaultMoveRequest(state=state, seat=9)
    assert refusal(lambda: api.default_move(request))[0] == "seat"
    request = service_pb2.DefaultMoveRequest(state=state, seat=other)
    assert refusal(lambda: api.default_move(request)) == ("seat", f"seat {other} may not act now")
    request = service_pb2.DefaultMoveRequest(state=deal_over(dealt()), seat=0)
    with pytest.raises(FailedPrecondition, match="the deal is over"):
        api.default_move(request)


def test_next_deal_refusals() -> None:
    with pytest.raises(FailedPrecondition, match="the deal is still in progress"):
        api.next_deal(service_pb2.NextDealRequest(state=dealt()))
    with pytest.raises(FailedPrecondition, match="the match is over"):
        api.next_deal(service_pb2.NextDealRequest(state=match_over(dealt())))


def test_view_text_of_an_unknown_game() -> None:
    view = game_pb2.View(game="chess")
    assert refusal(lambda: api.view_text(view)) == ("view.game", "unknown game 'chess'")


def test_the_trusted_path_still_refuses_an_unknown_game() -> None:
    state = dealt()
    move = first_legal(state)
    state.game = "chess"
    request = service_pb2.ApplyMoveRequest(state=state, move=move)
    assert refusal(lambda: api.apply_move(request, trusted=True)) == (
        "state.game",
        "unknown game 'chess'",
    )
    listing = service_pb2.ListLegalMovesRequest(state=state, seat=0)
    assert refusal(lambda: api.list_legal_moves(listing, trusted=True))[0] == "state.game"


def test_rejection_name_of_an_unknown_reason_is_unknown() -> None:
    assert api.rejection_name(game_pb2.Rejection(reason=99)) == "UNKNOWN"  # type: ignore[arg-type]
    game_rule = game_pb2.Rejection(reason=game_pb2.REJECTION_REASON_GAME_RULE)
    game_rule.hundred_and_one = 99  # type: ignore[assignment]
    assert api.rejection_name(game_rule) == "UNKNOWN"


# -- NewGame's request --------------------------------------------------------------------


def _option(name: str, **value: object) -> options_pb2.OptionSetting:
    return options_pb2.OptionSetting(name=name, value=options_pb2.OptionValue(**value))  # type: ignore[arg-type]


def _set(*names: str) -> options_pb2.OptionValue:
    return options_pb2.OptionValue(set_value=options_pb2.NameList(names=list(names)))


BROKEN_REQUESTS = [
    ("game_missing", {"game": ""}, [], "game", "missing: name a game from ListGames"),
    ("game_unknown", {"game": "chess"}, [], "game", "unknown game 'chess'; known: "),
    (
        "preset_unknown", {"preset": "xx"}, [], "preset",
        "unknown preset 'xx' for hundred_and_one; known: hd, cl, ru, alt",
    ),
    (
        "seat_count_out_of_range", {"seat_count": 9}, [], "seat_count",
        "hundred_and_one preset hd seats 2 to 4; got 9",
    ),
    (
        "seat_names_count", {"seat_names": ["Ann", "Bob"]}, [], "seat_names",
        "give no names or one per seat (3); got 2",
    ),
    ("option_name_missing", {}, [_option("", bool_value=True)], "options[0].name",
     "missing option name"),
    (
        "option_set_twice", {}, [_option("deck_size", int_value=36)] * 2, "options[1].name",
        "option 'deck_size' is set twice",
    ),
    ("option_value_empty", {}, [_option("deck_size")], "options[0].value", "option value is empty"),
    (
        "players_contradict_seats", {}, [_option("players", int_value=4)], "options[0].value",
        "option players=4 contradicts seat_count=3",
    ),
    ("option_unknown", {}, [_option("nope", bool_value=True)], "options[0].name",
     "unknown option 'nope'"),
    (
        "bool_of_wrong_type", {}, [_option("voluntary_draw", int_value=1)], "options[0].value",
        "option voluntary_draw takes bool_value",
    ),
    (
        "int_of_wrong_type", {}, [_option("deck_size", bool_value=True)], "options[0].value",
        "option deck_size takes int_value",
    ),
    (
        "int_not_allowed", {}, [_option("deck_size", int_value=40)], "options[0].value",
        "option deck_size must be one of 36, 52; got 40",
    ),
    (
        "int_out_of_range", {}, [_option("hand_size", int_value=26)], "options[0].value",
        "option hand_size must be from 2 to 25; got 26",
    ),
    (
        "enum_of_wrong_type", {}, [_option("opening", int_value=1)], "options[0].value",
        "option opening takes enum_value",
    ),
    (
        "enum_not_allowed", {}, [_option("opening", enum_value="X")], "options[0].value",
        "option opening must be one of LEAD_ANY, DEALER_UPCARD; got 'X'",
    ),
    (
        "set_of_wrong_type", {}, [_option("forbidden_finish", bool_value=True)],
        "options[0].value", "option forbidden_finish takes set_value",
    ),
    (
        "set_value_not_allowed", {},
        [options_pb2.OptionSetting(name="forbidden_finish", value=_set("JOKER"))],
        "options[0].value", "option forbidden_finish allows ACE, SEVEN, KING_OF_SPADES",
    ),
    (
        "set_value_twice", {},
        [options_pb2.OptionSetting(name="forbidden_finish", value=_set("ACE", "ACE"))],
        "options[0].value", "option forbidden_finish names a value twice",
    ),
    (
        "dependency_not_met", {}, [_option("fives_active", bool_value=True)],
        "options.fives_active", "needs deck_size 52",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "settings", "path", "message"),
    [case[1:] for case in BROKEN_REQUESTS],
    ids=[case[0] for case in BROKEN_REQUESTS],
)
def test_a_broken_new_game_request_is_refused_naming_its_field(
    fields, settings, path, message
) -> None:
    request = service_pb2.NewGameRequest(game=GAME, preset="hd", seat_count=3, seed=1)
    for name, value in fields.items():
        if isinstance(value, list):
            getattr(request, name).extend(value)
        else:
            setattr(request, name, value)
    request.options.extend(settings)
    field, problem = refusal(lambda: api.new_game(request))
    assert field == path
    assert message in problem


def test_a_catalogue_that_disagrees_with_its_message_is_refused_at_import() -> None:
    extra = OptionSpec("no_such_field", BOOL, False, "not a field", "none")
    with pytest.raises(ValueError, match=r"disagree on \['no_such_field'\]"):
        Catalogue(hundred_and_one_pb2.HundredAndOneOptions, (*SPECS, extra))
