import createClient, { type Client } from "openapi-fetch";

import { Categories, Events, Orders, Pets, RateLimits, Usage, WebhookEndpoints } from "./resources.js";
import type { components, paths } from "./schema.js";
import { EtagCache, type RetryOptions, transport } from "./transport.js";

export * from "./errors.js";
export { follow, nextCursor, paginate } from "./paging.js";
export type { Categories, Deliveries, Events, Orders, Pets, RateLimits, Usage, WebhookEndpoints } from "./resources.js";
export { EtagCache, rateLimitOf } from "./transport.js";
export type { RateLimit, RetryInfo, RetryOptions } from "./transport.js";
export type { components, paths } from "./schema.js";

export type Pet = components["schemas"]["Pet"];
export type Category = components["schemas"]["Category"];
export type Order = components["schemas"]["Order"];
export type Event = components["schemas"]["Event"];
export type Delivery = components["schemas"]["Delivery"];
export type Endpoint = components["schemas"]["Endpoint"];
export type CreatedEndpoint = components["schemas"]["CreatedEndpoint"];
export type UsageDay = components["schemas"]["UsageDay"];
/** What `petstore.rateLimit.get()` answers (the schema's `RateLimit`; `RateLimit` here is the
 * headers' numbers). */
export type AccountRateLimit = components["schemas"]["RateLimit"];

/** The servers the OpenAPI document lists. */
export const SERVERS = {
  production: "https://petstore.example.com/v1",
  staging: "https://staging.petstore.example.com/v1",
} as const;

export interface PetstoreOptions {
  /** A secret key (`petstore_live_…`), or a publishable one in a browser; in Node.js, by
   * default, the environment's `PETSTORE_API_KEY`. */
  apiKey?: string;
  /** `production`, `staging`, or any base URL ending in `/v1`; in Node.js, by default, the
   * environment's `PETSTORE_SERVER`, else `production`. */
  server?: keyof typeof SERVERS | (string & {});
  retry?: RetryOptions;
  /** Keep answers by their `ETag` and ask with `If-None-Match`: `true`, or a cache to share. */
  cache?: boolean | EtagCache;
  /** The fetch underneath (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

/**
 * The API by resource (`petstore.pets.list()`), and through openapi-fetch
 * (`petstore.api.GET("/pets", …)`), with the partner's chores done: the key sent, `429` and
 * `503` waited out, connection errors retried for GETs and for POSTs (each gets an
 * `Idempotency-Key`), errors thrown as `PetstoreError`s by code.
 */
export class Petstore {
  readonly api: Client<paths>;
  readonly cache: EtagCache | undefined;
  readonly pets: Pets;
  readonly categories: Categories;
  readonly orders: Orders;
  readonly events: Events;
  readonly webhookEndpoints: WebhookEndpoints;
  /** `get()` asks the service; `limit`, `remaining`, `reset` are the latest answer's headers. */
  readonly rateLimit: RateLimits;
  readonly usage: Usage;

  constructor(options: PetstoreOptions = {}) {
    // No `process` in a browser.
    const env = globalThis.process?.env ?? {};
    const apiKey = options.apiKey ?? env.PETSTORE_API_KEY;
    if (apiKey === undefined) {
      throw new TypeError("apiKey: a key, given or in PETSTORE_API_KEY");
    }
    const server = options.server ?? env.PETSTORE_SERVER ?? "production";
    const baseUrl = server in SERVERS ? SERVERS[server as keyof typeof SERVERS] : server;
    if (!/^https?:\/\//.test(baseUrl)) {
      throw new TypeError(`server: "production", "staging" or a URL, not ${JSON.stringify(server)}`);
    }
    this.cache = options.cache === true ? new EtagCache() : options.cache || undefined;
    const fetch = transport({
      retry: options.retry ?? {},
      cache: this.cache,
      fetch: options.fetch ?? globalThis.fetch,
      onRateLimit: (rateLimit) => {
        this.rateLimit.latest = rateLimit;
      },
    });
    this.api = createClient<paths>({
      baseUrl,
      fetch,
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    this.pets = new Pets(this.api);
    this.categories = new Categories(this.api);
    this.orders = new Orders(this.api);
    this.events = new Events(this.api);
    this.webhookEndpoints = new WebhookEndpoints(this.api);
    this.rateLimit = new RateLimits(this.api);
    this.usage = new Usage(this.api);
  }
}

