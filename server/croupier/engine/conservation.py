"""Card conservation: a state holds exactly the deck it started with."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from croupier.engine.cards import card_text
from croupier.engine.errors import InvalidInput


def holds_exactly(zones: Sequence[Sequence[int]], deck: Sequence[int]) -> bool:
    """Whether the zones together hold exactly `deck` (sorted): the fast test
    every state pays, one sort in C and a list comparison."""
    cards: list[int] = []
    for zone in zones:
        cards += zone[:]  # a slice of a repeated field is built in C, faster than iterating
    cards.sort()
    return cards == deck


def check_conservation(
    zones: Sequence[tuple[str, Sequence[int]]], deck: Sequence[int], parent: str
) -> None:
    """Raise InvalidInput unless the zones together hold exactly `deck` (sorted).

    `zones` are (field path, cards) pairs; a duplicated or foreign card is
    reported at the field where it stands, a missing one at `parent`.
    """
    if holds_exactly([cards for _, cards in zones], deck):
        return
    seen: Counter[int] = Counter()
    where: dict[int, str] = {}
    for field, cards in zones:
        for value in cards:
            seen[value] += 1
            where.setdefault(value, field)
    expected = Counter(deck)
    if seen == expected:
        return
    problems: list[tuple[str, str]] = []
    for value in sorted(seen):
        extra = seen[value] - expected.get(value, 0)
        if extra > 0:
            what = "is not in this game's deck" if value not in expected else "appears too often"
            problems.append((where[value], f"card {card_text(value)} ({value}) {what}"))
    for value in sorted(expected):
        if seen.get(value, 0) < expected[value]:
            problems.append((parent, f"card {card_text(value)} is missing"))
    raise InvalidInput(*problems[0], *problems[1:])
