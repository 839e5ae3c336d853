// The seeded PRNG and the random bot: deterministic, in range, uniform enough.
import assert from "node:assert/strict";
import { test } from "node:test";

import { create } from "@bufbuild/protobuf";

import { mulberry32, RandomBot } from "../src/bots.js";
import { ViewSchema } from "../src/gen/croupier/v1/game_pb.js";
import { type LegalMove, LegalMoveSchema } from "../src/gen/croupier/v1/service_pb.js";

const UINT32 = 2 ** 32;

function draws(next: () => number, count: number): number[] {
  return Array.from({ length: count }, () => next());
}

function movesNamed(count: number): LegalMove[] {
  return Array.from({ length: count }, (_, i) => create(LegalMoveSchema, { notation: `m${i}` }));
}

test("mulberry32 gives the reference generator's numbers", () => {
  // From an independent implementation of Ettinger's mulberry32 (Python,
  // arbitrary-precision integers masked to 32 bits), as integers x / 2^32.
  const expected: Record<number, number[]> = {
    0: [1144304738, 1416247, 958946056, 627933444, 2007157716],
    1: [2693262067, 11749833, 2265367787, 4213581821, 4159151403],
    2024: [3486492848, 3052955074, 2793987405, 2943453892, 2228833736],
  };
  for (const [seed, values] of Object.entries(expected)) {
    const got = draws(mulberry32(Number(seed)), values.length).map((x) => x * UINT32);
    assert.deepEqual(got, values, `seed ${seed}`);
  }
});

test("mulberry32: the same seed gives the same sequence, another seed another", () => {
  const first = draws(mulberry32(42), 1000);
  assert.deepEqual(draws(mulberry32(42), 1000), first);
  assert.notDeepEqual(draws(mulberry32(43), 1000), first);
});

test("mulberry32 keeps the low 32 bits of the seed", () => {
  assert.deepEqual(draws(mulberry32(-1), 10), draws(mulberry32(UINT32 - 1), 10));
  assert.deepEqual(draws(mulberry32(UINT32 + 5), 10), draws(mulberry32(5), 10));
});

test("mulberry32 refuses a seed that is not an integer", () => {
  assert.throws(() => mulberry32(1.5), { name: "RangeError", message: /seed 1.5/ });
  assert.throws(() => mulberry32(Number.NaN), RangeError);
});

test("mulberry32's numbers are in [0, 1) and spread evenly over ten bins", () => {
  const count = 100_000;
  const bins = new Array<number>(10).fill(0);
  for (const x of draws(mulberry32(7), count)) {
    assert.ok(x >= 0 && x < 1, `${x} out of [0, 1)`);
    bins[Math.floor(x * 10)]! += 1;
  }
  // Chi-square with 9 degrees of freedom: 27.88 is its 0.999 quantile.
  const expected = count / 10;
  const chiSquare = bins.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
  assert.ok(chiSquare < 27.88, `chi-square ${chiSquare.toFixed(2)} over bins ${bins}`);
});

test("RandomBot: the same seed makes the same choices", () => {
  const view = create(ViewSchema, { seat: 0, game: "uno" });
  const sizes = Array.from({ length: 500 }, (_, i) => 1 + (i % 13));
  const play = (seed: number): number[] => {
    const bot = new RandomBot(seed);
    return sizes.map((n) => bot.choose(view, movesNamed(n)));
  };
  assert.deepEqual(play(9), play(9));
  assert.notDeepEqual(play(9), play(10));
});

test("RandomBot chooses an index of the moves offered, each of them in time", () => {
  const bot = new RandomBot(3);
  const view = create(ViewSchema, { seat: 1 });
  const moves = movesNamed(5);
  const seen = new Set<number>();
  for (let i = 0; i < 200; i += 1) {
    const index = bot.choose(view, moves);
    assert.ok(Number.isInteger(index) && index >= 0 && index < moves.length, `index ${index}`);
    seen.add(index);
  }
  assert.deepEqual([...seen].sort(), [0, 1, 2, 3, 4]);
  assert.equal(bot.choose(view, movesNamed(1)), 0);
});

test("RandomBot's choice is the generator's draw scaled to the number of moves", () => {
  const next = mulberry32(11);
  const bot = new RandomBot(11);
  const view = create(ViewSchema, {});
  for (const n of [2, 3, 7, 52, 108]) {
    assert.equal(bot.choose(view, movesNamed(n)), Math.floor(next() * n), `${n} moves`);
  }
});

test("RandomBot refuses to choose among no moves, and reads no view", () => {
  const bot = new RandomBot(1);
  assert.equal(bot.wantsView, false);
  assert.throws(() => bot.choose(create(ViewSchema, {}), []), {
    name: "RangeError",
    message: /no legal move/,
  });
});
