// How the match loop sends its ApplyMove requests: one unary call each, or
// as the items of one ApplyMoveStream per match. The server answers a stream
// item byte for byte as it answers the unary call; the stream saves each
// call's HTTP/2 stream, headers and deadline, which over gRPC from Node cost
// more than the move: a 2-seat UNO match of 5,497 moves took 10.5 s of client
// CPU and 7.9 s of server CPU as unary calls, 3.2 s and 3.2 s streamed.

import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";

import type { CroupierClient } from "./client.js";
import type {
  ApplyMoveRequestSchema,
  ApplyMoveResponse,
  ApplyMoveStreamRequestSchema,
  ItemError,
} from "./gen/croupier/v1/service_pb.js";
import { BadRequestSchema } from "./gen/google/rpc/error_details_pb.js";

export type ApplyMoveRequestInit = MessageInitShape<typeof ApplyMoveRequestSchema>;

/** "stream": one ApplyMoveStream per match; "unary": an ApplyMove call per move. */
export type ApplyVia = "stream" | "unary";

/** Sends the ApplyMove requests of one match, in order. */
export interface Applier {
  apply(request: ApplyMoveRequestInit): Promise<ApplyMoveResponse>;
  /** The match is over: end the call cleanly. */
  close(): Promise<void>;
  /** The match failed: drop the call without waiting for it. */
  abandon(): void;
}

export function unaryApplier(client: Pick<CroupierClient, "applyMove">): Applier {
  return {
    apply: (request) => client.applyMove(request),
    close: async () => {},
    abandon: () => {},
  };
}

/**
 * The items of one ApplyMoveStream, opened at the first request. The stream
 * has no deadline of its own (a match may last minutes); the server ends it
 * when it waits longer than its idle limit (30 s by default) for the next
 * request, so a bot that thinks longer than that wants the unary path.
 */
export function streamApplier(client: Pick<CroupierClient, "applyMoveStream">): Applier {
  const pending = new Handoff<ApplyMoveRequestInit>();
  const abort = new AbortController();
  let responses: AsyncIterator<{ result?: { outcome: Outcome } }> | undefined;
  return {
    async apply(request) {
      responses ??= client
        .applyMoveStream(itemsOf(pending), { signal: abort.signal, timeoutMs: 0 })
        [Symbol.asyncIterator]();
      pending.put(request);
      const next = await responses.next();
      if (next.done === true) {
        throw new ConnectError("ApplyMoveStream ended before answering", Code.Internal);
      }
      const outcome = next.value.result?.outcome;
      if (outcome?.case === "response") {
        return outcome.value;
      }
      if (outcome?.case === "error") {
        throw itemErrorToConnectError(outcome.value);
      }
      throw new ConnectError("ApplyMoveStream answered an item with no outcome", Code.Internal);
    },
    async close() {
      pending.close();
      if (responses === undefined) {
        return;
      }
      // The server ends the stream once the requests end; anything but that
      // (an answer too many) means the stream is not what it should be.
      try {
        const rest = await responses.next();
        if (rest.done !== true) {
          throw new ConnectError(
            "ApplyMoveStream answered more items than it was sent",
            Code.Internal,
          );
        }
      } finally {
        abort.abort();
      }
    },
    abandon() {
      pending.close();
      abort.abort();
    },
  };
}

/** The stream's requests: each item as the loop puts it, until closed. */
async function* itemsOf(
  pending: Handoff<ApplyMoveRequestInit>,
): AsyncGenerator<MessageInitShape<typeof ApplyMoveStreamRequestSchema>> {
  for (let item = await pending.take(); item !== undefined; item = await pending.take()) {
    yield { item };
  }
}

/**
 * One value at a time from the loop to the stream's reader: the loop puts a
 * request only after the previous one was answered, so one slot is enough.
 */
class Handoff<T> {
  #value: T | undefined;
  #closed = false;
  #waiting: ((value: T | undefined) => void) | undefined;

  put(value: T): void {
    if (this.#closed || this.#value !== undefined) {
      throw new Error(this.#closed ? "the stream is closed" : "a request is still unanswered");
    }
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting === undefined) {
      this.#value = value;
    } else {
      waiting(value);
    }
  }

  /** The next value, or undefined once closed. */
  take(): Promise<T | undefined> {
    const value = this.#value;
    this.#value = undefined;
    if (value !== undefined || this.#closed) {
      return Promise.resolve(value);
    }
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  close(): void {
    this.#closed = true;
    this.#waiting?.(undefined);
    this.#waiting = undefined;
  }
}

type Outcome =
  | { case: "response"; value: ApplyMoveResponse }
  | { case: "error"; value: ItemError }
  | { case: undefined; value?: undefined };

/**
 * The error the unary call would have raised for this item: its code, its
 * message, and its field violations as a google.rpc.BadRequest detail, so
 * that fieldViolations() reads them the same way.
 */
export function itemErrorToConnectError(error: ItemError): ConnectError {
  const code = error.code in Code ? (error.code as Code) : Code.Unknown;
  const details =
    error.fieldViolations.length === 0
      ? []
      : [
          {
            desc: BadRequestSchema,
            value: {
              fieldViolations: error.fieldViolations.map(({ field, description }) => ({
                field,
                description,
              })),
            },
          },
        ];
  return new ConnectError(error.message, code, undefined, details);
}
