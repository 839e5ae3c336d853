// The client's own code: targets, and the field violations of an error.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Code, ConnectError } from "@connectrpc/connect";

import { baseUrlOf, createCroupierClient, fieldViolations } from "../src/client.js";
import { BadRequestSchema } from "../src/gen/google/rpc/error_details_pb.js";

test("a host:port target becomes the transport's base URL", () => {
  assert.equal(baseUrlOf("127.0.0.1:50051"), "http://127.0.0.1:50051");
  assert.equal(baseUrlOf("localhost:80"), "http://localhost:80");
  assert.equal(baseUrlOf("Croupier.Example:80"), "http://croupier.example:80");
  assert.equal(baseUrlOf("[::1]:50051"), "http://[::1]:50051");
  assert.equal(baseUrlOf("croupier.example:443", true), "https://croupier.example:443");
});

test("a target that is not host:port is refused, naming it", () => {
  for (const target of [
    "",
    "localhost",
    "127.0.0.1:",
    "http://h:1",
    "h:1/path",
    "u@h:1",
    "h:1?x",
  ]) {
    assert.throws(
      () => baseUrlOf(target),
      {
        name: "TypeError",
        message: `target ${JSON.stringify(target)} is not host:port`,
      },
      target,
    );
  }
  assert.throws(() => baseUrlOf("h:0"), {
    name: "RangeError",
    message: /port 0 is not in 1..65535/,
  });
  assert.throws(() => createCroupierClient("h:70000"), RangeError);
});

test("fieldViolations reads the BadRequest details of a ConnectError", () => {
  const error = new ConnectError("bad state", Code.InvalidArgument, undefined, [
    {
      desc: BadRequestSchema,
      value: {
        fieldViolations: [
          { field: "seat_count", description: "1 seat; uno takes 2 to 10" },
          { field: "seed", description: "too big" },
        ],
      },
    },
  ]);
  assert.deepEqual(fieldViolations(error), [
    { field: "seat_count", description: "1 seat; uno takes 2 to 10" },
    { field: "seed", description: "too big" },
  ]);
});

test("fieldViolations is empty for errors without them", () => {
  assert.deepEqual(fieldViolations(new ConnectError("stopping", Code.Unavailable)), []);
  assert.deepEqual(fieldViolations(new Error("not a ConnectError")), []);
  assert.deepEqual(fieldViolations(undefined), []);
});

test("a host the URL parser refuses is named", () => {
  assert.throws(() => baseUrlOf("[1::2::3]:1"), {
    name: "TypeError",
    message: /\[1::2::3\] is not a host name or address/,
  });
});
