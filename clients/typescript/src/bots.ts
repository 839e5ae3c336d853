// Bots: whatever picks one of a seat's legal moves. The match loop
// (playout.ts) asks the bot of the seat that acts.

import type { View } from "./gen/croupier/v1/game_pb.js";
import type { LegalMove } from "./gen/croupier/v1/service_pb.js";

/** A player: picks one of `moves` (never empty), by its index. */
export interface Bot {
  /**
   * Whether `choose` reads the view. When true the loop hands it the seat's
   * full View (from ApplyMove's next_views, else GetView); when not, a View
   * with only `seat` and `game` set, and the loop saves the calls.
   */
  readonly wantsView?: boolean;
  /** The index in `moves` of the move to make. */
  choose(view: View, moves: readonly LegalMove[]): number;
}

/**
 * mulberry32 (Tommy Ettinger, 2017): a 32-bit state advanced by a Weyl
 * sequence (+0x6d2b79f5) and mixed by two multiply-xorshift rounds. Small,
 * fast, and the same numbers on every JavaScript engine, which is what a
 * seeded bot needs; period 2^32, not for anything secret. Returns a function
 * giving uniform numbers in [0, 1), each a multiple of 2^-32.
 */
export function mulberry32(seed: number): () => number {
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`seed ${seed} is not an integer`);
  }
  // The low 32 bits, so that seeds differing only above bit 31 collide:
  // documented rather than hidden behind a hash.
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks uniformly among the moves offered, from its own seeded mulberry32. */
export class RandomBot implements Bot {
  readonly wantsView = false;
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }

  choose(_view: View, moves: readonly LegalMove[]): number {
    if (moves.length === 0) {
      throw new RangeError("RandomBot.choose: no legal move to choose from");
    }
    return Math.floor(this.#next() * moves.length);
  }
}
