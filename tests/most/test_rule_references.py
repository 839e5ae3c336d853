"""RULES.md is the whole story: every rule id «Мост» cites is defined there.

Users read the game's RULES.md and nothing else, so every id a rejection
cites (`Rejection.rule`), every id of an option's rule reference (ListGames)
and every id RULES.md itself mentions must be defined in one of its tables,
with a statement. The ids a rejection can cite are read from the source of
every IllegalMove the game raises, and collected from the rejections of
every candidate move along seeded playouts of both presets.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from croupier.engine import api
from croupier.games.most import GAME, legal
from croupier.games.most.analyser import FAULTS
from croupier.games.most.options import CATALOGUE
from croupier.v1 import game_pb2, service_pb2
from spec_notation import settings

PACKAGE = Path(legal.__file__).parent
RULES_MD = (PACKAGE / "RULES.md").read_text(encoding="utf-8")
ENGINE = "engine"
RULE_ID = r"[RACK]-M-\d+"


def defined_ids() -> dict[str, str]:
    """{id: statement} of every table row `| **R-M-13** | statement |`."""
    rows = re.findall(rf"^\| \*\*({RULE_ID})\*\* \|(.+)\|\s*$", RULES_MD, flags=re.M)
    return {rule: statement.strip(" |") for rule, statement in rows}


def cited_in_source() -> set[str]:
    """The rule of every `IllegalMove(reason, message, rule)` in the package."""
    found: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove"):
                continue
            if node.args and isinstance(node.args[0], ast.Starred):
                continue  # a remembered rejection rebuilt (completion.py)
            rule = node.args[2] if len(node.args) > 2 else None
            if isinstance(rule, ast.Name) and path.name == "analyser.py":
                continue  # a meld fault's rule: FAULTS, below
            assert isinstance(rule, ast.Constant), f"{path.name}:{node.lineno} cites no rule"
            found.add(rule.value)
    return found | {rule for _, rule in FAULTS.values()}


def cited_by_rejections(preset: str, options: dict[str, object], seed: int) -> set[str]:
    """The rules cited by rejecting every candidate move of the acting seat
    (and one of an idle seat) at each step of a seeded random playout."""
    request = service_pb2.NewGameRequest(
        game="most", preset=preset, seat_count=3, seed=seed, options=settings(options)
    )
    state = api.new_game(request).state
    choose = random.Random(seed)
    cited: set[str] = set()
    for _ in range(120):
        if state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER:
            break
        if state.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
        seat = state.acting_seats[0]
        idle = (seat + 1) % 3
        accepted = []
        moves = [*GAME.candidate_moves(state, seat), *GAME.candidate_moves(state, idle)[:1]]
        for move in moves:
            answer = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))
            if answer.accepted:
                accepted.append(answer.state)
            else:
                cited.add(answer.rejection.rule)
        state = choose.choice(accepted)
    return cited


def test_every_id_defined_in_rules_md_has_a_statement() -> None:
    ids = defined_ids()
    wanted = {f"R-M-{n:02d}" for n in (1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 20, 21, 22, 23)}
    wanted |= {f"R-M-{n}" for n in (30, 31, 32, 33, 34, 40, 41, 42)}
    wanted |= {f"A-M-{n:02d}" for n in range(1, 11)} | {f"C-M-{n}" for n in range(1, 6)}
    wanted |= {f"K-M-{n}" for n in range(1, 6)}
    assert wanted <= set(ids)
    assert all(len(statement) > 10 for statement in ids.values()), ids


def test_every_rule_the_source_cites_is_defined_in_rules_md() -> None:
    cited = cited_in_source()
    assert {"R-M-13", "R-M-21", "R-M-31", "R-M-32", "C-M-1", "K-M-2", "K-M-5"} <= cited
    assert cited - set(defined_ids()) == set()


@pytest.mark.parametrize(
    ("preset", "options"),
    [("seed", {}), ("rum500", {"exchange_requires_meld": True, "go_out_without_discard": True})],
)
def test_every_rule_a_rejection_cites_is_defined_in_rules_md(preset, options) -> None:
    cited = cited_by_rejections(preset, options, seed=3)
    assert ENGINE in cited
    assert cited - {ENGINE} - set(defined_ids()) == set()


def test_every_option_reference_names_what_rules_md_defines() -> None:
    known = set(defined_ids())
    for spec in CATALOGUE.specs:
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
