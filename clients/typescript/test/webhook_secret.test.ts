import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { test } from "node:test";

import {
  verifyWebhook,
  WebhookSecretError,
  WebhookVerificationError,
  WebhookVerifier,
} from "@petstore/client/webhooks";

// A secret that is no secret (unset, only the prefix, not base64) is refused with
// WebhookSecretError when the verifier is made, and by verifyWebhook, before any delivery is
// looked at: signed with an empty key, a forged event would verify.

const NOW = 1_800_000_000;
const now = new Date(NOW * 1000);
const SECRET = "whsec_" + Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
const NOT_SECRETS = ["", "whsec_", "whsec_!!!!", "!!!!", "whsec_abc", "whsec_ "];

function forgedWith(key: Buffer): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ id: "evt_forged", type: "pet.created", data: {} });
  const mac = createHmac("sha256", key).update(`msg_1.${NOW}.`).update(body).digest();
  const headers = {
    "webhook-id": "msg_1",
    "webhook-timestamp": String(NOW),
    "webhook-signature": "v1," + mac.toString("base64"),
  };
  return { body, headers };
}

for (const secret of NOT_SECRETS) {
  test(`the verifier refuses ${JSON.stringify(secret)} when it is made`, () => {
    assert.throws(() => new WebhookVerifier(secret), WebhookSecretError);
  });

  test(`verifyWebhook refuses ${JSON.stringify(secret)} before reading the delivery`, () => {
    const { body, headers } = forgedWith(Buffer.alloc(0));
    assert.throws(() => verifyWebhook(body, headers, secret, { now }), WebhookSecretError);
  });
}

test("the secret error is not a verification error", () => {
  // A receiver answers 4xx to a bad delivery; an unset secret is its own fault, not the sender's.
  const error: unknown = new WebhookSecretError("x");
  assert.ok(!(error instanceof WebhookVerificationError));
});

test("a verifier made once verifies each delivery", () => {
  const verifier = new WebhookVerifier(SECRET);
  const { body, headers } = forgedWith(Buffer.from(SECRET.replace(/^whsec_/, ""), "base64"));

  assert.equal(verifier.verify(body, headers, { now }).id, "evt_forged");
  assert.equal(verifyWebhook(body, headers, SECRET.replace(/^whsec_/, ""), { now }).id, "evt_forged");
  assert.throws(() => verifier.verify(body.replace("forged", "fooled"), headers, { now }), WebhookVerificationError);
});
