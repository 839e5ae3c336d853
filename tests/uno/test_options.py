"""UNO's options: the catalogue in ListGames, the presets, the options that
follow a house rule, the conflicts refused naming both options (§2.12,
C-UNO-6), inert combinations accepted, and the options no situation pins."""

from __future__ import annotations

import ast
import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from croupier.engine import api, registry
from croupier.engine.errors import InvalidInput
from croupier.engine.uno_cards import parse_uno_card
from croupier.games.uno import GAME, legal
from croupier.games.uno.options import CATALOGUE, FOLLOWERS
from croupier.v1 import service_pb2

from .conftest import settings

PACKAGE = Path(legal.__file__).parent
RULES_MD = (PACKAGE / "RULES.md").read_text(encoding="utf-8")
RULE_ID = r"(?:R\d+|U\d+a?|H\d+|B\d+|C-UNO-\d+|D\d+)"


def defined_ids() -> set[str]:
    """Every id a table row of RULES.md defines (its first column)."""
    return set(re.findall(rf"^\| ({RULE_ID}) \|", RULES_MD, flags=re.M))


def new_game(options=None, preset="", seats=4):
    request = service_pb2.NewGameRequest(
        game="uno", preset=preset, seat_count=seats, options=settings(options)
    )
    return api.new_game(request).state


# -- the catalogue and the rules it cites ------------------------------------------------------


def test_uno_is_registered_by_its_entry_point():
    (point,) = [p for p in entry_points(group=registry.ENTRY_POINT_GROUP) if p.name == "uno"]
    assert point.value == "croupier.games.uno:GAME"
    assert point.load() is GAME and registry.find("uno") is GAME


def test_list_games_shows_uno_with_both_presets_and_every_option():
    games = {g.name: g for g in api.list_games(service_pb2.ListGamesRequest()).games}
    uno = games["uno"]
    assert (uno.min_seats, uno.max_seats, uno.default_preset) == (2, 10, "seed")
    assert [p.name for p in uno.presets] == ["seed", "mattel"]
    names = [o.name for o in uno.options]
    assert len(names) == len(set(names)) == len(CATALOGUE.specs) == 38
    for option in uno.options:
        assert option.description and option.rule_reference.startswith("RULES.md ")
    # U1–U18 and H1–H17 all have an option (H7 is scoring_method LAZY, H17 is U16).
    cited = " ".join(o.rule_reference for o in uno.options)
    for rule in [f"U{i}" for i in range(1, 19)] + [f"H{i}" for i in range(1, 18)]:
        assert re.search(rf"\b{rule}\b", cited), rule


def test_every_rule_the_game_cites_is_defined_in_rules_md():
    defined = defined_ids()
    cited = set()
    for spec in CATALOGUE.specs:
        cited |= set(re.findall(RULE_ID, spec.reference))
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and re.fullmatch(RULE_ID, text):
                cited.add(text)
    cited |= set(re.findall(rf"\b{RULE_ID}\b", RULES_MD))
    assert cited - defined == set()
    assert {f"B{i}" for i in range(1, 36)} <= defined
    assert {f"C-UNO-{i}" for i in range(1, 12)} <= defined


def test_the_presets():
    seed = new_game()
    assert seed.options.uno == CATALOGUE.resolve([])
    mattel = new_game(preset="mattel").options.uno
    assert (mattel.first_card_policy, mattel.draw2_response, mattel.wd4_response) == (2, 1, 1)
    assert (mattel.challenge_outcome, mattel.uno_call_timing) == (2, 2)
    assert mattel.target == 500 and mattel.challenge_enabled and mattel.voluntary_draw


# -- C-UNO-6: follow when unset, refuse when contradicted ---------------------------------------

CONFLICTS = [
    ({"wd4_enforcement": "STRICT", "challenge_enabled": True}, "challenge_enabled"),
    ({"play_to_last": True, "scoring_method": "WINNER_COLLECTS"}, "scoring_method"),
    ({"play_to_last": True, "scoring_method": "PENALTY_LIMIT"}, "scoring_method"),
    ({"h2o_finish_bonus": True, "scoring_method": "LAZY"}, "scoring_method"),
    ({"h2o_finish_bonus": True, "scoring_method": "WINNER_COLLECTS"}, "scoring_method"),
    ({"play_to_last": True, "h2o_finish_bonus": True}, "play_to_last"),
    ({"jump_in_own_card": True, "jump_in": False}, "jump_in"),
    ({"stack_mixed": True, "stacking": False}, "stacking"),
    ({"plus_ten": True, "blank_cards_in_deck": False}, "blank_cards_in_deck"),
]


