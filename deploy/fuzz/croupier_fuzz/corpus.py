"""Real requests to mutate: seeded playouts of every registered game.

Every game, every preset, a few seat counts and option overrides drawn from
the game's own catalogue are played through the one match loop
(`croupier_client.playout`) on the engine in-process. From the positions
met on the way come the requests of every RPC: the move that was played and
a move that is not legal there (the game's `candidate_moves` hook), the legal
moves, views and default moves of any seat, the next deal of a finished deal,
and the moves refused after it; and for BotService, the ChooseMove request
of the seat that played (its view, its legal moves, a match id). Positions
that end a deal are always kept: that is where scoring, totals and the
match's end are computed.

The corpus is a pure function of its seed.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import message_factory
from google.protobuf.message import Message

from croupier.engine import api, registry
from croupier.engine.errors import InvalidInput
from croupier.engine.options import Value
from croupier.engine.registry import Game
from croupier.inprocess import InProcess
from croupier.v1 import bot_pb2, game_pb2, options_pb2, service_pb2
from croupier_client import playout

# Every RPC of the services, read from their descriptors, so that an RPC added
# to service.proto is fuzzed without a line here: its request and response
# classes, and the engine.api function of the same name (AnalyseHand ->
# analyse_hand) when there is one. The others exist only on the wire (a batch,
# a stream). BotService's RPCs (the built-in bots, croupier.service.bots) are
# judged in-process by the service's own function (oracle.BOT_CALLS).
SERVICE = service_pb2.DESCRIPTOR.services_by_name["CroupierService"]
BOT_SERVICE = bot_pb2.DESCRIPTOR.services_by_name["BotService"]
SERVICES = (SERVICE, BOT_SERVICE)
# An RPC's service by its name (the names are unique across the two services).
SERVICE_OF: dict[str, str] = {m.name: s.full_name for s in SERVICES for m in s.methods}
assert len(SERVICE_OF) == sum(len(s.methods) for s in SERVICES), "an RPC name in two services"
REQUEST_TYPES: dict[str, type[Message]] = {
    m.name: message_factory.GetMessageClass(m.input_type) for s in SERVICES for m in s.methods
}
RESPONSE_TYPES: dict[str, type[Message]] = {
    m.name: message_factory.GetMessageClass(m.output_type) for s in SERVICES for m in s.methods
}
STREAMING = tuple(
    m.name for s in SERVICES for m in s.methods if m.client_streaming or m.server_streaming
)


def engine_function(rpc: str) -> str:
    """The name of the engine.api function of an RPC: ListLegalMoves -> list_legal_moves."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", rpc).lower()


ENGINE_RPCS = tuple(
    m.name
    for m in SERVICE.methods
    if m.name not in STREAMING and callable(getattr(api, engine_function(m.name), None))
)
WIRE_RPCS = tuple(m.name for m in SERVICE.methods if m.name not in ENGINE_RPCS)
BOT_RPCS = tuple(m.name for m in BOT_SERVICE.methods)
# What the in-process phase calls: engine.api, and the built-in bots.
IN_PROCESS_RPCS = (*ENGINE_RPCS, *BOT_RPCS)
# RPCs whose requests are built here with care; any other one that takes a
# state gets one request per position, its other fields filled generically.
_BUILT = ("ListGames", "NewGame", "ApplyMove", "NextDeal")


@dataclass
class Corpus:
    """Serialized real requests by RPC (parse a fresh copy to mutate one)."""

    seed: int
    requests: dict[str, list[bytes]] = field(default_factory=dict)
    # Names the server knows (games, presets, options, enum values): string
    # mutations use them to get past the first lookup.
    names: list[str] = field(default_factory=list)
    # Where each request came from, for reports ("hundred_and_one/hd 3 seats seed 5").
    origins: dict[str, list[str]] = field(default_factory=dict)

    def add(self, rpc: str, request: Message, origin: str) -> None:
        self.requests.setdefault(rpc, []).append(request.SerializeToString())
        self.origins.setdefault(rpc, []).append(origin)

    def request(self, rpc: str, index: int) -> Message:
        """A fresh copy of request `index` of `rpc`."""
        return REQUEST_TYPES[rpc].FromString(self.requests[rpc][index])

    def sizes(self) -> dict[str, int]:
        return {rpc: len(items) for rpc, items in self.requests.items()}


