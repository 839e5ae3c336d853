"""The counting (adding) games: «Сто» with 32 cards, One Hundred and 101
with chips — three games on one package of rules (RULES.md says why).

Registered through the `croupier.games` entry point (pyproject.toml), one
entry per game.
"""

from croupier.games.counting.game import chips_101, one_hundred, sto

STO = sto()
ONE_HUNDRED = one_hundred()
CHIPS_101 = chips_101()