@pytest.mark.parametrize(("options", "other"), CONFLICTS)
def test_a_conflict_is_refused_naming_both_options(options, other):
    with pytest.raises(InvalidInput) as refused:
        new_game(options)
    named = {field.removeprefix("options.") for field, _ in refused.value.violations}
    assert other in named and len(named) == 2 and named <= set(options) | {"scoring_method"}


@pytest.mark.parametrize(("leader", "value", "follower", "follows"), FOLLOWERS)
def test_an_unset_option_follows_its_house_rule(leader, value, follower, follows):
    options = new_game({leader: value}).options.uno
    named = CATALOGUE.named(options)
    assert named[follower] == follows


def test_a_preset_value_follows_too():
    # mattel sets challenge_enabled by default; STRICT still turns it off.
    assert not new_game(
        {"wd4_enforcement": "STRICT"}, preset="mattel"
    ).options.uno.challenge_enabled


INERT = [
    {"wild_first_card": "RETURN", "reverse_first_card": "RIGHT_OF_DEALER"},  # under NUMBER_ONLY
    {"stacking": True, "draw2_response": "DEFLECT_ANY_COLOUR"},
    {"blank_cards_in_deck": True},
    {"zero50_scope": "ANY_ZERO"},
    {"play_to_last": True, "zero_worth_50": True},
    {"target": 100, "limit": 50, "lazy_rounds": 3},
    {"uno_in_centre": True, "uno_call_timing": "UNTIL_CAUGHT", "uno_penalty": 4},
]


@pytest.mark.parametrize("options", INERT)
def test_an_inert_combination_is_accepted(options):
    assert new_game(options).match.phase == 1


def test_every_house_rule_together_where_allowed():
    house = ("jump_in jump_in_own_card seven_zero stacking stack_mixed swap_on_five "
             "uno_in_centre colour_rotation plus_ten reverse_bounce play_to_last seven_rounds "
             "zero_worth_50 politeness_ready misplay_penalty")  # fmt: skip
    everything: dict[str, bool | str] = {name: True for name in house.split()}
    state = new_game({**everything, "silent_trigger": "BLACK"}, seats=10)
    assert state.options.uno.scoring_method == 3  # LAZY, for play_to_last


def test_states_with_conflicting_options_are_refused(table):
    state = table.new()
    state.options.uno.wd4_enforcement = 2
    with pytest.raises(InvalidInput):
        api.check_state(state)


# -- options no situation row pins ---------------------------------------------------------------


def test_u9_must_play_a_legal_drawn_card(table):
    s = table.build(top="G2", hands={0: "R5 Y7"}, stock="G5 …", options={"play_drawn": "MUST"})
    s = table.ok(s, "P0 DRAW")
    assert table.legal(s, 0) == {"G5"}
    assert table.reason(s, "P0 PASS") == "MUST_PLAY_DRAWN_CARD"
    s = table.build(top="G2", hands={0: "R5 Y7"}, stock="B5 …", options={"play_drawn": "MUST"})
    assert table.legal(table.ok(s, "P0 DRAW"), 0) == {"PASS"}


def test_u9_never_the_turn_passes_after_a_draw(table):
    s = table.build(top="G2", hands={0: "R5 Y7"}, stock="G5 …", options={"play_drawn": "NEVER"})
    s = table.ok(s, "P0 DRAW")
    assert table.turn(s) == (1, "PLAY") and table.hand(s, 0) == table.bag("R5 Y7 G5")


def test_u11_the_catch_penalty(table):
    s = table.build(top="R7", hands={0: "R3 G5"}, options={"uno_penalty": 4})
    s = table.ok(s, table.play(0, "R3"), "P2 CATCH 0")
    assert table.size(s, 0) == 1 + 4


def test_u13_off_a_final_draw_card_draws_nothing(table):
    s = table.build(
        top="B3", hands={0: "B+2", 1: "Y1 Y2"}, options={"final_draw_resolution": False}
    )
    s = table.ok(s, table.play(0, "B+2"))
    assert table.match_phase(s) == "DEAL_OVER" and table.size(s, 1) == 2


def test_u14_winner_collects_wins_at_the_target(table):
    hands = {0: "R7", 1: "W W", 2: "Y1", 3: "Y2"}
    s = table.build(top="R3", hands=hands, scores=[400, 0, 0, 0])
    s = table.ok(s, table.play(0, "R7"))
    assert table.match_phase(s) == "MATCH_OVER" and list(s.match.winners) == [0]
    assert table.scores(s) == [503, 0, 0, 0]


