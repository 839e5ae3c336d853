"""Card conservation: a state holds exactly the deck it started with.

Every state pays for `holds_exactly`; only a broken one pays for
`check_conservation` naming what is wrong. Both are bounded by the deck, not
by what a client sent: a state holding far more cards than its deck is
refused on its size alone (lengths of repeated fields are free to read), and
a list of problems is cut after `MAX_VIOLATIONS` entries (issue 7, item 4: an
800,000-card hand once cost seconds of CPU and a 58 MB error).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import NoReturn

from croupier.engine.cards import FRENCH, CardFamily
from croupier.engine.errors import InvalidInput

# How many problems an error lists before "… and N more".
MAX_VIOLATIONS = 10
# A state holding more than this many times its deck is refused by its size
# alone: below it a surplus (a duplicated card) is worth naming card by card,
# and the counting stays in proportion to the deck.
OVERSIZE_FACTOR = 2


def holds_exactly(zones: Sequence[Sequence[int]], deck: Sequence[int]) -> bool:
    """Whether the zones together hold exactly `deck` (sorted): the fast test
    every state pays, one sort in C and a list comparison, and nothing at all
    when the number of cards is wrong."""
    held = 0
    for zone in zones:
        held += len(zone)
    if held != len(deck):
        return False
    cards: list[int] = []
    for zone in zones:
        cards += zone[:]  # a slice of a repeated field is built in C, faster than iterating
    cards.sort()
    return cards == deck


# Fields named in a duplicate card's message, at most.
_PLACES = 4


def check_conservation(
    zones: Sequence[tuple[str, Sequence[int]]],
    deck: Sequence[int],
    parent: str,
    text: CardFamily | Callable[[int], str] = FRENCH,
) -> None:
    """Raise InvalidInput unless the zones together hold exactly `deck` (sorted).

    `zones` are (field path, cards) pairs; a duplicated or foreign card is
    reported at the first field where it stands (a duplicate's message names
    every field holding it: which copy is one too many is the caller's to
    say), a missing one at `parent`. Cards
    are named by `text`, the game's card family (or its text function), so a
    UNO game's errors speak of "R7", not of the French card with that number.
    A state with more than OVERSIZE_FACTOR times the deck's cards is refused
    by its size, without reading a card; at most MAX_VIOLATIONS problems are
    listed, then one "… and N more".
    """
    if holds_exactly([cards for _, cards in zones], deck):
        return
    name = text.text if isinstance(text, CardFamily) else text
    size = len(deck)
    held = sum(len(cards) for _, cards in zones)
    if held > OVERSIZE_FACTOR * size:
        problems = [
            (f, f"holds {len(c)} cards; this game's deck has {size}")
            for f, c in zones
            if len(c) > size
        ]
        _refuse(problems or [(parent, f"holds {held} cards; this game's deck has {size}")], parent)
    seen: Counter[int] = Counter()
    where: dict[int, list[str]] = {}  # each field a card stands in, once each
    expected = Counter(deck)
    for field, cards in zones:
        for value in cards:
            seen[value] += 1
            fields = where.setdefault(value, [])
            if not fields or fields[-1] != field:
                fields.append(field)
    if seen == expected:
        return
    problems = []
    for value in sorted(seen):
        extra = seen[value] - expected.get(value, 0)
        if extra > 0:
            if value not in expected:
                what = "is not in this game's deck"
            else:
                places = ", ".join(where[value][:_PLACES]) + (
                    ", …" if len(where[value]) > _PLACES else ""
                )
                what = (
                    f"appears too often: {seen[value]} copies, the deck has "
                    f"{expected[value]} (in {places})"
                )
            problems.append((where[value][0], f"card {name(value)} ({value}) {what}"))
    for value in sorted(expected):
        if seen.get(value, 0) < expected[value]:
            problems.append((parent, f"card {name(value)} is missing"))
    _refuse(problems, parent)


def _refuse(problems: list[tuple[str, str]], parent: str) -> NoReturn:
    """Raise InvalidInput with the first MAX_VIOLATIONS problems, then one
    entry at `parent` counting the rest."""
    shown = problems[:MAX_VIOLATIONS]
    if len(problems) > MAX_VIOLATIONS:
        shown.append((parent, f"… and {len(problems) - MAX_VIOLATIONS} more"))
    raise InvalidInput(*shown[0], *shown[1:])
