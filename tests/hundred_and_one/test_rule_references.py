"""RULES.md is the whole story: every rule id 101 cites is defined there.

Users read the game's RULES.md and nothing else, so every id a rejection
cites (`Rejection.rule`), every id of an option's rule reference (ListGames)
and every id RULES.md itself mentions must be defined in one of its tables,
with a statement. The ids a rejection can cite are found twice: read from the
source of every IllegalMove the game raises, and collected from the
rejections of every candidate move along seeded playouts of every preset.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from croupier.engine import api
from croupier.games.hundred_and_one import legal
from croupier.games.hundred_and_one.options import CATALOGUE
from croupier.v1 import game_pb2, options_pb2, service_pb2

PACKAGE = Path(legal.__file__).parent
RULES_MD = (PACKAGE / "RULES.md").read_text(encoding="utf-8")
ENGINE = "engine"  # the gates every game shares (engine/api.py)
RULE_ID = r"[COA]\d+(?:\.\d+)?"


def defined_ids() -> dict[str, str]:
    """{id: statement} of every table row of RULES.md that defines an id:
    `| **C6.3** | statement |` (the options table has its option columns between)."""
    rows = re.findall(rf"^\| \*\*({RULE_ID})\*\* \|(.+)\|\s*$", RULES_MD, flags=re.M)
    return {rule: statement.strip(" |") for rule, statement in rows}


def headings() -> set[str]:
    return {h.strip() for h in re.findall(r"^#+ (.+)$", RULES_MD, flags=re.M)}


def cited_in_source() -> set[str]:
    """The rule of every `IllegalMove(reason, message, rule)` in the package
    (both branches of a conditional rule)."""
    found: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove"):
                continue
            rule = node.args[2] if len(node.args) > 2 else None
            rule = next((k.value for k in node.keywords if k.arg == "rule"), rule)
            assert rule is not None, f"{path.name}:{node.lineno}: an IllegalMove cites no rule"
            branches = [rule.body, rule.orelse] if isinstance(rule, ast.IfExp) else [rule]
            for branch in branches:
                assert isinstance(branch, ast.Constant), f"{path.name}:{node.lineno}"
                found.add(branch.value)
    return found


# Presets, and variants that reach the phases and rules the presets rarely do.
TABLES = [
    ("hd", {}),
    ("cl", {}),
    ("ru", {}),
    ("alt", {}),
    ("hd", {"draw_rule": "UNTIL_PLAYABLE"}),
    ("hd", {"must_play_drawn": True, "eight_draw_mode": "THREE", "opening": "DEALER_UPCARD"}),
    ("cl", {"first_move_any": True, "upcard_effects": False, "transfer_6_7": True}),
    ("ru", {"six_cover_by": "NEXT", "transfer_6_7": True}),
]


def _value(value: object) -> options_pb2.OptionValue:
    if isinstance(value, bool):
        return options_pb2.OptionValue(bool_value=value)
    return options_pb2.OptionValue(enum_value=str(value))


def cited_by_rejections(preset: str, options: dict[str, object], seed: int) -> set[str]:
    """The rules cited by rejecting every candidate move of the acting seat
    (and one of an idle seat) at each step of a seeded random playout."""
    request = service_pb2.NewGameRequest(
        game="hundred_and_one", preset=preset, seat_count=3, seed=seed,
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
    assert {f"C{n}" for n in range(1, 10)} <= set(ids)
    assert {f"O{n}" for n in range(1, 32)} <= set(ids)
    assert {f"A{n}" for n in range(1, 36)} <= set(ids)
    assert all(len(statement) > 10 for statement in ids.values()), ids


def test_every_rule_the_source_cites_is_defined_in_rules_md() -> None:
    cited = cited_in_source()
    assert {"C2", "C3", "C3.1", "C3.3", "C3.4", "C6", "C6.1", "A5", "A24", "O5"} <= cited
    assert cited - set(defined_ids()) == set()


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_every_rule_a_rejection_cites_is_defined_in_rules_md(preset, options) -> None:
    cited = cited_by_rejections(preset, options, seed=3)
    assert ENGINE in cited  # the idle seat's move meets the engine's gate
    assert cited - {ENGINE} - set(defined_ids()) == set()
    # The source scan sees every rule the rejections cite.
    assert cited - {ENGINE} <= cited_in_source()


def test_every_option_reference_names_what_rules_md_defines() -> None:
    known = set(defined_ids()) | headings()
    for spec in CATALOGUE.specs:
        prefix, _, ids = spec.reference.partition(" ")
        assert prefix == "RULES.md", spec.name
        for reference in ids.split(", "):
            assert reference in known, f"{spec.name}: {reference} is not defined in RULES.md"


def test_every_id_rules_md_mentions_is_defined_there() -> None:
    mentioned = set(re.findall(rf"\b({RULE_ID})\b", RULES_MD))
    assert mentioned - set(defined_ids()) == set()


def test_rules_md_sends_its_reader_nowhere_else() -> None:
    # Users never see the project's rules digest.
    for elsewhere in ("shedding.md", "../shared", "shared/rules", "§"):
        assert elsewhere not in RULES_MD
