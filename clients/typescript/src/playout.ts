// The match loop: NewGame, then moves chosen by per-seat bots until the
// match is over, with NextDeal between deals. It asks every acting seat for
// its legal moves, so games with out-of-turn moves (UNO's challenges and
// jump-ins) are played as they are; the legal moves come with each
// ApplyMove answer (next_legal_moves), one call per move instead of two, and
// the ApplyMove requests go as the items of one ApplyMoveStream (apply.ts).

import { create, type MessageInitShape } from "@bufbuild/protobuf";

import { type Applier, type ApplyVia, streamApplier, unaryApplier } from "./apply.js";
import type { Bot } from "./bots.js";
import type { CroupierClient } from "./client.js";
import { type GameState, MatchPhase, type View, ViewSchema } from "./gen/croupier/v1/game_pb.js";
import type { OptionSettingSchema } from "./gen/croupier/v1/options_pb.js";
import type { LegalMove } from "./gen/croupier/v1/service_pb.js";

/** The calls the loop makes: a CroupierClient has them. */
export type MatchBackend = Pick<
  CroupierClient,
  "newGame" | "applyMove" | "applyMoveStream" | "listLegalMoves" | "nextDeal" | "getView"
>;

/** Every acting seat's legal moves, by seat. */
export type LegalMoves = ReadonlyMap<number, readonly LegalMove[]>;

export interface MatchSpec {
  /** The game id, as ListGames names it ("hundred_and_one", "uno"...). */
  game: string;
  /** A preset name; "" or unset = the game's default preset. */
  preset?: string;
  /**
   * Options that override the preset, by name, as NewGame takes them:
   * `{ name: "target", value: { kind: { case: "intValue", value: 100n } } }`.
   */
  options?: readonly MessageInitShape<typeof OptionSettingSchema>[];
  /** How many seats. */
  seats: number;
  /** The seed of every shuffle of the match (uint64). */
  seed: number | bigint;
  /** One bot per seat, in seat order. */
  bots: readonly Bot[];
  /** Give up (MatchTooLong) after this many moves. */
  maxMoves?: number;
  /**
   * How ApplyMove requests travel: "stream" (the default), the items of one
   * ApplyMoveStream for the match, answered as the unary call would be at a
   * third of the cost; "unary", one ApplyMove call per move, for bots that
   * think longer than the server's stream idle limit (30 s by default).
   */
  via?: ApplyVia;
}

export interface MatchResult {
  /** The final state: match phase MATCH_OVER, `match.winners` set. */
  state: GameState;
  /** Moves played over the whole match. */
  moves: number;
  /** Deals played. */
  deals: number;
}

export const DEFAULT_MAX_MOVES = 100_000;

/** A match went on for more than `maxMoves` moves; carries the state reached. */
export class MatchTooLong extends Error {
  override name = "MatchTooLong";

  constructor(
    readonly maxMoves: number,
    readonly state: GameState,
  ) {
    super(
      `the match is not over after ${maxMoves} moves (deal ${state.match?.dealNumber ?? 0}, ` +
        `move number ${state.moveNumber}); raise the move limit or look for a game that cannot end`,
    );
  }
}

/**
 * The server broke its own contract (no acting seat with a move, a listed
 * move rejected, a state in no phase): a bug to report, never a game outcome.
 */
export class ServerContradiction extends Error {
  override name = "ServerContradiction";
}

/**
 * The seat whose bot chooses: the seat whose turn it is when it has moves,
 * else the first acting seat (ascending) that has any.
 */
export function choosingSeat(state: GameState, legal: LegalMoves): number {
  if ((legal.get(state.currentSeat)?.length ?? 0) > 0) {
    return state.currentSeat;
  }
  const seat = [...legal.keys()].sort((a, b) => a - b).find((s) => (legal.get(s)?.length ?? 0) > 0);
  if (seat === undefined) {
    throw new ServerContradiction(
      `no acting seat [${state.actingSeats.join(", ")}] has a legal move ` +
        `(move number ${state.moveNumber})`,
    );
  }
  return seat;
}

/** NewGame, then play to the end of the match. */
export async function playMatch(client: MatchBackend, spec: MatchSpec): Promise<MatchResult> {
  const maxMoves = spec.maxMoves ?? DEFAULT_MAX_MOVES;
  checkSpec(spec, maxMoves);
  const seed = uint64Of(spec.seed);
  const started = await client.newGame({
    game: spec.game,
    preset: spec.preset ?? "",
    seatCount: spec.seats,
    seed,
    options: [...(spec.options ?? [])],
  });
  const applier =
    (spec.via ?? "stream") === "stream" ? streamApplier(client) : unaryApplier(client);
  let result: MatchResult;
  try {
    result = await playFrom(client, applier, present(started.state, "NewGame"), spec, maxMoves);
  } catch (error) {
    applier.abandon();
    throw error;
  }
  await applier.close();
  return result;
}

