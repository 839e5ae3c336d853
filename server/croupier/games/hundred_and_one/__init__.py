"""The 101 family (RULES.md): one game, four versions as presets.

Registered through the `croupier.games` entry point (pyproject.toml).
"""

from croupier.games.hundred_and_one.game import HundredAndOne

GAME = HundredAndOne()
