// The match loop against a scripted table (FakeTable below): which calls it
// makes, in which order, and which bot it asks.
import assert from "node:assert/strict";
import { test } from "node:test";

import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";

import { itemErrorToConnectError } from "../src/apply.js";
import type { Bot } from "../src/bots.js";
import { fieldViolations } from "../src/client.js";
import {
  type GameState,
  GameStateSchema,
  MatchPhase,
  type View,
} from "../src/gen/croupier/v1/game_pb.js";
import {
  type ApplyMoveResponse,
  ApplyMoveRequestSchema,
  ApplyMoveResponseSchema,
  type ApplyMoveStreamRequestSchema,
  type ApplyMoveStreamResponse,
  ApplyMoveStreamResponseSchema,
  type ItemError,
  ItemErrorSchema,
  GetViewResponseSchema,
  type LegalMove,
  LegalMoveSchema,
  ListLegalMovesResponseSchema,
  NewGameRequestSchema,
  NewGameResponseSchema,
  NextDealResponseSchema,
} from "../src/gen/croupier/v1/service_pb.js";
import {
  choosingSeat,
  type MatchBackend,
  MatchTooLong,
  playMatch,
  ServerContradiction,
} from "../src/playout.js";

const SEATS = 2;
const MOVES_PER_DEAL = 4;
const DEALS = 2;

/**
 * A two-seat table that needs no rules: turns alternate, a deal lasts four
 * moves, the match two deals. Seat s is offered `offered(state, s)` moves;
 * move i of a seat is told apart by its seen_move_number, which this table
 * uses as a tag only. It records every call, and rejects the move played at
 * `rejectAt` (a move number) to stand for a server that contradicts itself.
 */
class FakeTable {
  readonly calls: string[] = [];
  readonly played: string[] = [];
  rejectAt: bigint | undefined;
  itemError: ItemError | undefined;
  answerLegalMoves = true;

  constructor(
    readonly offered: (state: GameState, seat: number) => number,
    readonly acting: (moveInDeal: number) => number[] = (m) => [m % SEATS],
  ) {}

  legal(state: GameState, seat: number): LegalMove[] {
    if (!state.actingSeats.includes(seat)) {
      return [];
    }
    return Array.from({ length: this.offered(state, seat) }, (_, i) =>
      create(LegalMoveSchema, {
        move: { seat, seenMoveNumber: BigInt(i) },
        notation: `s${seat}#${i}`,
      }),
    );
  }

  stateAt(deal: number, moveInDeal: number, moveNumber: bigint): GameState {
    const dealOver = moveInDeal === MOVES_PER_DEAL;
    const phase = !dealOver
      ? MatchPhase.DEAL_IN_PROGRESS
      : deal === DEALS
        ? MatchPhase.MATCH_OVER
        : MatchPhase.DEAL_OVER;
    return create(GameStateSchema, {
      game: "fake",
      seats: [{ name: "P0" }, { name: "P1" }],
      currentSeat: moveInDeal % SEATS,
      moveNumber,
      actingSeats: dealOver ? [] : this.acting(moveInDeal),
      match: { phase, dealNumber: deal, winners: phase === MatchPhase.MATCH_OVER ? [1] : [] },
    });
  }

  backend(): MatchBackend {
    return {
      newGame: async (request) => {
        const { game, seatCount, seed } = create(NewGameRequestSchema, request);
        this.calls.push(`NewGame ${game} ${seatCount} ${seed}`);
        return create(NewGameResponseSchema, { state: this.stateAt(1, 0, 0n) });
      },
      nextDeal: async (request) => {
        const state = request.state as GameState;
        this.calls.push(`NextDeal ${state.match?.dealNumber}`);
        const deal = (state.match?.dealNumber ?? 0) + 1;
        return create(NextDealResponseSchema, { state: this.stateAt(deal, 0, state.moveNumber) });
      },
      listLegalMoves: async (request) => {
        const state = request.state as GameState;
        this.calls.push(`ListLegalMoves ${request.seat}`);
        return create(ListLegalMovesResponseSchema, {
          moves: this.legal(state, request.seat ?? 0),
        });
      },
      getView: async (request) => {
        const state = request.state as GameState;
        this.calls.push(`GetView ${request.seat}`);
        return create(GetViewResponseSchema, {
          view: { seat: request.seat ?? 0, game: state.game, moveNumber: state.moveNumber },
        });
      },
      applyMove: async (request) => this.applyOne(request),
      applyMoveStream: (requests) => this.stream(requests),
    };
  }

