"""The batched driver: P matches in flight, one ApplyMoveBatch per round.

The P matches are shared among L lanes, one connection and one thread each
(a server's worker processes share its port, and the kernel spreads
connections, not calls, over them: one connection would keep one worker
busy). Each lane plays rounds; in a round it

1. starts the deals of the matches of its share that need NewGame or
   NextDeal (then the deal's first ListLegalMoves and GetView) as
   asynchronous calls (deal_start.py), and does not wait for them: a match
   whose deal is starting joins a later round;
2. asks the bot of every other match for a move: bots in this process
   inline, bots behind a BotService from a thread pool, so that one slow
   remote bot does not serialize the round;
3. sends all those moves, of different matches, in one ApplyMoveBatch with
   next_legal_moves (and next_views for matches whose bots read views):
   one call answers every match's next position and legal moves;
4. collects the finished matches and fills its share up again.

A bot that raises, answers a move that was not offered or answers later than
the time budget has its seat's DefaultMove played instead; the fault is
recorded in the match record. A match that reaches the move bound stops and
is recorded as such. A match whose state or move the server contradicts (a
listed move rejected, an item error on a state it answered) is recorded as
an error; a call that fails outright (the server is gone) stops the
tournament.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import grpc

from croupier.engine.options import Value
from croupier.tournament import schedule, wire
from croupier.tournament.deal_start import DealStart
from croupier.tournament.entrants import Entrant, Probe
from croupier.tournament.match import Contradiction, MatchPlay, Stage
from croupier.tournament.records import Record
from croupier.v1 import game_pb2, service_pb2, service_pb2_grpc
from croupier_client.bots import choose_index
from croupier_client.bots.service import RemoteBot
from croupier_client.client import CroupierClient, CroupierError, channel_options

# Items per ApplyMoveBatch call: a lane's share of P is split into calls of
# at most this many (the server's default limit is 1024 items, and its
# message limit 4 MiB: an answer carries every item's state, legal moves and
# views). A call refused as too large is split in two and sent again.
MAX_ITEMS_PER_CALL = 256
CALL_TIMEOUT = 120.0  # seconds, any call of the harness to the server
POOL_THREADS = 32  # remote bot calls at once

# Errors that say the server refused a state or move it answered itself: the
# match is recorded as an error. Any other failed call stops the tournament.
_MATCH_ERRORS = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.PERMISSION_DENIED,
}


@dataclass(frozen=True)
class Table:
    game: str
    preset: str  # resolved: never empty
    options: dict[str, Value]
    seats: int


@dataclass(frozen=True)
class Plan:
    matches: int
    seed: int
    parallel: int  # matches in flight
    lanes: int  # connections, each with its own rounds
    max_moves: int
    time_budget_ms: int  # 0: no limit
    rotation: bool


@dataclass
class Counters:
    """The calls a run made, for the report."""

    rounds: int = 0
    batch_calls: int = 0
    batch_items: int = 0
    unary_calls: int = 0  # NewGame, NextDeal, ListLegalMoves, GetView, DefaultMove
    remote_bot_calls: int = 0
    split_batches: int = 0  # calls refused as too large and sent again in halves

    def add(self, other: Counters) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


class TournamentFailed(RuntimeError):
    """A call to the server failed outright: the tournament cannot go on."""


@dataclass
class _Choice:
    match: MatchPlay
    seat: int
    moves: Sequence[service_pb2.LegalMove]
    view: game_pb2.View
    pending: Future[tuple[int | None, str]] | None = None
    outcome: tuple[int | None, str] = (None, "")


class Driver:
    """Plays `plan.matches` matches of `table` between `entrants` on the
    server at `target`."""

    def __init__(
        self,
        target: str,
        table: Table,
        entrants: Sequence[Entrant],
        probes: Sequence[Probe],
        plan: Plan,
    ) -> None:
        self.target = target
        self.table = table
        self.entrants = list(entrants)
        self.probes = list(probes)
        self.plan = plan
        self.counters = Counters()
        self._next_index = 0
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._finished: queue.Queue[tuple[str, Any]] = queue.Queue()
        threads = max(1, min(POOL_THREADS, plan.parallel))
        self.bot_pool = ThreadPoolExecutor(threads, thread_name_prefix="tournament-bots")

    def run(self, on_record: Callable[[Record], None]) -> Counters:
        """Play every match; `on_record` gets each finished match's record (in
        the order they finish) on the calling thread. Raises TournamentFailed
        when a call to the server fails outright."""
        lanes = self._lanes()
        threads = [
            threading.Thread(target=lane.main, name=f"tournament-lane-{n}", daemon=True)
            for n, lane in enumerate(lanes)
        ]
        for thread in threads:
            thread.start()
        try:
            finished = 0
            while finished < self.plan.matches:
                kind, payload = self._finished.get()
                if kind == "crash":
                    raise TournamentFailed(str(payload)) from payload
                on_record(payload)
                finished += 1
        finally:
            self._stopping.set()
            for thread in threads:
                thread.join()
            self.bot_pool.shutdown(cancel_futures=True)
            for lane in lanes:
                self.counters.add(lane.counters)
        return self.counters

    def _lanes(self) -> list[_Lane]:
        lanes = max(1, min(self.plan.lanes, self.plan.parallel))
        share, extra = divmod(self.plan.parallel, lanes)
        return [_Lane(self, share + (1 if n < extra else 0)) for n in range(lanes)]

    def next_match(self) -> MatchPlay | None:
        """The next match of the schedule, None when every one has started."""
        with self._lock:
            if self._stopping.is_set() or self._next_index >= self.plan.matches:
                return None
            index = self._next_index
            self._next_index += 1
        return self._match(index)

    def _match(self, index: int) -> MatchPlay:
        plan, table = self.plan, self.table
        seed = schedule.match_seed(plan.seed, index)
        seating = schedule.seating(
            plan.seed, index, len(self.entrants), table.seats, rotation=plan.rotation
        )
        bots = []
        for seat, entrant in enumerate(seating):
            bot = self.entrants[entrant].factory(table.game, schedule.bot_seed(seed, seat))
            if isinstance(bot, RemoteBot):
                bot.time_budget_ms = plan.time_budget_ms
            bots.append(bot)
        record = Record(
            game=table.game,
            preset=table.preset,
            options=dict(table.options),
            seats=table.seats,
            seed=seed,
            match=index,
            entrants=[self.entrants[e].name for e in seating],
        )
        return MatchPlay(
            record=record,
            bots=bots,
            remote=[self.probes[e].remote for e in seating],
            wants_view=[bool(getattr(bot, "wants_view", True)) for bot in bots],
            max_moves=plan.max_moves,
        )

    def finished(self, record: Record) -> None:
        self._finished.put(("record", record))

    def crashed(self, error: BaseException) -> None:
        self._finished.put(("crash", error))

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()


def ask_bot(
    bot: Any, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove], budget_ms: int
) -> tuple[int | None, str]:
    """(the index of the bot's move, "") or (None, why it is a fault)."""
    start = time.perf_counter()
    try:
        index = choose_index(bot, view, moves)
    except grpc.RpcError as error:
        code = error.code().name if isinstance(error, grpc.Call) else "UNKNOWN"
        details = error.details() if isinstance(error, grpc.Call) else str(error)
        return None, f"BotService call failed: {code}: {details}"[:300]
    except Exception as error:  # any bot bug is the bot's fault, not the harness's
        return None, f"{type(error).__name__}: {error}"[:300]
    elapsed_ms = (time.perf_counter() - start) * 1000
    if budget_ms and elapsed_ms > budget_ms:
        return None, f"over the time budget: {elapsed_ms:.0f} ms > {budget_ms} ms"
    return index, ""


@dataclass
class _Lane:
    driver: Driver
    capacity: int
    counters: Counters = field(default_factory=Counters)

    def __post_init__(self) -> None:
        options = [
            *channel_options(),
            ("grpc.max_receive_message_length", -1),
            # Its own connection: channels with equal arguments would share one.
            ("grpc.use_local_subchannel_pool", 1),
        ]
        self.channel = grpc.insecure_channel(self.driver.target, options=options)
        self.client = CroupierClient(self.driver.target, channel=self.channel, timeout=CALL_TIMEOUT)
        self.batch = self.channel.unary_unary(
            wire.APPLY_MOVE_BATCH,
            request_serializer=None,  # the request is built as bytes (wire.py)
            response_deserializer=service_pb2.ApplyMoveBatchResponse.FromString,
        )
        self.active: list[MatchPlay] = []
        self.stub = service_pb2_grpc.CroupierServiceStub(self.channel)
        # Matches whose NewGame or NextDeal (and first listing) is under way,
        # and the event their calls set when an answer comes.
        self.starts: dict[MatchPlay, DealStart] = {}
        self.wake = threading.Event()

    def main(self) -> None:
        try:
            while not self.driver.stopping:
                while len(self.active) < self.capacity:
                    match = self.driver.next_match()
                    if match is None:
                        break
                    self.active.append(match)
                if not self.active:
                    return
                self._round()
        except BaseException as error:  # handed to the main thread, which stops the run
            self.driver.crashed(error)
        finally:
            self.channel.close()

    def _round(self) -> None:
        self.counters.rounds += 1
        table, timeout = self.driver.table, CALL_TIMEOUT
        for match in self.active:
            if match.stage in (Stage.START, Stage.DEAL) and match not in self.starts:
                self.starts[match] = DealStart(match, self.stub, table, timeout, self.wake)
        # A match whose deal is starting is not waited for: it joins a later round.
        ready = [m for m in self.active if m.stage is Stage.READY and m not in self.starts]
        if ready:
            self._apply(self._choose(ready))
        elif self.starts:
            self.wake.wait(CALL_TIMEOUT)
        self.wake.clear()
        for match, start in list(self.starts.items()):
            try:
                done = start.advance()
            except (Contradiction, CroupierError) as error:
                if isinstance(error, CroupierError) and error.code not in _MATCH_ERRORS:
                    raise TournamentFailed(f"match {match.index}: {error}") from error
                match.failed(error)
                done = True
            if done:
                self.counters.unary_calls += start.calls
                del self.starts[match]
        still = []
        for match in self.active:
            if match.stage is Stage.DONE:
                self.driver.finished(match.record)
            else:
                still.append(match)
        self.active = still

    def _view(self, match: MatchPlay, seat: int) -> game_pb2.View:
        if not match.wants_view[seat]:
            # A bot that never reads its view gets one with only its seat.
            return game_pb2.View(seat=seat, game=self.driver.table.game)
        view = match.views.get(seat)
        if view is None:
            assert match.state is not None
            view = self.client.view(match.state, seat)
            self.counters.unary_calls += 1
        return view

    def _choose(self, ready: list[MatchPlay]) -> list[tuple[MatchPlay, service_pb2.LegalMove]]:
        """Every ready match's move: its bot's choice, or DefaultMove."""
        budget = self.driver.plan.time_budget_ms
        choices: list[_Choice] = []
        for match in ready:
            try:
                seat, moves = match.actor()
            except Contradiction as error:
                match.failed(error)
                continue
            choice = _Choice(match, seat, moves, self._view(match, seat))
            if match.remote[seat]:
                choice.pending = self.driver.bot_pool.submit(
                    ask_bot, match.bots[seat], choice.view, moves, budget
                )
                self.counters.remote_bot_calls += 1
            choices.append(choice)
        for choice in choices:
            if choice.pending is None:
                choice.outcome = ask_bot(
                    choice.match.bots[choice.seat], choice.view, choice.moves, budget
                )
        chosen = []
        for choice in choices:
            if choice.pending is not None:
                choice.outcome = choice.pending.result()
            index, fault = choice.outcome
            match = choice.match
            if index is not None:
                chosen.append((match, choice.moves[index]))
                continue
            match.record.faults.append((match.moves_played + 1, choice.seat, fault))
            assert match.state is not None
            chosen.append((match, self.client.default_move(match.state, choice.seat)))
            self.counters.unary_calls += 1
        return chosen

    def _apply(self, chosen: list[tuple[MatchPlay, service_pb2.LegalMove]]) -> None:
        for start in range(0, len(chosen), MAX_ITEMS_PER_CALL):
            part = chosen[start : start + MAX_ITEMS_PER_CALL]
            moves = [choice.move.SerializeToString(deterministic=True) for _, choice in part]
            self._send(part, moves)

    def _send(
        self, part: list[tuple[MatchPlay, service_pb2.LegalMove]], moves: list[bytes]
    ) -> None:
        request = wire.batch_request(
            wire.apply_item(match.state_bytes, move, next_views=match.next_views)
            for (match, _), move in zip(part, moves, strict=True)
        )
        try:
            answer = self.batch(request, timeout=CALL_TIMEOUT)
        except grpc.RpcError as error:
            code = error.code() if isinstance(error, grpc.Call) else None
            if code == grpc.StatusCode.RESOURCE_EXHAUSTED and len(part) > 1:
                self.counters.split_batches += 1
                half = len(part) // 2
                self._send(part[:half], moves[:half])
                self._send(part[half:], moves[half:])
                return
            details = error.details() if isinstance(error, grpc.Call) else str(error)
            name = code.name if code is not None else "UNKNOWN"
            raise TournamentFailed(f"ApplyMoveBatch failed: {name}: {details}") from error
        self.counters.batch_calls += 1
        self.counters.batch_items += len(part)
        if len(answer.results) != len(part):
            raise TournamentFailed(
                f"ApplyMoveBatch answered {len(answer.results)} results for {len(part)} items"
            )
        for (match, choice), move, result in zip(part, moves, answer.results, strict=True):
            if result.WhichOneof("outcome") != "response":
                match.failed(
                    Contradiction(
                        f"ApplyMoveBatch item error {result.error.code}: {result.error.message} "
                        f"(move {match.moves_played + 1}, {choice.notation!r})"
                    )
                )
                continue
            response = result.response
            if not response.accepted:
                match.failed(
                    Contradiction(
                        f"{choice.notation!r} of seat {choice.move.seat} was listed as legal "
                        f"but rejected: {response.rejection.message}"
                    )
                )
                continue
            try:
                match.moved(move, response)
            except Contradiction as error:
                match.failed(error)
