"""The gRPC service layer: a thin adapter over `croupier.engine.api`.

Modules: `config` (ServerConfig), `server` (create_server, serve), `servicer`
(CroupierService handlers), `errors` (engine error -> gRPC status),
`decoding` (unparsable requests), `logs` (JSON logging).
"""
