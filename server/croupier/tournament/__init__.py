"""The bot tournament harness: `croupier tournament` and `croupier replay`.

Many matches between bots through a Croupier server, driven in batches:
P matches are in flight at once, and at every round each connection ("lane")
sends one ApplyMoveBatch holding one move of every match of its share that
awaits one. Every match is saved as one JSON line (its moves and the digest
of every state), which `croupier replay` plays again through the engine
in-process and checks byte for byte.

Modules, in the order a run uses them:

- `settings`: the command line and what it resolves to;
- `entrants`: the bots taking part (`--bot [NAME=]SPEC`);
- `schedule`: who sits where in each match (seeded draw, seat rotation);
- `local_server`: `--serve W`, a `croupier serve` subprocess, and its CPU time;
- `wire`: the ApplyMoveBatch request built from bytes, and the state digest;
- `match`: one match in flight and the record it accumulates;
- `driver`: the lanes, rounds, bot calls and faults;
- `records`: the JSON-lines record format (written in match order);
- `standings`: wins, Wilson intervals, faults and openskill ratings;
- `report`: REPORT.md, results.json and the plot;
- `run` and `replay`: the two commands.
"""
