"""The 101 family (shedding.md §1): one game, four versions as presets."""

from croupier.engine.registry import register
from croupier.games.hundred_and_one.game import HundredAndOne

GAME = register(HundredAndOne())
