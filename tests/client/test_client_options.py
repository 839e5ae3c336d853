"""NewGame's options by name: the Python value → OptionSetting conversion."""

from __future__ import annotations

import pytest

from croupier.v1 import hundred_and_one_pb2 as pb
from croupier.v1 import options_pb2
from croupier_client.client import CroupierClient, CroupierError, option_settings, option_value


def test_bool_becomes_bool_value() -> None:
    assert option_value(True) == options_pb2.OptionValue(bool_value=True)
    # False is the proto default, yet the oneof must still say "bool".
    assert option_value(False).WhichOneof("kind") == "bool_value"


def test_int_becomes_int_value() -> None:
    assert option_value(36) == options_pb2.OptionValue(int_value=36)
    assert option_value(0).WhichOneof("kind") == "int_value"
    assert option_value(-5).int_value == -5


def test_str_becomes_enum_value() -> None:
    assert option_value("DEALER_UPCARD") == options_pb2.OptionValue(enum_value="DEALER_UPCARD")


def test_list_and_tuple_become_set_value_in_order() -> None:
    expected = options_pb2.OptionValue(set_value=options_pb2.NameList(names=["SEVEN", "ACE"]))
    assert option_value(["SEVEN", "ACE"]) == expected
    assert option_value(("SEVEN", "ACE")) == expected


def test_a_python_set_is_sorted_so_the_request_bytes_are_stable() -> None:
    value = option_value(frozenset({"SIX", "ACE", "NINE"}))
    assert list(value.set_value.names) == ["ACE", "NINE", "SIX"]


def test_empty_list_is_an_empty_set_value() -> None:
    assert option_value([]).WhichOneof("kind") == "set_value"


@pytest.mark.parametrize("bad", [1.5, None, b"ACE", ["ACE", 7], {"a": 1}.items()])
def test_other_types_are_refused(bad: object) -> None:
    with pytest.raises(TypeError):
        option_value(bad)  # type: ignore[arg-type]


def test_option_settings_keep_the_mapping_order() -> None:
    settings = option_settings({"hand_size": 4, "opening": "LEAD_ANY", "upcard_effects": False})
    assert [s.name for s in settings] == ["hand_size", "opening", "upcard_effects"]
    assert settings[0].value.int_value == 4
    assert settings[1].value.enum_value == "LEAD_ANY"
    assert settings[2].value.WhichOneof("kind") == "bool_value"


def test_new_game_applies_every_kind_of_option(client: CroupierClient) -> None:
    response = client.new_game(
        "hundred_and_one",
        preset="hd",
        seat_count=3,
        seed=11,
        options={
            "upcard_effects": False,
            "hand_size": 4,
            "opening": "DEALER_UPCARD",
            "forbidden_finish": ["ACE", "SEVEN"],
        },
        seat_names=("Ann", "Bob", "Cy"),
    )
    options = response.state.options.hundred_and_one
    assert options.upcard_effects is False
    assert options.hand_size == 4
    assert options.opening == pb.HUNDRED_AND_ONE_OPENING_DEALER_UPCARD
    assert set(options.forbidden_finish) == {
        pb.HUNDRED_AND_ONE_FINISH_ACE,
        pb.HUNDRED_AND_ONE_FINISH_SEVEN,
    }
    assert [seat.name for seat in response.state.seats] == ["Ann", "Bob", "Cy"]


def test_an_unknown_option_is_a_croupier_error_with_its_field(client: CroupierClient) -> None:
    with pytest.raises(CroupierError) as caught:
        client.new_game("hundred_and_one", seat_count=3, seed=1, options={"no_such_option": 1})
    assert caught.value.rpc == "NewGame"
    assert caught.value.code.name == "INVALID_ARGUMENT"
    assert caught.value.field_violations, "the BadRequest details should be read"
    assert any("options" in field for field, _ in caught.value.field_violations)
