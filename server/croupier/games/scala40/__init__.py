"""Scala 40 (rummy_and_counting.md part 1): the FISC rules by default, every
variant of the sources an option, three presets.

Registered through the `croupier.games` entry point (pyproject.toml).
"""

from croupier.games.scala40.game import Scala40

GAME = Scala40()
