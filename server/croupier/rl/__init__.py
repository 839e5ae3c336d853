"""Croupier's games for reinforcement learning: PettingZoo AEC environments.

    from croupier.rl import env
    e = env(game="uno", preset="seed", seats=2, options={"target": 100})

`env(...)` is `raw_env(...)` in PettingZoo's OrderEnforcing wrapper. The
decisions (who acts when several seats may, how actions are numbered, what
an observation holds, rewards, episode ends) are in README.md beside this
file. PettingZoo and Gymnasium are imported only when `env` or `raw_env` is
first used, so the turn order (`croupier.rl.turns`, which `croupier play`
shares) imports without them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["env", "raw_env"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from croupier.rl import environment

        return getattr(environment, name)
    raise AttributeError(f"module 'croupier.rl' has no attribute {name!r}")