  /** One stream: each request answered in turn, or with `itemError` when set. */
  async *stream(
    requests: AsyncIterable<MessageInitShape<typeof ApplyMoveStreamRequestSchema>>,
  ): AsyncIterable<ApplyMoveStreamResponse> {
    this.calls.push("ApplyMoveStream opened");
    for await (const { item } of requests) {
      const outcome = this.itemError
        ? { case: "error" as const, value: this.itemError }
        : { case: "response" as const, value: await this.applyOne(item ?? {}) };
      yield create(ApplyMoveStreamResponseSchema, { result: { outcome } });
    }
    this.calls.push("ApplyMoveStream closed");
  }

  async applyOne(
    request: MessageInitShape<typeof ApplyMoveRequestSchema>,
  ): Promise<ApplyMoveResponse> {
    const { state, move, nextLegalMoves, nextViews } = create(ApplyMoveRequestSchema, request);
    assert.ok(state && move, "ApplyMove without a state or a move");
    this.calls.push(`ApplyMove ${move.seat}#${move.seenMoveNumber}`);
    assert.equal(nextLegalMoves, true, "the loop asks for the next legal moves");
    if (state.moveNumber === this.rejectAt) {
      return create(ApplyMoveResponseSchema, {
        accepted: false,
        rejection: { rule: "X1", message: "not today" },
      });
    }
    this.played.push(`s${move.seat}#${move.seenMoveNumber}`);
    const deal = state.match?.dealNumber ?? 0;
    const moveInDeal = Number(state.moveNumber) - (deal - 1) * MOVES_PER_DEAL + 1;
    const next = this.stateAt(deal, moveInDeal, state.moveNumber + 1n);
    const seats = next.actingSeats;
    return create(ApplyMoveResponseSchema, {
      accepted: true,
      state: next,
      nextLegalMoves: this.answerLegalMoves
        ? seats.map((seat) => ({ seat, moves: this.legal(next, seat) }))
        : [],
      nextViews: nextViews
        ? seats.map((seat) => ({ seat, game: next.game, moveNumber: next.moveNumber }))
        : [],
    });
  }
}

/** Always the last move offered; remembers what it was shown. */
class LastMoveBot implements Bot {
  readonly seen: string[] = [];

  constructor(readonly wantsView = false) {}

  choose(view: View, moves: readonly LegalMove[]): number {
    this.seen.push(`view of ${view.seat} at ${view.moveNumber}: ${moves.length} moves`);
    return moves.length - 1;
  }
}

const twoMoves = (): number => 2;

for (const via of ["stream", "unary"] as const) {
  test(`a match (${via}): NewGame, moves, NextDeal after a deal, to MATCH_OVER`, async () => {
    const table = new FakeTable(twoMoves);
    const bots = [new LastMoveBot(), new LastMoveBot()];
    const result = await playMatch(table.backend(), {
      game: "fake",
      seats: SEATS,
      seed: 5,
      bots,
      via,
    });
    assert.equal(result.state.match?.phase, MatchPhase.MATCH_OVER);
    assert.deepEqual(result.state.match?.winners, [1]);
    assert.equal(result.moves, MOVES_PER_DEAL * DEALS);
    assert.equal(result.deals, DEALS);
    // Legal moves are asked only where no ApplyMove answered them: at the
    // start of each deal. The bots read no view, so no GetView.
    const deal = [
      "ListLegalMoves 0",
      "ApplyMove 0#1",
      "ApplyMove 1#1",
      "ApplyMove 0#1",
      "ApplyMove 1#1",
    ];
    const calls = ["NewGame fake 2 5", ...deal, "NextDeal 1", ...deal];
    if (via === "stream") {
      // One stream for the match, opened at the first move, closed at the end.
      calls.splice(2, 0, "ApplyMoveStream opened");
      calls.push("ApplyMoveStream closed");
    }
    assert.deepEqual(table.calls, calls);
    assert.equal(bots[0]!.seen.length, MOVES_PER_DEAL);
    assert.ok(bots[0]!.seen.every((line) => line.startsWith("view of 0 at 0:")));
  });
}

