"""Where a rule reference points: into the game's own RULES.md.

Users read a game's RULES.md and nothing else, so every rule a rejection
cites (`Rejection.rule`) and every id of an option's `rule_reference`
("RULES.md O5, A24") must be a name that RULES.md states: a rule id, an
option id, or a section's number ("§1.8" names "## Laying off (§1.8)").
A rejection of the game's own rules cites a rule its RULES.md's table of
rejections gives for its reason (`| MUST_COVER | C6; C6.1 … |`). The
engine's own gates cite "engine" (game.proto, `Rejection.rule`).
"""

from __future__ import annotations

import re
from functools import cache

from croupier import rules_text
from croupier.engine import registry
from croupier.v1 import game_pb2

ENGINE = "engine"

# Each registered game's RULES.md, read before any test registers a stand-in
# under a game's name (test_planted_faults.py): a stand-in's rules are the
# real game's.
RULES_MD: dict[str, str] = {
    game.name: rules_text.rules_path(game.name).read_text(encoding="utf-8")
    for game in registry.games()
}


def _reason_rows(game: str, text: str) -> dict[str, str]:
    """{reason's short name: the rules cell} of every table row whose first
    cell names reasons of the game's own enum."""
    field = game_pb2.Rejection.DESCRIPTOR.fields_by_name[game]
    names = {v.name.partition("REJECTION_REASON_")[2] for v in field.enum_type.values}
    rows: dict[str, str] = {}
    for reasons, rules in re.findall(r"^\|([^|\n]+)\|([^|\n]+)\|\s*$", text, re.M):
        for name in set(re.findall(r"[A-Z][A-Z0-9_]+", reasons)) & names:
            rows[name] = rows.get(name, "") + rules
    return rows


REASON_ROWS = {game: _reason_rows(game, text) for game, text in RULES_MD.items()}


def mentions(text: str, name: str) -> bool:
    """`name` stands in `text` as a whole name: "C3" is not found in "C3.1"
    nor "§1.1" in "§1.10"."""
    return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-]|\.\w)", text) is not None


def unresolved(game: str, rejection: game_pb2.Rejection) -> str | None:
    """Why the rule `rejection` of `game` cites points nowhere, or not where
    RULES.md's table of rejections says; None when it is right."""
    number = getattr(rejection, game) if rejection.reason == GAME_RULE else 0
    return _unresolved(game, rejection.rule, number)


GAME_RULE = game_pb2.REJECTION_REASON_GAME_RULE


@cache  # a search of a whole RULES.md costs ~0.1 ms; the suite asks thousands of times
def _unresolved(game: str, rule: str, number: int) -> str | None:
    """`unresolved` for a rule and a game reason's number (0: a shared reason)."""
    if rule == ENGINE:
        return None
    if not mentions(RULES_MD[game], rule):
        return f"cites rule {rule!r}, which {game}'s RULES.md does not name"
    if not number:
        return None
    field = game_pb2.Rejection.DESCRIPTOR.fields_by_name[game]
    reason = field.enum_type.values_by_number[number].name.partition("REJECTION_REASON_")[2]
    row = REASON_ROWS[game].get(reason)
    if row is None:
        return f"is {reason}, which {game}'s RULES.md has no row of rejections for"
    if not mentions(row, rule):
        return f"is {reason} citing {rule!r}; {game}'s RULES.md gives it{row.rstrip()}"
    return None
