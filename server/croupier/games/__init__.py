"""One package per game; importing this package registers every game."""

from croupier.games import hundred_and_one  # noqa: F401
