"""The messages and stubs of the croupier.v1 contract: the Python client's
generated modules (croupier_client.v1, made by `make proto` through
clients/python/generate.py), shared, not generated twice. One copy means one
set of types: a state the server's code builds is the type the client's
match loop takes, for mypy as at run time. `import croupier.v1.game_pb2`
works too (the modules are registered under both names).
"""

import sys

from croupier_client.v1 import (
    bot_pb2,
    bot_pb2_grpc,
    cards_pb2,
    cards_pb2_grpc,
    counting_pb2,
    counting_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    hundred_and_one_pb2,
    hundred_and_one_pb2_grpc,
    most_pb2,
    most_pb2_grpc,
    options_pb2,
    options_pb2_grpc,
    scala40_pb2,
    scala40_pb2_grpc,
    service_pb2,
    service_pb2_grpc,
    uno_pb2,
    uno_pb2_grpc,
)

for _name, _module in list(globals().items()):
    if _name.endswith(("_pb2", "_pb2_grpc")):
        sys.modules[f"{__name__}.{_name}"] = _module

__all__ = [
    "bot_pb2",
    "bot_pb2_grpc",
    "cards_pb2",
    "cards_pb2_grpc",
    "counting_pb2",
    "counting_pb2_grpc",
    "game_pb2",
    "game_pb2_grpc",
    "hundred_and_one_pb2",
    "hundred_and_one_pb2_grpc",
    "most_pb2",
    "most_pb2_grpc",
    "options_pb2",
    "options_pb2_grpc",
    "scala40_pb2",
    "scala40_pb2_grpc",
    "service_pb2",
    "service_pb2_grpc",
    "uno_pb2",
    "uno_pb2_grpc",
]