def build(seed: int, *, matches: int = 2, per_match: int = 24, max_moves: int = 400) -> Corpus:
    """The corpus of seed `seed`: `matches` matches per preset of every game,
    `per_match` positions sampled from each (plus every deal-ending one)."""
    rnd = random.Random(seed)
    corpus = Corpus(seed=seed)
    corpus.add("ListGames", service_pb2.ListGamesRequest(), "empty")
    backend = InProcess(trusted=True)
    for game in registry.games():
        corpus.names += _names(game)
        for preset in game.presets:
            low = max(game.min_seats, preset.min_seats)
            high = min(game.max_seats, preset.max_seats)
            for number in range(matches):
                seats = low + number % (high - low + 1) if number < 2 else rnd.randint(low, high)
                overrides = random_overrides(game, rnd) if number % 2 else {}
                match_seed = rnd.randrange(2**32)
                origin = f"{game.name}/{preset.name} {seats} seats seed {match_seed}"
                _add_new_games(corpus, game, preset.name, seats, match_seed, overrides, rnd)
                more = random_overrides(game, rnd) | random_overrides(game, rnd)
                _add_new_games(corpus, game, preset.name, seats, match_seed + 1, more, rnd)
                try:
                    started = backend.new_game(
                        game.name,
                        preset=preset.name,
                        seat_count=seats,
                        seed=match_seed,
                        options=overrides,
                    )
                except InvalidInput:  # overrides that contradict the preset
                    started = backend.new_game(
                        game.name, preset=preset.name, seat_count=seats, seed=match_seed
                    )
                steps: list[playout.Step] = []
                # A match that goes on too long: the positions met so far will do.
                with contextlib.suppress(playout.MatchTooLong):
                    playout.play(
                        backend,
                        started.state,
                        playout.uniform(match_seed),
                        max_moves=max_moves,
                        on_step=steps.append,
                    )
                _add_positions(corpus, game, steps, per_match, rnd, origin)
    corpus.names = sorted(set(corpus.names))
    return corpus


def _names(game: Game) -> list[str]:
    names = [game.name, *(p.name for p in game.presets)]
    for option in game.catalogue.descriptors():
        names.append(option.name)
        names += option.allowed_values
    return names


def random_overrides(game: Game, rnd: random.Random) -> dict[str, Value]:
    """A few options of `game` set to values its catalogue allows (they may
    still contradict each other or the preset: NewGame says so)."""
    descriptors = list(game.catalogue.descriptors())
    chosen = rnd.sample(descriptors, k=min(len(descriptors), rnd.randint(1, 4)))
    out: dict[str, Value] = {}
    for option in chosen:
        if option.name == "players":
            continue
        out[option.name] = _allowed_value(option, rnd)
    return out


def _allowed_value(option: options_pb2.OptionDescriptor, rnd: random.Random) -> Value:
    allowed = list(option.allowed_values)
    if option.type == options_pb2.OPTION_TYPE_BOOL:
        return rnd.random() < 0.5
    if option.type == options_pb2.OPTION_TYPE_INT:
        if allowed:
            return int(rnd.choice(allowed))
        return rnd.randint(option.min_value, option.max_value)
    if option.type == options_pb2.OPTION_TYPE_SET:
        return tuple(rnd.sample(allowed, k=rnd.randint(0, len(allowed))))
    return rnd.choice(allowed)


def _add_new_games(
    corpus: Corpus,
    game: Game,
    preset: str,
    seats: int,
    seed: int,
    overrides: Mapping[str, Any],
    rnd: random.Random,
) -> None:
    from croupier.engine.options import to_option_value

    origin = f"{game.name}/{preset} {seats} seats seed {seed}"
    request = service_pb2.NewGameRequest(
        game=game.name,
        preset=preset,
        seat_count=seats,
        seed=seed,
        seat_events=rnd.random() < 0.5,
    )
    if rnd.random() < 0.5:
        request.seat_names.extend(f"Player {i}" for i in range(seats))
    for name, value in overrides.items():
        request.options.add(name=name, value=to_option_value(value))
    corpus.add("NewGame", request, origin)


