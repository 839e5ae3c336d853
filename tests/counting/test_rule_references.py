"""RULES.md is the whole story: every rule id the counting games cite is
defined there.

Users read the games' RULES.md and nothing else, so every id a rejection
cites (`Rejection.rule`), every id of an option's rule reference (ListGames),
every id a card's effect carries and every id RULES.md itself mentions must
be defined in one of its tables, with a statement. The ids a rejection can
cite are collected from the rejections of every candidate move along seeded
playouts of every preset (and option mixes that reach the other rules).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from croupier.engine import api
from croupier.games.counting import CHIPS_101, ONE_HUNDRED, STO, legal
from croupier.games.counting.rules import compile_rules
from croupier.v1 import game_pb2, options_pb2, service_pb2

PACKAGE = Path(legal.__file__).parent
RULES_MD = (PACKAGE / "RULES.md").read_text(encoding="utf-8")
ENGINE = "engine"
RULE_ID = r"(?:[ROA]-C[123]-\d+|C-C-\d+|E-C-\d+)"
GAMES = (STO, ONE_HUNDRED, CHIPS_101)


def defined_ids() -> dict[str, str]:
    """{id: statement} of every table row of RULES.md that defines an id:
    `| **R-C1-04** | statement |` (options rows have their columns between)."""
    rows = re.findall(rf"^\| \*\*({RULE_ID})\*\* \|(.+)\|\s*$", RULES_MD, flags=re.M)
    return {rule: statement.strip(" |") for rule, statement in rows}


def headings() -> set[str]:
    return {h.strip() for h in re.findall(r"^#+ (.+)$", RULES_MD, flags=re.M)}


def cited_in_source() -> set[str]:
    """Every rule id string literal of the package's code."""
    found: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        found |= set(re.findall(rf'"({RULE_ID})"', path.read_text(encoding="utf-8")))
    return found


TABLES = [
    ("sto", "seed", {}),
    ("sto", "hundert", {}),
    ("one_hundred", "seed", {}),
    ("one_hundred", "gamerules", {}),
    ("one_hundred", "seed", {"after_bust": "CONTINUE", "floor_zero": False}),
    ("chips_101", "seed", {}),
    ("chips_101", "pagat", {}),
    ("chips_101", "seed", {"card_table": "ONE_HUNDRED", "limit": 100}),
]


def _value(value: object) -> options_pb2.OptionValue:
    if isinstance(value, bool):
        return options_pb2.OptionValue(bool_value=value)
    if isinstance(value, int):
        return options_pb2.OptionValue(int_value=value)
    return options_pb2.OptionValue(enum_value=str(value))


def cited_by_rejections(game: str, preset: str, options: dict[str, object], seed: int) -> set[str]:
    """The rules cited by rejecting every candidate move of the acting seat
    (and one of an idle seat) at each step of a seeded random playout."""
    request = service_pb2.NewGameRequest(
        game=game, preset=preset, seat_count=3, seed=seed,
        options=[options_pb2.OptionSetting(name=k, value=_value(v)) for k, v in options.items()],
    )  # fmt: skip
    state = api.new_game(request).state
    choose = random.Random(seed)
    cited: set[str] = set()
    for _ in range(150):
        if state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER:
            break
        if state.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
        seat = state.acting_seats[0]
        idle = (seat + 1) % 3
        accepted = []
        for move in [*legal.candidate_moves(state, seat), *legal.candidate_moves(state, idle)[:1]]:
            answer = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))
            if answer.accepted:
                accepted.append(answer.state)
            else:
                cited.add(answer.rejection.rule)
        state = choose.choice(accepted)
    return cited


def test_every_id_defined_in_rules_md_has_a_statement() -> None:
    ids = defined_ids()
    assert {f"R-C1-0{n}" for n in range(1, 7)} <= set(ids)
    assert {f"R-C2-0{n}" for n in range(1, 8)} <= set(ids)
    assert {f"R-C3-0{n}" for n in range(1, 7)} <= set(ids)
    assert {f"O-C1-{n}" for n in range(1, 5)} | {f"O-C2-{n}" for n in range(1, 7)} <= set(ids)
    assert {f"O-C3-{n}" for n in range(1, 6)} <= set(ids)
    assert {f"A-C1-0{n}" for n in range(1, 5)} | {f"A-C2-0{n}" for n in range(1, 7)} <= set(ids)
    assert {f"A-C3-0{n}" for n in range(1, 5)} | {f"C-C-{n}" for n in range(1, 5)} <= set(ids)
    assert all(len(statement) > 10 for statement in ids.values()), ids


def test_every_rule_the_source_cites_is_defined_in_rules_md() -> None:
    cited = cited_in_source()
    assert {"R-C3-05", "A-C3-04", "R-C2-04", "R-C3-04", "O-C3-3", "C-C-2"} <= cited
    assert cited - set(defined_ids()) == set()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_rule_a_card_or_turn_cites_is_defined_in_rules_md(game) -> None:
    defined = set(defined_ids())
    for preset in game.presets:
        options = game.catalogue.resolve([(preset.settings, {})])
        if game.name == "one_hundred":
            options.players = preset.min_seats
        rules = compile_rules(game.name, options)
        assert {e.rule for e in rules.effects.values()} <= defined
        assert set(rules.rule_ids.values()) <= defined


@pytest.mark.parametrize(("game", "preset", "options"), TABLES)
def test_every_rule_a_rejection_cites_is_defined_in_rules_md(game, preset, options) -> None:
    cited = cited_by_rejections(game, preset, options, seed=3)
    assert ENGINE in cited  # the idle seat's move meets the engine's gate
    assert cited - {ENGINE} - set(defined_ids()) == set()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_option_reference_names_what_rules_md_defines(game) -> None:
    known = set(defined_ids()) | headings()
    for spec in game.catalogue.specs:
        prefix, _, ids = spec.reference.partition(" ")
        assert prefix == "RULES.md", spec.name
        for reference in ids.split(", "):
            assert reference in known, f"{spec.name}: {reference} is not defined in RULES.md"


def test_every_id_rules_md_mentions_is_defined_there() -> None:
    mentioned = set(re.findall(rf"\b({RULE_ID})\b", RULES_MD))
    assert mentioned - set(defined_ids()) == set()


def test_rules_md_sends_its_reader_nowhere_else() -> None:
    for elsewhere in ("rummy_and_counting.md", "../shared", "shared/rules", "§"):
        assert elsewhere not in RULES_MD
