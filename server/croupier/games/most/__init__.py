"""«Мост» (its RULES.md states the rules): the source's rules with every
resolution of the document, every silent point an option, two presets.

Registered through the `croupier.games` entry point (pyproject.toml).
"""

from croupier.games.most.game import Most

GAME = Most()
