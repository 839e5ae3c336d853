"""The two error families: malformed input, and a move that is illegal here.

A malformed request (a broken state, an unknown option, a move for another
game) is `InvalidInput`, which the service maps to INVALID_ARGUMENT with one
field violation per problem. A well-formed move that the rules forbid is
`IllegalMove`: the service answers OK with a rejection, never an error.
"""

from __future__ import annotations


class InvalidInput(Exception):
    """A request that no rule can be asked about: each violation names a field."""

    def __init__(self, field: str, problem: str, *more: tuple[str, str]) -> None:
        self.violations: list[tuple[str, str]] = [(field, problem), *more]
        super().__init__("; ".join(f"{f}: {p}" for f, p in self.violations))


class FailedPrecondition(Exception):
    """A well-formed request that cannot be served in this state (a newer
    schema, a deal still running when the next one is asked for)."""


class IllegalMove(Exception):
    """The rules forbid this move here.

    `reason` is a value of the game's own rejection enum (e.g.
    HundredAndOneRejectionReason), or, with `common=True`, of the shared
    RejectionReason (a card not in the hand, the gates of `engine.api`).
    `rule` is the id the game's RULES.md defines for the rule (e.g. "C6").
    """

    def __init__(self, reason: int, message: str, rule: str = "", *, common: bool = False) -> None:
        self.reason = reason
        self.message = message
        self.rule = rule
        self.common = common
        super().__init__(message)
