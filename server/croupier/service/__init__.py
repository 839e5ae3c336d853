"""The gRPC service layer: a thin adapter over `croupier.engine.api`.

Modules: `config` (ServerConfig), `server` (building and running one worker),
`handlers` (CroupierService and Health, each call observed, limited and
ended in one code path), `errors` (engine error -> bounded gRPC status),
`decoding` (unparsable requests), `observe` and `metrics` (logs and
Prometheus series per call), `logs` (bounded JSON lines), `supervisor`
(`croupier serve`: the worker processes).
"""
