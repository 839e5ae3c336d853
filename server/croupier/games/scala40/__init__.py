"""Scala 40 (its RULES.md states the rules): the FISC rules by default, every
variant of the sources an option, three presets.

Registered through the `croupier.games` entry point (pyproject.toml).
"""

from croupier.games.scala40.game import Scala40

GAME = Scala40()
