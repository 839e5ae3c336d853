// The server: CroupierService and BotService over the Connect protocol
// (binary protobuf) on the origin that served this page (`croupier serve
// --web`), and how a refusal is shown.

import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";

import { BotService } from "../../typescript/src/gen/croupier/v1/bot_pb.js";
import type { GameState } from "../../typescript/src/gen/croupier/v1/game_pb.js";
import {
  CroupierService,
  type SealedState,
} from "../../typescript/src/gen/croupier/v1/service_pb.js";
import { BadRequestSchema } from "../../typescript/src/gen/google/rpc/error_details_pb.js";

const transport = createConnectTransport({ baseUrl: location.origin, useBinaryFormat: true });

export const croupier: Client<typeof CroupierService> = createClient(CroupierService, transport);
export const bots: Client<typeof BotService> = createClient(BotService, transport);

/**
 * What a page holds of a match: the state in the clear, or the state as the
 * server sealed it. Every request carries one of the two.
 */
export type Held =
  { state: GameState; sealed?: undefined } | { state?: undefined; sealed: SealedState };

/** The state part of a request: `{state}`, or `{sealedState}` (its match id and blob). */
export function carry(
  held: Held,
): { state: GameState } | { sealedState: { matchId: string; blob: Uint8Array } } {
  if (held.sealed !== undefined) {
    return { sealedState: { matchId: held.sealed.matchId, blob: held.sealed.blob } };
  }
  return { state: held.state };
}

/** The held state of an answer that carries `state` and `sealed_state`. */
export function heldOf(answer: { state?: GameState; sealedState?: SealedState }): Held | undefined {
  if (answer.sealedState !== undefined && answer.sealedState.blob.length > 0) {
    return { sealed: answer.sealedState };
  }
  return answer.state === undefined ? undefined : { state: answer.state };
}

/** "InvalidArgument" -> "INVALID_ARGUMENT", the gRPC name of a status code. */
export function codeName(code: Code): string {
  return (Code[code] ?? String(code)).replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

export interface Problem {
  /** "INVALID_ARGUMENT", or "ERROR" for what is not a ConnectError. */
  code: string;
  message: string;
  /** google.rpc.BadRequest's field violations, "field: description". */
  details: string[];
}

/** Any thrown thing as something to show. */
export function problemOf(error: unknown): Problem {
  if (error instanceof ConnectError) {
    const details = error
      .findDetails(BadRequestSchema)
      .flatMap((bad) => bad.fieldViolations.map((v) => `${v.field}: ${v.description}`));
    return { code: codeName(error.code), message: error.rawMessage, details };
  }
  if (error instanceof Error) return { code: "ERROR", message: error.message, details: [] };
  return { code: "ERROR", message: String(error), details: [] };
}

/** A fresh id for a match (bound to its sealed states). */
export function newMatchId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
