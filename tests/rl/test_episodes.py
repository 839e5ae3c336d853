"""Whole episodes: they end, they replay, the mask is the legal moves, the
rewards are the match's result, and bad input gets a precise error."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.rl import raw_env
from croupier.rl.actions import DECLINE_TEXT
from croupier.rl.turns import asking_order
from croupier.v1 import game_pb2, service_pb2
from rl.tables import Table, every_game, random_episode

# UNO with jump-ins: every card that lands opens a window for the others,
# so DECLINE is offered all the time.
JUMP_IN = Table("uno", "seed", 3, {"jump_in": True, "target": 60})


@pytest.mark.parametrize("table", every_game(), ids=lambda t: t.id)
def test_a_random_episode_reaches_the_end_of_the_match(table: Table) -> None:
    env = table.env()
    rng = np.random.default_rng(11)
    env.reset(seed=11)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert not truncated, f"{table.id} was truncated after {env.max_steps} steps"
            final[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    state = env.state
    assert state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert not env.agents
    winners = set(state.match.winners)
    assert final == {f"player_{s}": 1.0 if s in winners else -1.0 for s in range(table.seats)}


@pytest.mark.parametrize("table", [*every_game(), JUMP_IN], ids=lambda t: t.id)
def test_the_same_seed_gives_the_same_episode(table: Table) -> None:
    def episode(seed: int) -> tuple[list[int], str, bytes]:
        digest = hashlib.sha256()

        def record(env: raw_env, agent: str, observation: dict[str, np.ndarray], _: int) -> None:
            digest.update(agent.encode())
            digest.update(observation["observation"].tobytes())
            digest.update(observation["action_mask"].tobytes())

        env = table.env()
        actions = random_episode(env, seed, max_steps=150, on_step=record)
        return actions, digest.hexdigest(), env.state.SerializeToString()

    first = episode(5)
    assert episode(5) == first
    assert episode(6)[2] != first[2]


@pytest.mark.parametrize("table", [*every_game(), JUMP_IN], ids=lambda t: t.id)
def test_the_action_mask_is_the_legal_moves(table: Table) -> None:
    """At every step the mask names exactly the moves ListLegalMoves lists
    for the seat (the RPC path, not the session the environment plays on),
    plus DECLINE exactly when the seat is asked out of turn."""
    declined = 0

    def check(env: raw_env, agent: str, observation: dict[str, np.ndarray], action: int) -> None:
        nonlocal declined
        state = env.state
        seat = int(agent.split("_")[1])
        listed = api.list_legal_moves(
            service_pb2.ListLegalMovesRequest(state=state, seat=seat)
        ).moves
        legal = {move.notation for move in listed}
        mask = np.flatnonzero(observation["action_mask"]).tolist()
        scheme = env.actions
        decline = scheme.decline in mask
        named = [a for a in mask if a != scheme.decline]
        if scheme.stable:
            assert {scheme.describe(seat, a) for a in named} == legal
        else:
            assert named == list(range(len(listed)))
        movers = {
            s
            for s in state.acting_seats
            if api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=state, seat=s)).moves
        }
        turn = asking_order(movers, state.current_seat, len(state.seats))[-1]
        assert decline == (seat != turn), "DECLINE is for the seats asked out of turn"
        info = env.infos[agent]
        assert info["legal_moves"] == [move.notation for move in listed]
        assert info["out_of_turn"] == decline
        declined += action == scheme.decline

    for seed in (1, 2):
        random_episode(table.env(), seed, max_steps=200, on_step=check)
    if table is JUMP_IN:
        assert declined, "the jump-in table never declined: the windows were not exercised"


def test_stable_actions_mean_the_same_move_from_every_seat() -> None:
    """One vocabulary per seat, the same length; a move naming another seat
    names it relative to the mover; the last action is DECLINE."""
    scheme = raw_env(game="uno", preset="seed", seats=4).actions
    words = {seat: [scheme.describe(seat, a) for a in range(scheme.size)] for seat in range(4)}
    catches = {seat: [w for w in words[seat] if w.startswith("CATCH")] for seat in range(4)}
    assert catches[0] == ["CATCH 1", "CATCH 2", "CATCH 3"]
    assert catches[2] == ["CATCH 3", "CATCH 0", "CATCH 1"]  # +1, +2, +3 from seat 2
    assert words[0][0] == words[3][0] == "R0"
    assert words[0].index("DRAW") == words[3].index("DRAW")
    assert {w[-1] for w in words.values()} == {DECLINE_TEXT}


def test_declining_asks_the_next_seat_and_changes_nothing() -> None:
    env = JUMP_IN.env()
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    for _ in range(500):
        observation, *_ = env.last()
        mask = observation["action_mask"]
        if mask[env.actions.decline]:
            break
        env.step(int(rng.choice(np.flatnonzero(mask))))
    else:
        pytest.fail("no out-of-turn chance in 500 steps")
    before = env.state.SerializeToString()
    asked = env.agent_selection
    env.step(env.actions.decline)
    assert env.state.SerializeToString() == before
    assert env.agent_selection != asked
    assert not env.observe(asked)["action_mask"].any()


def test_deal_rewards_follow_each_deals_winners() -> None:
    """reward="deal": the step that ends a deal gives +1 to its winners and
    -1 to the others (the next deal is dealt within the same step, and the
    record keeps the last deal's winners while it is played)."""
    env = raw_env(game="hundred_and_one", preset="hd", seats=3, reward="deal")
    rng = np.random.default_rng(4)
    env.reset(seed=4)
    deals_scored = 0
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if any(env.rewards.values()):
            deals_scored += 1
            winners = set(env.state.match.deal_winners)
            assert env.rewards == {
                f"player_{s}": 1.0 if s in winners else -1.0 for s in range(3)
            }, agent
    assert deals_scored == env.state.match.deal_number > 1


def test_truncation_after_max_steps() -> None:
    env = raw_env(game="scala40", preset="fisc", seats=2, max_steps=10)
    actions = random_episode(env, 1)
    assert len(actions) == 10
    assert env.state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    assert not env.agents


def test_an_illegal_action_is_refused_naming_the_legal_ones() -> None:
    env = raw_env(game="hundred_and_one", preset="hd", seats=2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=rf"action {illegal} is not legal .* legal: \["):
        env.step(illegal)
    with pytest.raises(ValueError, match="must act"):
        env.step(None)
    with pytest.raises(ValueError, match="an action is an int"):
        env.step(1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"game": "poker"}, ValueError, "unknown game 'poker'; known: .*uno"),
        ({"game": "uno", "preset": "house"}, InvalidInput, "unknown preset 'house'"),
        ({"game": "uno", "seats": 11}, InvalidInput, "seats 2 to 10; got 11"),
        ({"game": "uno", "options": {"target": 0}}, InvalidInput, "target must be from 1"),
        ({"game": "uno", "reward": "points"}, ValueError, "reward must be one of match, deal"),
        ({"game": "uno", "max_steps": 0}, ValueError, "max_steps must be a positive int"),
        ({"game": "uno", "max_actions": 64}, ValueError, "max_actions applies only"),
        ({"game": "most", "max_actions": 0}, ValueError, "max_actions must be at least 1"),
        ({"game": "uno", "render_mode": "rgb_array"}, ValueError, "render_mode must be"),
    ],
)
def test_bad_arguments_get_precise_errors(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        raw_env(**kwargs)  # type: ignore[arg-type]


def test_render_shows_the_view_of_the_seat_to_act() -> None:
    env = raw_env(game="uno", preset="seed", seats=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    seat = int(env.agent_selection.split("_")[1])
    view = env.infos[env.agent_selection]["view"]
    assert text is not None
    assert text.endswith(f"{env.agent_selection}: {env.game.view_text(view)}")
    assert view.seat == seat and "hand" in text and "deal 1" in text


def test_start_from_checks_the_table() -> None:
    env = raw_env(game="uno", preset="seed", seats=2)
    other = raw_env(game="uno", preset="seed", seats=3)
    other.reset(seed=1)
    with pytest.raises(ValueError, match="plays uno at 2 seats; the state is 'uno' at 3"):
        env.start_from(other.state)
