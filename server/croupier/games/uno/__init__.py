"""UNO (shedding.md §2): the seed's rules and Mattel's as presets, every house
rule an option, out-of-turn play through the acting seats.

Not yet in the `croupier.games` entry points: tests register it themselves.
"""

from croupier.games.uno.game import Uno

GAME = Uno()