def _add_positions(
    corpus: Corpus,
    game: Game,
    steps: list[playout.Step],
    per_match: int,
    rnd: random.Random,
    origin: str,
) -> None:
    in_progress = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    ending = [s for s in steps if s.answer.state.match.phase != in_progress]
    others = [s for s in steps if s.answer.state.match.phase == in_progress]
    chosen = ending + rnd.sample(others, k=min(per_match, len(others)))
    for step in chosen:
        state = step.state
        where = f"{origin} move {state.move_number}"
        corpus.add(
            "ApplyMove",
            service_pb2.ApplyMoveRequest(
                state=state,
                move=step.choice.move,
                validate_only=rnd.random() < 0.1,
                seat_events=rnd.random() < 0.3,
                next_legal_moves=rnd.random() < 0.5,
            ),
            where,
        )
        illegal = _illegal_move(game, step, rnd)
        if illegal is not None:
            corpus.add("ApplyMove", service_pb2.ApplyMoveRequest(state=state, move=illegal), where)
        _add_state_requests(corpus, state, rnd, where)
        _add_choose_move(corpus, step, rnd, where, origin)
        after = step.answer.state
        if after.match.phase == in_progress:
            continue
        # The deal (or the match) is over: the next deal, and what is refused there.
        over = f"{origin} move {after.move_number} ({game_pb2.MatchPhase.Name(after.match.phase)})"
        next_deal = service_pb2.NextDealRequest(state=after, seat_events=rnd.random() < 0.5)
        corpus.add("NextDeal", next_deal, over)
        corpus.add(
            "ApplyMove", service_pb2.ApplyMoveRequest(state=after, move=step.choice.move), over
        )
        _add_state_requests(corpus, after, rnd, over)


def _add_state_requests(
    corpus: Corpus, state: game_pb2.GameState, rnd: random.Random, where: str
) -> None:
    """One request of every other RPC that takes a state: `seat` an acting
    seat or any seat, flags drawn at random."""
    for rpc in ENGINE_RPCS:
        request_type = REQUEST_TYPES[rpc]
        fields = request_type.DESCRIPTOR.fields_by_name
        if rpc in _BUILT or "state" not in fields:
            continue
        request: Any = request_type(state=state)
        acting = list(state.acting_seats)
        for name, fd in fields.items():
            if name == "seat":
                any_seat = rnd.randrange(len(state.seats))
                request.seat = rnd.choice(acting) if acting and rnd.random() < 0.7 else any_seat
            elif fd.type == fd.TYPE_BOOL and not fd.is_repeated:
                setattr(request, name, rnd.random() < 0.5)
        corpus.add(rpc, request, where)


def _add_choose_move(
    corpus: Corpus, step: playout.Step, rnd: random.Random, where: str, match: str
) -> None:
    """What a harness sends a bot at this position: the view of the seat that
    played (another acting seat now and then: a UNO jump-in window), its legal
    moves in the engine's order, the match's id and a time budget."""
    seats = sorted(step.legal)
    seat = step.choice.move.seat
    if len(seats) > 1 and rnd.random() < 0.3:
        seat = rnd.choice(seats)
    moves = step.legal.get(seat)
    if not moves:
        return
    view = api.get_view(service_pb2.GetViewRequest(state=step.state, seat=seat)).view
    request = bot_pb2.ChooseMoveRequest(
        view=view,
        legal_moves=moves,
        time_budget_ms=rnd.choice((0, 100, 2000)),
        match_id=match,
    )
    corpus.add("ChooseMove", request, where)


def _illegal_move(game: Game, step: playout.Step, rnd: random.Random) -> game_pb2.Move | None:
    seat = step.choice.move.seat
    legal = {m.move.SerializeToString() for m in step.legal.get(seat, [])}
    candidates = [
        m for m in game.candidate_moves(step.state, seat) if m.SerializeToString() not in legal
    ]
    return rnd.choice(candidates) if candidates else None
