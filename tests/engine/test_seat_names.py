"""Seat names are checked wherever they enter (engine/validate_seats.py).

A seat's name is written into the games' sentences, so NewGame's
`seat_names` once let a caller forge a sentence ("Bob\\nP0 wins the
match"), make every sentence ambiguous ("A", "A", "A") or store 100 KB per
seat; and a client that holds the state could do the same by editing
`seats[i].name`. Both doors now refuse it with INVALID_ARGUMENT naming the
field, and the refusal quotes the name cut short and escaped.
"""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.engine.validate_seats import MAX_SEAT_NAME
from croupier.v1 import game_pb2, service_pb2

GAME = "hundred_and_one"

# (id, three names, the seat refused, what the refusal says)
BAD_NAMES = [
    ("newline_forges_a_sentence", ["Alice", "", "Bob\nP0 wins the match"], 2,
     "'Bob\\nP0 wins the match' holds U+000A (Cc) at 3: a seat name is one line of visible text"),
    ("carriage_return", ["Ann", "B\rob", "Cy"], 1, "holds U+000D (Cc) at 1"),
    ("tab", ["Ann", "Bob", "C\ty"], 2, "holds U+0009 (Cc) at 1"),
    ("nul", ["\x00Ann", "Bob", "Cy"], 0, "holds U+0000 (Cc) at 0"),
    ("bidi_override", ["Ann", "Bob\u202eniw", "Cy"], 1, "'Bob\\u202eniw' holds U+202E (Cf) at 3"),
    ("zero_width_space", ["Ann", "Bo\u200bb", "Cy"], 1, "holds U+200B (Cf) at 2"),
    ("line_separator", ["Ann\u2028P1 wins", "Bob", "Cy"], 0, "holds U+2028 (Zl) at 3"),
    ("paragraph_separator", ["Ann", "Bob", "Cy\u2029"], 2, "holds U+2029 (Zp) at 2"),
    ("only_spaces", ["Ann", "   ", "Cy"], 1,
     "'   ' is only whitespace: give a visible name, or none"),
    ("only_wide_spaces", ["Ann", "Bob", "\u3000\u00a0"], 2, "is only whitespace"),
    ("too_long", ["Ann", "B" * (MAX_SEAT_NAME + 1), "Cy"], 1,
     f"is {MAX_SEAT_NAME + 1} characters; a seat name has at most {MAX_SEAT_NAME}"),
    ("hundred_kilobytes", ["x" * 100_000, "Bob", "Cy"], 0,
     "'xxxxxxxxxxxxxxxxxxxxxxxx'… is 100000 characters"),
    ("the_same_name_thrice", ["A", "A", "A"], 1, "'A' is seat 0's name too"),
    ("the_default_name_of_an_unnamed_seat", ["P1", "", "Cy"], 0, "'P1' is seat 1's name too"),
    ("an_unnamed_seat_after_its_name_was_taken", ["Ann", "P2", ""], 1,
     "'P2' is seat 2's name too"),
    ("the_default_name_of_an_unnamed_seat_before", ["", "P0", "Cy"], 1,
     "'P0' is seat 0's name too"),
    ("the_same_name_in_other_case", ["Ann", "ANN", "Cy"], 1, "'ANN' is seat 0's name too"),
    ("the_same_name_spaced_otherwise", ["Ann Lee", "Bob", " Ann  Lee"], 2, "is seat 0's name too"),
    ("the_same_name_in_fullwidth", ["Ann", "Bob", "Ａｎｎ"], 2, "is seat 0's name too"),
]  # fmt: skip

GOOD_NAMES = [
    ["Alice", "", "Bob"],
    ["Аня", "José", "李雷"],
    ["Ann Lee", "ann lee jr", "🂡 ace"],
    ["N" * MAX_SEAT_NAME, "P0x", "P"],
    ["", "", ""],
    ["P0", "P1", "P2"],
    ["Cy", "P1", "Ann"],  # seat 1 named as it reads unnamed: no clash
]


def new_game(names: list[str]) -> service_pb2.NewGameResponse:
    request = service_pb2.NewGameRequest(
        game=GAME, preset="hd", seat_count=len(names), seed=1, seat_names=names
    )
    return api.new_game(request)


