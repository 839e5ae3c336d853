"""The tables the RL tests play, and a seeded random-masked episode."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from croupier.engine import registry
from croupier.rl.environment import raw_env

# Short matches where the published target makes random play long: UNO to
# 500 points takes 15,000 random moves at 2 seats; to 60, a few thousand.
SHORT_MATCH = {"uno": {"target": 60}}


@dataclass(frozen=True)
class Table:
    game: str
    preset: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def id(self) -> str:
        return f"{self.game}-{self.preset}-{self.seats}"

    def env(self, **kwargs: Any) -> raw_env:
        return raw_env(
            game=self.game, preset=self.preset, seats=self.seats, options=self.options, **kwargs
        )


def fewest_seats(game: str, preset: str) -> int:
    """2 seats, or the fewest the preset allows (the counting games need 3)."""
    found = registry.find(game)
    assert found is not None
    chosen = next(p for p in found.presets if p.name == preset)
    return max(2, found.min_seats, chosen.min_seats)


def every_preset() -> list[Table]:
    """Every registered game x every preset, at the fewest seats."""
    return [
        Table(game.name, preset.name, fewest_seats(game.name, preset.name))
        for game in registry.games()
        for preset in game.presets
    ]


def every_game() -> list[Table]:
    """Every registered game at its default preset, with a short match."""
    return [
        Table(
            game.name,
            game.default_preset,
            fewest_seats(game.name, game.default_preset),
            dict(SHORT_MATCH.get(game.name, {})),
        )
        for game in registry.games()
    ]


Step = Callable[[raw_env, str, dict[str, np.ndarray], int], None]


def random_episode(
    env: raw_env, seed: int, *, max_steps: int | None = None, on_step: Step | None = None
) -> list[int]:
    """Reset with `seed` and play uniformly among the masked actions (a
    generator seeded the same way) until every agent is done, or `max_steps`
    actions; the actions taken. `on_step(env, agent, observation, action)`
    runs before each action."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    taken: list[int] = []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if max_steps is not None and len(taken) >= max_steps:
            break
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        if on_step is not None:
            on_step(env, agent, observation, action)
        env.step(action)
        taken.append(action)
    return taken