test("the bot of the current seat chooses when that seat has moves", async () => {
  // Both seats may act at every move; both have moves.
  const table = new FakeTable(twoMoves, () => [0, 1]);
  await playMatch(table.backend(), {
    game: "fake",
    seats: SEATS,
    seed: 1,
    bots: [new LastMoveBot(), new LastMoveBot()],
  });
  assert.deepEqual(table.played.slice(0, MOVES_PER_DEAL), ["s0#1", "s1#1", "s0#1", "s1#1"]);
  assert.deepEqual(table.calls.slice(0, 3), [
    "NewGame fake 2 1",
    "ListLegalMoves 0",
    "ListLegalMoves 1",
  ]);
});

test("else the first acting seat that has moves chooses", async () => {
  // Seat 1 acts with seat 0 at every move but has moves only on seat 0's
  // turns; seat 0 has moves only on seat 1's turns, so the other always plays.
  const table = new FakeTable(
    (state, seat) => (state.currentSeat === seat ? 0 : 3),
    () => [0, 1],
  );
  await playMatch(table.backend(), {
    game: "fake",
    seats: SEATS,
    seed: 1,
    bots: [new LastMoveBot(), new LastMoveBot()],
  });
  assert.deepEqual(table.played.slice(0, MOVES_PER_DEAL), ["s1#2", "s0#2", "s1#2", "s0#2"]);
});

test("no acting seat with a move is a contradiction", async () => {
  const table = new FakeTable(() => 0);
  await assert.rejects(
    playMatch(table.backend(), {
      game: "fake",
      seats: SEATS,
      seed: 1,
      bots: [new LastMoveBot(), new LastMoveBot()],
    }),
    (error: unknown) =>
      error instanceof ServerContradiction &&
      /no acting seat \[0\] has a legal move/.test(error.message),
  );
});

test("choosingSeat: current seat, else the lowest acting seat with moves", () => {
  const state = create(GameStateSchema, { currentSeat: 2, actingSeats: [0, 1, 2, 3] });
  const some = [create(LegalMoveSchema, {})];
  assert.equal(
    choosingSeat(
      state,
      new Map([
        [3, some],
        [2, some],
        [1, some],
      ]),
    ),
    2,
  );
  assert.equal(
    choosingSeat(
      state,
      new Map([
        [3, some],
        [2, []],
        [1, some],
        [0, []],
      ]),
    ),
    1,
  );
  assert.throws(() => choosingSeat(state, new Map([[2, []]])), ServerContradiction);
});

test("a bot that wants the view gets it from the ApplyMove answer, else from GetView", async () => {
  const table = new FakeTable(twoMoves);
  const watcher = new LastMoveBot(true);
  await playMatch(table.backend(), {
    game: "fake",
    seats: SEATS,
    seed: 1,
    bots: [watcher, new LastMoveBot()],
  });
  // GetView at the start of each deal only; then the answers' next_views.
  assert.deepEqual(
    table.calls.filter((c) => c.startsWith("GetView")),
    ["GetView 0", "GetView 0"],
  );
  assert.deepEqual(watcher.seen, [
    "view of 0 at 0: 2 moves",
    "view of 0 at 2: 2 moves",
    "view of 0 at 4: 2 moves",
    "view of 0 at 6: 2 moves",
  ]);
});

test("without next legal moves in the answer, the loop asks ListLegalMoves", async () => {
  const table = new FakeTable(twoMoves);
  table.answerLegalMoves = false;
  const result = await playMatch(table.backend(), {
    game: "fake",
    seats: SEATS,
    seed: 1,
    bots: [new LastMoveBot(), new LastMoveBot()],
  });
  assert.equal(result.moves, MOVES_PER_DEAL * DEALS);
  assert.equal(
    table.calls.filter((c) => c.startsWith("ListLegalMoves")).length,
    MOVES_PER_DEAL * DEALS,
  );
});

