"""The observation is the seat's view, never the state: two states that
differ only in cards the seat may not see give it the same observation,
mask and infos.

Positions come from seeded random episodes. The second state swaps a card
between two places hidden from the observer — an opponent's hand and the
stock, or two opponents' hands — each card one the observer may not see
anywhere (`Game.visible_cards`, the conformance suite's leak hook), and the
engine's full check must accept it (`Session` checks a state it is given).
A control swaps one of the observer's own cards instead: that observation
must change, or the comparison would prove nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import numpy as np
import pytest

from croupier.engine import api, registry
from croupier.engine.errors import InvalidInput
from croupier.rl import raw_env
from croupier.v1 import game_pb2
from rl.tables import Table, every_game, random_episode

JUMP_IN = Table("uno", "seed", 3, {"jump_in": True, "target": 60})
CHECKED_STEPS = (3, 20, 45)

# A place cards lie in: ("hands", seat) or ("stock", 0).
Place = tuple[str, int]


def _cards(state: game_pb2.GameState, place: Place):  # type: ignore[no-untyped-def]
    deal = getattr(state, state.game)
    return deal.hands[place[1]].cards if place[0] == "hands" else deal.stock


def swapped(
    state: game_pb2.GameState, viewer: int, places: list[Place], *, hidden: bool = True
) -> Iterator[game_pb2.GameState]:
    """Valid copies of `state` with one card of one place exchanged for a
    different card of another; with `hidden`, only cards `viewer` sees nowhere."""
    game = registry.find(state.game)
    assert game is not None
    visible = game.visible_cards(state, viewer)
    for first, second in combinations(places, 2):
        a, b = _cards(state, first), _cards(state, second)
        for i, c in enumerate(a):
            if hidden and visible[c]:
                continue
            for j, d in enumerate(b):
                if d == c or visible[d]:
                    continue
                copy = game_pb2.GameState()
                copy.CopyFrom(state)
                _cards(copy, first)[i], _cards(copy, second)[j] = d, c
                try:
                    api.check_state(copy)
                except InvalidInput:
                    continue  # e.g. a drawn card that must stay in its hand
                yield copy


def asked_observation(env: raw_env, state: game_pb2.GameState, viewer: int):  # type: ignore[no-untyped-def]
    """The viewer's observation and info when it is asked in `state`: seats
    asked before it (holding a jump-in card the other state has elsewhere)
    decline, as they may."""
    env.start_from(state)
    agent = f"player_{viewer}"
    while env.agent_selection != agent:
        assert env.observe(env.agent_selection)["action_mask"][env.actions.decline]
        env.step(env.actions.decline)
    info = env.infos[agent]
    return env.observe(agent), info["legal_moves"], info["view"]


def positions(table: Table) -> Iterator[tuple[game_pb2.GameState, int]]:
    env = table.env()
    for steps in CHECKED_STEPS:
        random_episode(env, 17, max_steps=steps)
        if env.agents:
            yield env.state, int(env.agent_selection.split("_")[1])


@pytest.mark.parametrize("table", [*every_game(), JUMP_IN], ids=lambda t: t.id)
def test_hidden_cards_never_change_the_observation(table: Table) -> None:
    check_no_leak(table)


def test_a_planted_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """An environment whose views show the next seat's hand as the viewer's
    own fails the check: the check can fail."""
    honest = raw_env._view_of

    def leaky(self: raw_env, seat: int) -> game_pb2.View:
        view = honest(self, seat)
        state = self.state
        nxt = (seat + 1) % len(state.seats)
        leaked = game_pb2.View()
        leaked.CopyFrom(view)
        del leaked.hundred_and_one.hand[:]
        leaked.hundred_and_one.hand.extend(state.hundred_and_one.hands[nxt].cards)
        return leaked

    monkeypatch.setattr(raw_env, "_view_of", leaky)
    with pytest.raises(AssertionError, match="LEAK: .* the observation changes"):
        check_no_leak(Table("hundred_and_one", "hd", 2))


def check_no_leak(table: Table) -> None:
    env, other = table.env(), table.env()
    compared = controls = 0
    for state, viewer in positions(table):
        seats = len(state.seats)
        opponents = [("hands", s) for s in range(seats) if s != viewer]
        original = asked_observation(env, state, viewer)
        for changed in list(swapped(state, viewer, [*opponents, ("stock", 0)]))[:3]:
            assert changed.SerializeToString() != state.SerializeToString()
            observation, legal, view = asked_observation(other, changed, viewer)
            where = f"{table.id}, seat {viewer} at move {state.move_number}"
            assert np.array_equal(observation["observation"], original[0]["observation"]), (
                f"LEAK: {where}: the observation changes with a hidden card"
            )
            assert np.array_equal(observation["action_mask"], original[0]["action_mask"]), (
                f"LEAK: {where}: the mask changes with a hidden card"
            )
            assert legal == original[1], f"LEAK: {where}: the legal moves change"
            assert view == original[2], f"LEAK: {where}: the view changes"
            compared += 1
        own = [("hands", viewer), ("stock", 0), *opponents]
        for changed in list(swapped(state, viewer, own, hidden=False))[:1]:
            observation, *_ = asked_observation(other, changed, viewer)
            assert not np.array_equal(observation["observation"], original[0]["observation"])
            controls += 1
    assert compared and controls, f"{table.id}: no position had a hidden swap to compare"
