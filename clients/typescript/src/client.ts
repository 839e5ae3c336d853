// The Croupier client: Connect's generated client of CroupierService over
// gRPC (HTTP/2), and the error details the server attaches to a refusal.
//
// Every call is the service's own, typed by the generated stubs:
//   const croupier = createCroupierClient("127.0.0.1:50051");
//   const { state } = await croupier.newGame({ game: "uno", seatCount: 2, seed: 7n });
// A failed call rejects with a ConnectError whose `code` is the gRPC status
// (Code.InvalidArgument for a malformed state, an unknown game or option...);
// `fieldViolations(error)` reads the google.rpc.BadRequest that comes with it.
// An illegal move is not an error: ApplyMove answers with a Rejection.

import { type Client, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";

import { CroupierService } from "./gen/croupier/v1/service_pb.js";
import { BadRequestSchema } from "./gen/google/rpc/error_details_pb.js";

/** Every RPC of CroupierService as an async method (newGame, applyMove...). */
export type CroupierClient = Client<typeof CroupierService>;

export interface CroupierClientOptions {
  /** A deadline for every call, in milliseconds; none when unset. */
  timeoutMs?: number;
  /** Speak TLS (https) to the server; plaintext HTTP/2 when unset. */
  tls?: boolean;
}

/** One field at fault, as google.rpc.BadRequest.FieldViolation. */
export interface FieldViolation {
  field: string;
  description: string;
}

/**
 * A client of the Croupier server at `target`, "host:port" as the other
 * clients take it ("127.0.0.1:50051", "[::1]:50051"). The connection opens
 * on the first call and, while idle, does not keep the process alive.
 */
export function createCroupierClient(
  target: string,
  options: CroupierClientOptions = {},
): CroupierClient {
  const transport = createGrpcTransport({
    baseUrl: baseUrlOf(target, options.tls ?? false),
    ...(options.timeoutMs === undefined ? {} : { defaultTimeoutMs: options.timeoutMs }),
  });
  return createClient(CroupierService, transport);
}

/** "host:port" -> "http://host:port", refusing anything else with a reason. */
export function baseUrlOf(target: string, tls = false): string {
  // A name or IPv4 address, or an IPv6 address in brackets; then the port.
  const parts = /^(\[[0-9A-Fa-f:.]+\]|[^\s:/?#@[\]]+):(\d+)$/.exec(target);
  if (parts === null) {
    throw new TypeError(`target ${JSON.stringify(target)} is not host:port`);
  }
  const port = Number(parts[2]);
  if (port < 1 || port > 65535) {
    throw new RangeError(`target ${JSON.stringify(target)}: port ${parts[2]} is not in 1..65535`);
  }
  const scheme = tls ? "https" : "http";
  try {
    // The URL parser checks the host (IPv6 syntax, characters a name may not hold).
    return `${scheme}://${new URL(`${scheme}://${parts[1]}`).host}:${port}`;
  } catch {
    throw new TypeError(
      `target ${JSON.stringify(target)}: ${parts[1]} is not a host name or address`,
    );
  }
}

/**
 * The field violations of a refusal (INVALID_ARGUMENT carries one per
 * problem); empty for an error without them, or for what is not a
 * ConnectError at all.
 */
export function fieldViolations(error: unknown): FieldViolation[] {
  if (!(error instanceof ConnectError)) {
    return [];
  }
  return error
    .findDetails(BadRequestSchema)
    .flatMap((detail) => detail.fieldViolations)
    .map(({ field, description }) => ({ field, description }));
}
