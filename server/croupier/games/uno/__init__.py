"""UNO (RULES.md): the seed's rules and Mattel's as presets, every house
rule an option, out-of-turn play through the acting seats.

Registered through the `croupier.games` entry point `uno` (pyproject.toml).
"""

from croupier.games.uno.game import Uno

GAME = Uno()