test("a listed move rejected is a contradiction, naming the move and the rule", async () => {
  const table = new FakeTable(twoMoves);
  table.rejectAt = 2n;
  await assert.rejects(
    playMatch(table.backend(), {
      game: "fake",
      seats: SEATS,
      seed: 1,
      bots: [new LastMoveBot(), new LastMoveBot()],
    }),
    (error: unknown) =>
      error instanceof ServerContradiction &&
      error.message === '"s0#1" of seat 0 was listed as legal but rejected (rule X1): not today',
  );
});

test("past maxMoves the loop stops with MatchTooLong and the state reached", async () => {
  const table = new FakeTable(twoMoves);
  await assert.rejects(
    playMatch(table.backend(), {
      game: "fake",
      seats: SEATS,
      seed: 1,
      maxMoves: 3,
      bots: [new LastMoveBot(), new LastMoveBot()],
    }),
    (error: unknown) =>
      error instanceof MatchTooLong && error.maxMoves === 3 && error.state.moveNumber === 3n,
  );
});

test("bad specs and bad choices are refused with the reason", async () => {
  const backend = new FakeTable(twoMoves).backend();
  const bot = new LastMoveBot();
  await assert.rejects(playMatch(backend, { game: "fake", seats: 2, seed: 1, bots: [bot] }), {
    name: "RangeError",
    message: "1 bots for 2 seats: give one per seat",
  });
  await assert.rejects(playMatch(backend, { game: "fake", seats: 2, seed: -1, bots: [bot, bot] }), {
    name: "RangeError",
    message: "seed -1 is not an integer in 0..2^64-1",
  });
  await assert.rejects(
    playMatch(backend, { game: "fake", seats: 2, seed: 2n ** 64n, bots: [bot, bot] }),
    {
      message: /is not an integer in 0..2\^64-1/,
    },
  );
  const outOfRange: Bot = { choose: (_view, moves) => moves.length };
  await assert.rejects(
    playMatch(backend, { game: "fake", seats: 2, seed: 1, bots: [outOfRange, outOfRange] }),
    { name: "RangeError", message: "the bot of seat 0 chose index 2 of 2 moves" },
  );
});

test("the seed reaches NewGame as a uint64, a bigint beyond 2^53 included", async () => {
  const table = new FakeTable(twoMoves);
  const bots = [new LastMoveBot(), new LastMoveBot()];
  await playMatch(table.backend(), { game: "fake", seats: SEATS, seed: 2n ** 63n + 1n, bots });
  assert.equal(table.calls[0], `NewGame fake 2 ${2n ** 63n + 1n}`);
});

test("an item error of the stream is the ConnectError the unary call would raise", async () => {
  const table = new FakeTable(twoMoves);
  table.itemError = create(ItemErrorSchema, {
    code: Code.InvalidArgument,
    message: "state.seats: 3 seats, uno takes 2",
    fieldViolations: [{ field: "state.seats", description: "3 seats, uno takes 2" }],
  });
  const bots = [new LastMoveBot(), new LastMoveBot()];
  await assert.rejects(
    playMatch(table.backend(), { game: "fake", seats: SEATS, seed: 1, bots }),
    (error: unknown) => {
      assert.ok(error instanceof ConnectError);
      assert.equal(error.code, Code.InvalidArgument);
      assert.equal(error.rawMessage, "state.seats: 3 seats, uno takes 2");
      assert.deepEqual(fieldViolations(error), [
        { field: "state.seats", description: "3 seats, uno takes 2" },
      ]);
      return true;
    },
  );
});

test("itemErrorToConnectError keeps the code, and an unknown code is UNKNOWN", () => {
  const plain = itemErrorToConnectError(create(ItemErrorSchema, { code: 9, message: "newer" }));
  assert.equal(plain.code, Code.FailedPrecondition);
  assert.deepEqual(fieldViolations(plain), []);
  assert.equal(itemErrorToConnectError(create(ItemErrorSchema, { code: 99 })).code, Code.Unknown);
});
