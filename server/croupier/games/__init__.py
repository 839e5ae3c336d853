"""One package per game; each registers through the `croupier.games` entry
points of pyproject.toml (engine/registry.py loads them)."""
