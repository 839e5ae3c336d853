"""Croupier's own structure-aware fuzzer (`make fuzz`, deploy/fuzz/README.md).

corpus.py  real requests of every RPC (CroupierService, BotService) from
           seeded playouts of every game
mutate.py  descriptor-driven mutations (and byte-level ones), as data
cases.py   a fuzz input = a real request + its mutations; drawing, shrinking
oracle.py  the verdicts, in-process over engine.api and the built-in bots
live.py    the same through a real channel to `croupier serve`, both ports
web.py     its browser port: Connect (binary, JSON mangled or not), gRPC-Web
run.py     the budgeted, seeded phases; report.py the report; cli.py the command

It imports the engine, the service's error map and built-in bots, and the
client's playout loop; nothing in server/ imports it.
"""
