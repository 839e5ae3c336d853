"""Python client of Croupier: a typed client over the generated stubs
(`client`), bots that choose among ListLegalMoves' answer (`bots`), and the
`croupier demo` match runner (`demo`).

The package depends on the generated `croupier.v1` messages only, never on
the server's code, so it works against any Croupier replica.
"""

from croupier_client.bots import Bot, RandomBot
from croupier_client.client import (
    CroupierClient,
    CroupierError,
    option_settings,
    option_value,
    state_of,
)

__all__ = [
    "Bot",
    "CroupierClient",
    "CroupierError",
    "RandomBot",
    "option_settings",
    "option_value",
    "state_of",
]
