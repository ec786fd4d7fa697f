import { createHmac, timingSafeEqual } from "node:crypto";

import type { components } from "./schema.js";

export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

export interface VerifyOptions {
  /** How far the delivery's timestamp may be from now (default 300 s, as Standard Webhooks). */
  toleranceSeconds?: number;
  now?: Date;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/**
 * The event of a delivery, once its `webhook-signature` is found to be the endpoint's secret's
 * (Standard Webhooks: HMAC-SHA256 of `id.timestamp.body`). Pass the body exactly as received.
 * Throws `WebhookVerificationError` otherwise. Deliveries come at least once: deduplicate by
 * `webhook-id`.
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions = {},
): components["schemas"]["Event"] {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature");
  }
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError("webhook-timestamp is too far from now");
  }
  const payload = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(payload).digest();
  // During a secret's rotation the service signs with both: any one of them will do.
  for (const signature of signatures.split(" ")) {
    const [version, value] = signature.split(",", 2);
    const given = Buffer.from(value ?? "", "base64");
    if (version === "v1" && given.length === expected.length && timingSafeEqual(given, expected)) {
      return JSON.parse(payload.toString("utf8")) as components["schemas"]["Event"];
    }
  }
  throw new WebhookVerificationError("no signature matches the secret");
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) {
    return headers.get(name) ?? undefined;
  }
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found[0] : found;
}
