import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { test } from "node:test";

import { verifyWebhook, WebhookVerificationError } from "@petstore/client/webhooks";
import fc from "fast-check";

// Whatever a delivery's headers and body hold, the verifier answers with the event or with
// WebhookVerificationError, never another exception: a receiver that catches only that error
// answers 4xx to anything malformed, never 500.

const SECRET = "whsec_" + Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
const NOW = 1_800_000_000;
const now = new Date(NOW * 1000);
const NAMES = ["webhook-id", "webhook-timestamp", "webhook-signature"];

const anything = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.uint8Array(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
const timestamps = fc.oneof(
  fc.constant(String(NOW)),
  fc.integer().map(String),
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("²", "١٢٣", " 1800000000", "1800000000 ", "9".repeat(5000), "-1", "1e9", ""),
);
const signatureValues = fc.oneof(
  fc.string(),
  fc.uint8Array().map((raw) => "v1," + Buffer.from(raw).toString("base64")),
  fc.constantFrom("v1,", "v1,é", "v1,====", "v1,%%%", ",", "v1", "v1 v1,x"),
);

function sign(id: string, timestamp: string, body: Uint8Array): string {
  const key = Buffer.from(SECRET.replace(/^whsec_/, ""), "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
  return "v1," + mac.toString("base64");
}

function answersOrRefuses(body: unknown, headers: unknown): void {
  let event: unknown;
  try {
    event = verifyWebhook(body as string, headers as Record<string, string>, SECRET, { now });
  } catch (error) {
    assert.ok(error instanceof WebhookVerificationError, `threw ${String(error)}`);
    return;
  }
  assert.equal(typeof event, "object");
}

test("any headers and body give the event or the verification error", () => {
  const headers = fc.oneof(
    anything,
    fc.dictionary(
      fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 20 })),
      fc.oneof(timestamps, signatureValues, anything),
      { maxKeys: 5 },
    ),
  );
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.uint8Array(), anything), headers, answersOrRefuses),
    {
      numRuns: 300,
      examples: [
        ["{}", { "webhook-id": "m", "webhook-timestamp": String(NOW), "webhook-signature": 1 }],
        ["{}", { "webhook-id": ["m"], "webhook-timestamp": [NOW], "webhook-signature": "v1,x" }],
        [{}, { "webhook-id": "m", "webhook-timestamp": String(NOW), "webhook-signature": "v1,x" }],
        ["{}", null],
      ],
    },
  );
});

test("a signed body that is no event gives the verification error", () => {
  const bodies = fc.oneof(fc.uint8Array(), fc.string().map((text) => Buffer.from(text, "utf8")));
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), timestamps.filter(Boolean), bodies, (id, timestamp, body) => {
      const signature = sign(id, timestamp, body);
      answersOrRefuses(body, { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature });
    }),
    {
      numRuns: 300,
      examples: [
        ["m", String(NOW), Buffer.from("not JSON")],
        ["m", String(NOW), Buffer.from([0xff, 0xfe])],
        ["m", String(NOW), Buffer.from("[1, 2]")],
        ["m", String(NOW), Buffer.from("null")],
        ["m", String(NOW), Buffer.from("[".repeat(100_000) + "]".repeat(100_000))],
      ],
    },
  );
});
