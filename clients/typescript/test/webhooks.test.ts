import assert from "node:assert/strict";
import { test } from "node:test";

import { follow, Petstore } from "@petstore/client";
import { verifyWebhook, WebhookVerificationError } from "@petstore/client/webhooks";
import { fixtures } from "./fixtures.js";

const { body, headers, secret, receivedAt } = fixtures.webhook;
// Verified as at the moment it arrived: the test holds however long the suite takes.
const now = new Date(receivedAt * 1000);

test("the verifier accepts a delivery from a running worker", () => {
  const event = verifyWebhook(body, headers, secret, { now });

  assert.equal(event.type, "pet.created");
  assert.equal(event.id, JSON.parse(body).id);
});

test("the verifier refuses the delivery with a changed body", () => {
  const changed = body.replace('"name":"', '"name":"X');

  assert.notEqual(changed, body);
  assert.throws(() => verifyWebhook(changed, headers, secret, { now }), WebhookVerificationError);
});

test("follow() yields the feed's events up to the delivered one", { timeout: 30_000 }, async () => {
  const petstore = new Petstore({ apiKey: fixtures.keys.paging, server: fixtures.baseUrl });
  const delivered = JSON.parse(body).id as string;
  const seen: string[] = [];

  for await (const event of follow((cursor) => petstore.api.GET("/events", { params: { query: { cursor } } }), 0.2)) {
    seen.push(event.id);
    if (event.id === delivered) {
      break;
    }
  }

  assert.equal(seen.at(-1), delivered);
  assert.equal(new Set(seen).size, seen.length);
});