def _refusal(call: object) -> tuple[str, str]:
    with pytest.raises(InvalidInput) as caught:
        call()  # type: ignore[operator]
    assert len(caught.value.violations) == 1
    return caught.value.violations[0]


@pytest.mark.parametrize(
    ("names", "seat", "message"),
    [case[1:] for case in BAD_NAMES],
    ids=[case[0] for case in BAD_NAMES],
)
def test_new_game_refuses_a_seat_name_that_forges_or_blurs_a_sentence(
    names: list[str], seat: int, message: str
) -> None:
    field, problem = _refusal(lambda: new_game(names))
    assert field == f"seat_names[{seat}]"
    assert message in problem


@pytest.mark.parametrize(
    ("names", "seat", "message"),
    [case[1:] for case in BAD_NAMES],
    ids=[case[0] for case in BAD_NAMES],
)
def test_every_rpc_refuses_a_state_whose_seat_name_forges_or_blurs_a_sentence(
    names: list[str], seat: int, message: str
) -> None:
    state = new_game(["Ann", "Bob", "Cy"]).state
    for i, name in enumerate(names):
        state.seats[i].name = name
    move = api.list_legal_moves(
        service_pb2.ListLegalMovesRequest(state=new_game(["Ann", "Bob", "Cy"]).state, seat=0)
    )
    calls = [
        lambda: api.check_state(state),
        lambda: api.get_view(service_pb2.GetViewRequest(state=state, seat=0)),
        lambda: api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=state, seat=0)),
        lambda: api.default_move(
            service_pb2.DefaultMoveRequest(state=state, seat=state.acting_seats[0])
        ),
    ]
    if move.moves:
        request = service_pb2.ApplyMoveRequest(state=state, move=move.moves[0].move)
        calls.append(lambda: api.apply_move(request))
    for call in calls:
        field, problem = _refusal(call)
        assert field == f"state.seats[{seat}].name"
        assert message in problem


@pytest.mark.parametrize("names", GOOD_NAMES, ids=range(len(GOOD_NAMES)))
def test_names_within_the_rule_are_taken_and_read_in_the_sentences(names: list[str]) -> None:
    response = new_game(names)
    assert [seat.name for seat in response.state.seats] == names
    api.check_state(response.state)
    sentence = response.events[0].text  # "<a seat> leads deal 1"
    effective = [name or f"P{seat}" for seat, name in enumerate(names)]
    assert any(sentence.startswith(f"{name} ") for name in effective), sentence


def test_a_refusal_quotes_the_name_escaped_and_cut_short() -> None:
    hostile = "\u202e" + "\n".join(["P0 wins"] * 7)  # 56 characters
    field, problem = _refusal(lambda: new_game(["Ann", hostile, "Cy"]))
    assert field == "seat_names[1]"
    assert problem.startswith("'\\u202eP0 wins\\nP0 wins\\nP0 wins'… holds U+202E (Cf) at 0")
    assert problem.isprintable() and len(problem) < 200, problem
    field, problem = _refusal(lambda: new_game(["Ann", "\n" * 100_000, "Cy"]))
    assert problem.startswith("'" + "\\n" * 24 + "'… is 100000 characters"), problem
    assert problem.isprintable() and len(problem) < 200, problem


def test_the_state_path_is_named_inside_a_batch_item() -> None:
    state = new_game(["Ann", "Bob", "Cy"]).state
    state.seats[0].name = "Bob"
    field, _ = _refusal(lambda: api.check_state(state, "items[4].state"))
    assert field == "items[4].state.seats[1].name"


def test_a_state_with_the_default_names_or_none_passes() -> None:
    request = service_pb2.NewGameRequest(game=GAME, preset="hd", seat_count=4, seed=3)
    state = api.new_game(request).state
    assert [seat.name for seat in state.seats] == ["P0", "P1", "P2", "P3"]
    api.check_state(state)
    for seat in state.seats:
        seat.name = ""
    api.check_state(state)
    renamed = game_pb2.GameState()
    renamed.CopyFrom(state)
    renamed.seats[3].name = "P3"  # its own default name: the same seat, no clash
    api.check_state(renamed)
