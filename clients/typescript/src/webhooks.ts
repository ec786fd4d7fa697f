import { createHmac, timingSafeEqual } from "node:crypto";

import type { components } from "./schema.js";

/** The delivery is not the service's: answer it 4xx. */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

/**
 * The secret given is none (unset, empty, not base64): the receiver's configuration is wrong,
 * not the delivery. Not a `WebhookVerificationError`, so that it is not answered as a bad one.
 */
export class WebhookSecretError extends Error {
  override name = "WebhookSecretError";
}

export interface VerifyOptions {
  /** How far the delivery's timestamp may be from now (default 300 s, as Standard Webhooks). */
  toleranceSeconds?: number;
  now?: Date;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

// Seconds since 1970 in ASCII digits: twelve reach the year 33658.
const TIMESTAMP = /^[0-9]{1,12}$/;
// Standard base64, padded: Buffer.from(…, "base64") would skip what is not, down to nothing.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Verifies deliveries with one endpoint's secret (`whsec_…` as the service shows it, or its
 * base64 alone), checked once here: `WebhookSecretError` for one that is none.
 */
export class WebhookVerifier {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = keyOf(secret);
  }

  /**
   * The event of a delivery, once its `webhook-signature` is found to be the secret's
   * (Standard Webhooks: HMAC-SHA256 of `id.timestamp.body`). Pass the body exactly as received.
   * Throws `WebhookVerificationError` otherwise, whatever the headers or the body hold.
   * Deliveries come at least once: deduplicate by `webhook-id`.
   */
  verify(body: string | Uint8Array, headers: HeaderSource, options: VerifyOptions = {}): components["schemas"]["Event"] {
    const id = header(headers, "webhook-id");
    const timestamp = header(headers, "webhook-timestamp");
    const signatures = header(headers, "webhook-signature");
    if (!id || !timestamp || !signatures) {
      throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature");
    }
    const now = (options.now ?? new Date()).getTime() / 1000;
    if (!TIMESTAMP.test(timestamp) || Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
      throw new WebhookVerificationError("webhook-timestamp is too far from now");
    }
    const payload = bytesOf(body);
    const expected = createHmac("sha256", this.#key).update(`${id}.${timestamp}.`).update(payload).digest();
    // During a secret's rotation the service signs with several: any one of them will do.
    for (const signature of signatures.split(" ")) {
      const [version, value] = signature.split(",", 2);
      const given = Buffer.from(value ?? "", "base64");
      if (version === "v1" && given.length === expected.length && timingSafeEqual(given, expected)) {
        return eventOf(payload);
      }
    }
    throw new WebhookVerificationError("no signature matches the secret");
  }
}

/**
 * `new WebhookVerifier(secret).verify(…)`: the event of a delivery, or
 * `WebhookVerificationError`; `WebhookSecretError` first for a secret that is none.
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions = {},
): components["schemas"]["Event"] {
  return new WebhookVerifier(secret).verify(body, headers, options);
}

// The secret's key: strict base64 of at least one byte after an optional `whsec_`, since an
// empty key would verify anyone's signature.
function keyOf(secret: unknown): Buffer {
  if (typeof secret !== "string") {
    throw new WebhookSecretError("the webhook secret is not a string");
  }
  const encoded = secret.replace(/^whsec_/, "");
  if (!BASE64.test(encoded)) {
    throw new WebhookSecretError("the webhook secret is not base64 (whsec_…)");
  }
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) {
    throw new WebhookSecretError("the webhook secret is empty: is its variable set?");
  }
  return key;
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) {
    return headers.get(name) ?? undefined;
  }
  if (typeof headers !== "object" || headers === null) {
    throw new WebhookVerificationError("the headers are not a record of names to values");
  }
  const found: unknown = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const value = Array.isArray(found) ? (found[0] as unknown) : found;
  return typeof value === "string" ? value : undefined;
}

function bytesOf(body: string | Uint8Array): Buffer {
  if (typeof body === "string") {
    return Buffer.from(body, "utf8");
  }
  if (body instanceof Uint8Array) {
    return Buffer.from(body);
  }
  throw new WebhookVerificationError("the body is neither bytes nor text");
}

function eventOf(payload: Buffer): components["schemas"]["Event"] {
  let event: unknown;
  try {
    event = JSON.parse(payload.toString("utf8"));
  } catch (error) {
    throw new WebhookVerificationError("the body is not JSON", { cause: error });
  }
  if (typeof event !== "object" || event === null || Array.isArray(event)) {
    throw new WebhookVerificationError("the body is not an event");
  }
  return event as components["schemas"]["Event"];
}
