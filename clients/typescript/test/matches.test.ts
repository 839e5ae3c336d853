// Against a live server (CROUPIER_TARGET=host:port; skipped when unset):
// one full match of every game ListGames names, between seeded random bots,
// and the refusals a caller meets, as ConnectErrors with their details.
import assert from "node:assert/strict";
import { test } from "node:test";

import { toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";

import { RandomBot } from "../src/bots.js";
import { createCroupierClient, fieldViolations } from "../src/client.js";
import { GameStateSchema, MatchPhase } from "../src/gen/croupier/v1/game_pb.js";
import type { GameDescriptor } from "../src/gen/croupier/v1/options_pb.js";
import { type MatchSpec, playMatch } from "../src/playout.js";

const target = process.env["CROUPIER_TARGET"] ?? "";
const skip = target === "" ? "CROUPIER_TARGET is not set (host:port of a croupier server)" : false;
// One seed for every game; the bots of seat s draw from seed + s. UNO's
// matches to 500 points between random bots are long (2 seats: 11,551 to
// 35,629 moves over the seeds 1 to 8 and 2025; 5,497 for this seed, the
// suite's longest match by far, 31 s of the suite), so UNO plays to a
// target of 100 here: still a whole match of several rounds, and it also
// tests that the options reach NewGame.
const SEED = 2024;
const MAX_MOVES = 60_000;
const OPTIONS: Record<string, MatchSpec["options"]> = {
  uno: [{ name: "target", value: { kind: { case: "intValue", value: 100n } } }],
};

/** Two seats, or the fewest the default preset takes when that is more. */
function seatsFor(game: GameDescriptor): number {
  const preset = game.presets.find((p) => p.name === game.defaultPreset);
  return Math.max(2, preset?.minSeats ?? game.minSeats);
}

// The games play at once: the server has workers to spare, and the test
// then lasts as long as its longest match (UNO's) rather than all of them.
test("a full match of every game, between random bots", { skip, concurrency: true }, async (t) => {
  const croupier = createCroupierClient(target, { timeoutMs: 10_000 });
  const { games } = await croupier.listGames({});
  assert.ok(games.length > 0, "ListGames names no game");
  const matches = games.map((game) =>
    t.test(game.name, async () => {
      const seats = seatsFor(game);
      const bots = Array.from({ length: seats }, (_, seat) => new RandomBot(SEED + seat));
      const { state, moves } = await playMatch(croupier, {
        game: game.name,
        preset: game.defaultPreset,
        seats,
        seed: SEED,
        options: OPTIONS[game.name] ?? [],
        bots,
        maxMoves: MAX_MOVES,
      });
      assert.equal(state.game, game.name);
      if (game.name === "uno") {
        const options = state.options?.game;
        assert.equal(options?.case === "uno" && options.value.target, 100);
      }
      assert.equal(state.match?.phase, MatchPhase.MATCH_OVER);
      const winners = state.match?.winners ?? [];
      assert.ok(winners.length > 0, `no winner after ${moves} moves`);
      assert.ok(
        winners.every((seat) => seat < seats),
        `winners ${winners} of ${seats} seats`,
      );
    }),
  );
  await Promise.all(matches);
});

test("an unknown game is INVALID_ARGUMENT with a field violation", { skip }, async () => {
  const croupier = createCroupierClient(target, { timeoutMs: 10_000 });
  const error = await croupier.newGame({ game: "no_such_game", seatCount: 2, seed: 1n }).then(
    () => assert.fail("NewGame of an unknown game succeeded"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ConnectError, `not a ConnectError: ${error}`);
  assert.equal(error.code, Code.InvalidArgument);
  const violations = fieldViolations(error);
  assert.ok(violations.length > 0, `no field violation in ${error.message}`);
  assert.ok(
    violations.some((v) => v.field === "game"),
    JSON.stringify(violations),
  );
});

test("the same seed plays the same match, streamed or call by call", { skip }, async () => {
  const croupier = createCroupierClient(target, { timeoutMs: 10_000 });
  const play = (via: "stream" | "unary") =>
    playMatch(croupier, {
      game: "sto",
      seats: 3,
      seed: SEED,
      bots: [new RandomBot(1), new RandomBot(2), new RandomBot(3)],
      maxMoves: MAX_MOVES,
      via,
    });
  const streamed = await play("stream");
  const unary = await play("unary");
  assert.ok(streamed.moves > 0);
  assert.equal(unary.moves, streamed.moves);
  assert.equal(unary.deals, streamed.deals);
  assert.deepEqual(
    toBinary(GameStateSchema, unary.state),
    toBinary(GameStateSchema, streamed.state),
  );
});