def test_u14_penalty_limit_each_scores_his_own_hand(table):
    hands = {0: "R7", 1: "W", 2: "Y1", 3: "Y2"}
    s = table.build(top="R3", hands=hands, options={"scoring_method": "PENALTY_LIMIT"})
    s = table.ok(s, table.play(0, "R7"))
    assert table.deal_points(s) == [0, 50, 1, 2]
    assert table.match_phase(s) == "DEAL_OVER"


def test_u14_lazy_the_match_ends_after_lazy_rounds(table):
    opts = {"scoring_method": "LAZY", "lazy_rounds": 2}
    s = table.build(top="R3", hands={0: "R7", 1: "W"}, deal_number=2, scores=[0, 1, 0, 0],
                    options=opts)  # fmt: skip
    s = table.ok(s, table.play(0, "R7"))
    assert table.match_phase(s) == "MATCH_OVER"
    assert sorted(s.match.winners) == [0, 1]  # one round win each


def test_u17_the_highest_card_deals(table):
    state = table.new(seed=5)
    chosen = table.events[0]
    assert chosen.uno.kind == 1 and "highest card" in chosen.text
    assert state.uno.dealer == chosen.seat
    random = {
        table.new(options={"dealer_selection": "RANDOM"}, seed=s).uno.dealer for s in range(12)
    }
    assert len(random) > 1


def test_u18_and_h10_put_the_blank_cards_in_the_deck(table):
    def count(state):
        return (
            len(state.uno.stock)
            + len(state.uno.discard)
            + sum(len(h.cards) for h in state.uno.hands)
        )

    assert count(table.new()) == 108
    assert count(table.new(options={"blank_cards_in_deck": True})) == 108  # inert alone
    assert count(table.new(options={"plus_ten": True})) == 112


def test_h12_a_finished_seat_leaves_the_rotation(table):
    s = table.build(top="R4", hands={0: "R5", 1: "Y1 Y2", 2: "R6 Y3", 3: "Y4 Y5"},
                    options={"play_to_last": True})  # fmt: skip
    s = table.ok(s, table.play(0, "R5"))
    assert list(s.uno.finished) == [0]
    s = table.ok(s, "P1 DRAW", "P1 PASS", table.play(2, "R6", uno=True), "P3 DRAW", "P3 PASS")
    assert table.turn(s) == (1, "PLAY")  # P0 is passed over


def test_h16_ready_after_an_accepted_wild_draw_four(table):
    s = table.build(top="R4", hands={0: "W+4 Y1 Y2"}, options={"politeness_ready": True})
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 ACCEPT")
    assert table.acting(s) == [1] and table.default(s, 1) == "READY"
    s = table.ok(s, "P1 READY")
    assert table.acting(s) == [2]


def test_h5_black_silence_ends_when_the_colour_changes(table):
    opts = {"silent_trigger": "BLACK", "challenge_enabled": False}
    s = table.build("mattel", top="R4", hands={0: "W Y1", 1: "G7 G8"}, options=opts)
    s = table.ok(s, table.play(0, "W", "G"))
    assert s.uno.silence
    s = table.ok(s, table.play(1, "G7"))
    assert s.uno.silence  # still green
    s = table.build("mattel", top="R4", hands={0: "W Y1", 1: "G7 R7"}, options=opts)
    s = table.ok(s, table.play(0, "W", "G"), table.play(1, "G7"))
    assert table.colour(s) == "G"


def test_default_moves(table):
    s = table.build(top="G2", hands={0: "R5 G7"})
    assert table.default(s, 0) == "DRAW"
    s = table.build(top="G2", hands={0: "R5 G7"}, options={"voluntary_draw": False})
    assert table.default(s, 0) == "G7 UNO"  # the second-to-last card calls (rules 3)
    s = table.ok(table.build(top="G2", hands={0: "R5 Y7"}, stock="G5 …"), "P0 DRAW")
    assert table.default(s, 0) == "PASS"
    s = table.ok(table.build(top="R4", hands={0: "R+2 …"}), table.play(0, "R+2"))
    assert table.default(s, 1) == "ACCEPT"
    s = table.ok(table.build(top="R7", hands={0: "R3 G5"}), table.play(0, "R3"))
    assert table.default(s, 2) == "CATCH 0"  # a seat that owes nothing: its first move (D14)


def test_the_deck_values_and_the_first_card_under_mattel_plus_ten(table):
    for seed in range(60):
        state = table.new("mattel", options={"plus_ten": True}, seed=seed)
        assert state.uno.discard[-1] not in (parse_uno_card("X+10"), parse_uno_card("W+4"))


def test_game_metadata():
    assert GAME.name == "uno" and GAME.rules_version == 6
