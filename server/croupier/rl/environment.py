"""Every Croupier game as a PettingZoo AEC environment (README.md beside this file).

    from croupier.rl import env
    e = env(game="uno", preset="seed", seats=2)
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = e.action_space(agent).sample(mask)
        e.step(action)

The game runs in-process on a live `Session` (engine/session.py): the same
rules as the service, each move made in place. An agent sees only its seat's
`View` (the observation is computed from it, never from the state).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from croupier.engine import api, registry
from croupier.engine.session import Session
from croupier.rl.games import action_scheme, adapter_of
from croupier.rl.turns import asking_order
from croupier.v1 import game_pb2, service_pb2

AgentID = str
Observation = dict[str, np.ndarray]

REWARD_MODES = ("match", "deal")
RENDER_MODES = ("ansi", "human")
DEFAULT_MAX_STEPS = 100_000
_SEED_LIMIT = 2**63  # game seeds drawn for an unseeded reset (uint64, kept positive)
_DEAL_OVER = game_pb2.MATCH_PHASE_DEAL_OVER
_MATCH_OVER = game_pb2.MATCH_PHASE_MATCH_OVER


def agent_name(seat: int) -> AgentID:
    return f"player_{seat}"


class raw_env(AECEnv[AgentID, Observation, int | None]):  # noqa: N801 - PettingZoo's name
    """One Croupier match as an AEC environment (module docstring, README.md).

    game, preset, seats, options: the table, as NewGame takes it (options by
    name, over the preset's). reward: "match" (+1 to each match winner, -1
    to every other seat, when the match ends) or "deal" (the same by each
    deal's winners, when each deal ends). max_steps: the episode is
    truncated after that many steps. max_actions: N for the games whose
    actions index the listing (Scala 40, «Мост»).
    """

    metadata = {
        "name": "croupier_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "hundred_and_one",
        preset: str = "",
        seats: int = 2,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        reward: str = "match",
        max_steps: int = DEFAULT_MAX_STEPS,
        max_actions: int | None = None,
    ) -> None:
        super().__init__()
        found = registry.find(game)
        if found is None:
            known = ", ".join(g.name for g in registry.games())
            raise ValueError(f"unknown game {game!r}; known: {known}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human'; got {render_mode!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}; got {reward!r}")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a positive int; got {max_steps!r}")
        self.game = found
        self.preset = preset
        self.seat_count = seats
        # Agents playing each other are a match between programs: the game's
        # bound (C-M-4: «Мост»'s max_deals) unless the table sets it.
        self.table_options = registry.bounded(found.name, options)
        self.render_mode = render_mode
        self.reward_mode = reward
        self.max_steps = max_steps
        # A first deal checks the table (unknown preset, seats, options: the
        # engine's precise errors) and gives the resolved options.
        first = self._new_session(0).state
        adapter = adapter_of(found.name)
        self.encoder = adapter.encoder(seats, getattr(first.options, found.name))
        self.actions = action_scheme(found, first, max_actions)
        self.possible_agents = [agent_name(seat) for seat in range(seats)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = self.encoder.low, self.encoder.high
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(
                    0, 1, shape=(self.actions.size,), dtype=np.int8
                ),
            }
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(self.actions.size) for agent in self.possible_agents
        }
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self._session: Session | None = None
        # The episode (reset and _start fill them).
        self.agents: list[AgentID] = []
        self.rewards: dict[AgentID, float] = {}
        self._cumulative_rewards: dict[AgentID, float] = {}
        self.terminations: dict[AgentID, bool] = {}
        self.truncations: dict[AgentID, bool] = {}
        self.infos: dict[AgentID, dict[str, Any]] = {}
        self._steps = 0
        self._ended = False
        # The position: every acting seat's moves, the seats still to ask
        # (turns.py), the asked seat's actions and the move of each.
        self._legal: dict[int, list[service_pb2.LegalMove]] = {}
        self._queue: list[int] = []
        self._offered: list[int] = []
        self._by_action: dict[int, service_pb2.LegalMove] = {}
        self._views: dict[int, game_pb2.View] = {}
        self._observations: dict[AgentID, Observation] = {}

    # -- PettingZoo's API -----------------------------------------------------------

    def observation_space(self, agent: AgentID) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match. With `seed`, the match's deal seed is `seed` itself
        (the same deals as NewGame or `croupier play` with that seed), and
        later unseeded resets draw theirs from it; without, the next seed of
        the environment's generator. `options` is accepted as PettingZoo's
        API passes it and is not used: the table's options are the
        constructor's."""
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self.np_random.integers(0, _SEED_LIMIT))
        self._start(self._new_session(game_seed))

    def start_from(self, state: game_pb2.GameState) -> None:
        """Like `reset`, but from a given state of this table (checked in
        full): a curriculum's positions, or a test's. The state must be of
        this environment's game and seat count."""
        if state.game != self.game.name or len(state.seats) != self.seat_count:
            raise ValueError(
                f"this environment plays {self.game.name} at {self.seat_count} seats; "
                f"the state is {state.game!r} at {len(state.seats)}"
            )
        self._start(Session(state))

    def observe(self, agent: AgentID) -> Observation:
        """The agent's observation: its view encoded, and its action mask
        (all zeros unless it is the agent to act)."""
        cached = self._observations.get(agent)
        if cached is None:
            seat = self._seats[agent]
            asked = agent == self.agent_selection and not self._ended
            view = self._view_of(seat)
            out_of_turn = asked and len(self._queue) > 1
            mask = np.zeros(self.actions.size, dtype=np.int8)
            if asked:
                mask[self._offered] = 1
                if out_of_turn:
                    mask[self.actions.decline] = 1
            cached = {"observation": self.encoder.encode(view, out_of_turn), "action_mask": mask}
            self._observations[agent] = cached
        return cached

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._checked(agent, action)
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._steps += 1
        if chosen is None:  # DECLINE: the next seat of the position is asked
            self._queue.pop(0)
            self._select()
        else:
            session = self._live()
            session.play(chosen)
            self._after_move()
        if not self._ended and self._steps >= self.max_steps:
            self._end(truncated=True)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """In "ansi" mode, the text of what the agent to act sees (its view's line),
        with the deal and the scores; "human": the same, printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; nothing to render")
            return None
        session = self._live()
        state = session.position
        seat = self._seats.get(self.agent_selection, state.current_seat)
        view = self._view_of(seat)
        scores = ", ".join(f"P{i} {s.score}" for i, s in enumerate(state.seats))
        text = (
            f"{self.game.name} deal {state.match.deal_number}, move {state.move_number} | "
            f"scores {scores}\n{agent_name(seat)}: {self.game.view_text(view)}"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._session = None

    # -- the match -------------------------------------------------------------------

    @property
    def state(self) -> game_pb2.GameState:
        """The match's full state now (hidden cards included: for tests and
        tooling, never for an agent)."""
        return self._live().state

    def _new_session(self, seed: int) -> Session:
        return Session.new(
            self.game.name,
            preset=self.preset,
            seat_count=self.seat_count,
            seed=seed,
            options=self.table_options,
        )

    def _live(self) -> Session:
        if self._session is None:
            raise RuntimeError("call reset() before using the environment")
        return self._session

    def _start(self, session: Session) -> None:
        self._session = session
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._steps = 0
        self._ended = False
        self._views = {}
        self._observations = {}
        self._skip_agent_selection = None
        self._after_move(initial=True)

    def _after_move(self, initial: bool = False) -> None:
        """Score what the last move ended, deal on, and ask the next seat."""
        session = self._live()
        self._views = {}
        phase = session.position.match.phase
        if phase in (_DEAL_OVER, _MATCH_OVER) and not initial:
            self._reward_deal(session.position)
        if session.over:
            self._end(truncated=False)
            return
        if session.deal_over:
            session.next_deal()
            self._views = {}
        legal = {seat: session.legal_moves(seat) for seat in session.acting_seats}
        movers = {seat for seat, moves in legal.items() if moves}
        self._legal = legal
        self._queue = asking_order(movers, session.position.current_seat, self.seat_count)
        self._select()

    def _select(self) -> None:
        """Make the head of the queue the agent to act, with its infos."""
        seat = self._queue[0]
        agent = self.agent_selection = agent_name(seat)
        moves = self._legal[seat]
        actions = self.actions.actions_of(seat, moves)
        self._offered = actions
        self._by_action = dict(zip(actions, moves, strict=True))
        self._observations = {}
        for other in self.agents:
            self.infos[other] = {}
        self.infos[agent] = {
            "view": self._view_of(seat),
            "moves": list(moves),
            "legal_moves": [move.notation for move in moves],
            "legal_actions": actions,
            "out_of_turn": len(self._queue) > 1,
            "steps": self._steps,
        }

    def _reward_deal(self, state: game_pb2.GameState) -> None:
        match = state.match
        if self.reward_mode == "deal":
            winners = set(match.deal_winners)
        elif match.phase == _MATCH_OVER:
            winners = set(match.winners)
        else:
            return
        for agent in self.agents:
            self.rewards[agent] = 1.0 if self._seats[agent] in winners else -1.0

    def _end(self, truncated: bool) -> None:
        """The match is over (or cut short): every agent is done, and every
        agent's infos hold its final view."""
        self._ended = True
        self._observations = {}
        flags = self.truncations if truncated else self.terminations
        for agent in self.agents:
            flags[agent] = True
            self.infos[agent] = {"view": self._view_of(self._seats[agent]), "steps": self._steps}
        self.agent_selection = self.agents[0]

    def _view_of(self, seat: int) -> game_pb2.View:
        view = self._views.get(seat)
        if view is None:
            session = self._live()
            view = self._views[seat] = game_pb2.View()
            api.fill_view(self.game, session.state, seat, view)
        return view

    def _checked(self, agent: AgentID, action: int | None) -> service_pb2.LegalMove | None:
        """The move `action` stands for (None: DECLINE); ValueError naming the
        legal actions when it is not one of them."""
        if action is None or isinstance(action, bool):
            raise ValueError(f"{agent} must act: give one of {self._legal_actions()}")
        try:
            number = int(action)
        except (TypeError, ValueError):
            raise ValueError(f"an action is an int; got {action!r}") from None
        if number != action:
            raise ValueError(f"an action is an int; got {action!r}")
        if number == self.actions.decline and len(self._queue) > 1:
            return None
        move = self._by_action.get(number)
        if move is None:
            raise ValueError(
                f"action {number} is not legal for {agent} now; legal: {self._legal_actions()}"
            )
        return move

    def _legal_actions(self) -> list[int]:
        offered = sorted(self._offered)
        return offered + [self.actions.decline] if len(self._queue) > 1 else offered


def env(**kwargs: Any) -> AECEnv[AgentID, Observation, int | None]:
    """`raw_env(**kwargs)` inside PettingZoo's standard wrappers: OrderEnforcing
    (reset before use, no stepping after the end). The action checks are the
    raw environment's own (precise errors), so no mask wrapper is needed."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
