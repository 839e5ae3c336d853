"""Where a rule reference points: into the game's own RULES.md.

Users read a game's RULES.md and nothing else, so every rule a rejection
cites (`Rejection.rule`) and every id of an option's `rule_reference`
("RULES.md O5, A24") must be a name that RULES.md states: a rule id, an
option id, or a section's number ("§1.8" names "## Laying off (§1.8)").
The engine's own gates cite "engine" (game.proto, `Rejection.rule`).
"""

from __future__ import annotations

import re

from croupier import rules_text
from croupier.engine import registry

ENGINE = "engine"

# Each registered game's RULES.md, read before any test registers a stand-in
# under a game's name (test_planted_faults.py): a stand-in's rules are the
# real game's.
RULES_MD: dict[str, str] = {
    game.name: rules_text.rules_path(game.name).read_text(encoding="utf-8")
    for game in registry.games()
}


def mentions(text: str, name: str) -> bool:
    """`name` stands in `text` as a whole name: "C3" is not found in "C3.1"
    nor "§1.1" in "§1.10"."""
    return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-]|\.\w)", text) is not None


def unresolved(game: str, rule: str) -> str | None:
    """Why `rule`, cited by a rejection of `game`, points nowhere; None when
    it is the engine's or RULES.md names it."""
    if rule == ENGINE:
        return None
    if not mentions(RULES_MD[game], rule):
        return f"cites rule {rule!r}, which {game}'s RULES.md does not name"
    return None