async function playFrom(
  client: MatchBackend,
  applier: Applier,
  first: GameState,
  spec: MatchSpec,
  maxMoves: number,
): Promise<MatchResult> {
  const wantsViews = spec.bots.some((bot) => bot.wantsView === true);
  let state = first;
  let moves = 0;
  let deals = 1;
  // The next state's legal moves and views as the last ApplyMove answered
  // them; none after NewGame and NextDeal, and then the loop asks.
  let legal: LegalMoves | undefined;
  let views = new Map<number, View>();
  for (;;) {
    const phase = state.match?.phase ?? MatchPhase.UNSPECIFIED;
    if (phase === MatchPhase.MATCH_OVER) {
      return { state, moves, deals };
    }
    if (phase === MatchPhase.DEAL_OVER) {
      state = present((await client.nextDeal({ state })).state, "NextDeal");
      deals += 1;
      legal = undefined;
      views = new Map();
      continue;
    }
    if (phase !== MatchPhase.DEAL_IN_PROGRESS) {
      throw new ServerContradiction(`a state in match phase ${MatchPhase[phase] ?? phase}`);
    }
    if (moves >= maxMoves) {
      throw new MatchTooLong(maxMoves, state);
    }
    legal ??= await legalMovesOf(client, state);
    const seat = choosingSeat(state, legal);
    const offered = legal.get(seat) ?? [];
    const bot = spec.bots[seat];
    if (bot === undefined) {
      throw new ServerContradiction(`seat ${seat} acts in a match of ${spec.seats} seats`);
    }
    const view =
      bot.wantsView === true
        ? (views.get(seat) ?? (await viewOf(client, state, seat)))
        : create(ViewSchema, { seat, game: state.game });
    const index = bot.choose(view, offered);
    const choice = offered[index];
    if (!Number.isInteger(index) || choice === undefined) {
      throw new RangeError(
        `the bot of seat ${seat} chose index ${index} of ${offered.length} moves`,
      );
    }
    const answer = await applier.apply({
      state,
      move: choice.move,
      nextLegalMoves: true,
      nextViews: wantsViews,
    });
    if (!answer.accepted) {
      throw new ServerContradiction(
        `${JSON.stringify(choice.notation)} of seat ${seat} was listed as legal but rejected ` +
          `(rule ${answer.rejection?.rule ?? "?"}): ${answer.rejection?.message ?? ""}`,
      );
    }
    state = present(answer.state, "ApplyMove");
    legal = new Map(answer.nextLegalMoves.map((entry) => [entry.seat, entry.moves]));
    views = new Map(answer.nextViews.map((v) => [v.seat, v]));
    if (legal.size === 0 && state.actingSeats.length > 0) {
      legal = undefined; // the answer listed none: ask
    }
    moves += 1;
  }
}

/** Every acting seat's legal moves, one ListLegalMoves call per seat. */
async function legalMovesOf(client: MatchBackend, state: GameState): Promise<LegalMoves> {
  const answers = await Promise.all(
    state.actingSeats.map((seat) => client.listLegalMoves({ state, seat })),
  );
  return new Map(state.actingSeats.map((seat, i) => [seat, answers[i]?.moves ?? []]));
}

async function viewOf(client: MatchBackend, state: GameState, seat: number): Promise<View> {
  return present((await client.getView({ state, seat })).view, "GetView");
}

function present<T>(value: T | undefined, call: string): T {
  if (value === undefined) {
    throw new ServerContradiction(`${call} answered without the message it must carry`);
  }
  return value;
}

/** The seed as NewGame takes it, a uint64. */
function uint64Of(seed: number | bigint): bigint {
  const value = typeof seed === "bigint" || Number.isSafeInteger(seed) ? BigInt(seed) : -1n;
  if (value < 0n || value >= 1n << 64n) {
    throw new RangeError(`seed ${seed} is not an integer in 0..2^64-1`);
  }
  return value;
}

function checkSpec(spec: MatchSpec, maxMoves: number): void {
  if (!Number.isInteger(spec.seats) || spec.seats < 1) {
    throw new RangeError(`seats must be a positive integer, not ${spec.seats}`);
  }
  if (spec.bots.length !== spec.seats) {
    throw new RangeError(`${spec.bots.length} bots for ${spec.seats} seats: give one per seat`);
  }
  if (spec.via !== undefined && spec.via !== "stream" && spec.via !== "unary") {
    throw new RangeError(`via must be "stream" or "unary", not ${JSON.stringify(spec.via)}`);
  }
  if (!Number.isInteger(maxMoves) || maxMoves < 0) {
    throw new RangeError(`maxMoves must be a non-negative integer, not ${maxMoves}`);
  }
}
