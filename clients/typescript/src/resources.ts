import type { Client } from "openapi-fetch";

import { NotFoundError, PetstoreError } from "./errors.js";
import type { operations, paths } from "./schema.js";
import { follow, paginate } from "./paging.js";
import type { RateLimit } from "./transport.js";

type Query<Operation extends keyof operations> = NonNullable<operations[Operation]["parameters"]["query"]>;
/** A listing's filters: the operation's query, less the cursor the SDK follows itself. */
type Filters<Operation extends keyof operations> = Omit<Query<Operation>, "cursor">;
type Body<Operation extends keyof operations> = operations[Operation] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;

/** The answer's body: errors have thrown in the transport, so a call that resolves has one. */
async function body<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data, response } = await call;
  if (data === undefined) {
    throw new PetstoreError(response.status, undefined, response.headers);
  }
  return data;
}

async function done(call: Promise<{ response: Response }>): Promise<void> {
  await call;
}

type Api = Client<paths>;

export class Pets {
  constructor(private readonly api: Api) {}

  /** Every animal the filters match, page after page as the loop asks (`listPets`). */
  list(filters: Filters<"listPets"> = {}) {
    return paginate((cursor) => this.api.GET("/pets", { params: { query: { ...filters, cursor } } }));
  }

  /** One animal, through `listPets?id=` (`getPet` is deprecated); `NotFoundError` if none. */
  async get(id: number) {
    // A variable, not a literal: tests/clients/released.py compiles this layer against the first
    // release's document, whose listPets has no `id`.
    const byId = { id: [id], limit: 1 };
    const [pet] = await body(this.api.GET("/pets", { params: { query: byId } }));
    if (pet === undefined) {
      throw new NotFoundError(404, { code: "not_found", message: `No animal ${id}.`, status: 404 }, new Headers());
    }
    return pet;
  }

  /** `createPet`. */
  create(pet: Body<"createPet">) {
    return body(this.api.POST("/pets", { body: pet }));
  }
}

export class Categories {
  constructor(private readonly api: Api) {}

  /** All categories (`listCategories`: one answer, not paged). */
  list() {
    return body(this.api.GET("/categories"));
  }

  get(id: number) {
    return body(this.api.GET("/categories/{categoryId}", { params: { path: { categoryId: id } } }));
  }

  create(category: Body<"createCategory">) {
    return body(this.api.POST("/categories", { body: category }));
  }
}

export class Orders {
  constructor(private readonly api: Api) {}

  /** The account's orders, page after page (`listOrders`). */
  list(filters: Filters<"listOrders"> = {}) {
    return paginate((cursor) => this.api.GET("/store/orders", { params: { query: { ...filters, cursor } } }));
  }

  /** `placeOrder`: `ConflictError` when the animal is no longer available. */
  place(order: Body<"placeOrder">) {
    return body(this.api.POST("/store/orders", { body: order }));
  }

  get(id: number) {
    return body(this.api.GET("/store/orders/{orderId}", { params: { path: { orderId: id } } }));
  }

  /** `cancelOrder`: `ConflictError` once delivered. */
  cancel(id: number) {
    return done(this.api.DELETE("/store/orders/{orderId}", { params: { path: { orderId: id } } }));
  }
}

interface EventFilters {
  /** Only events of these types (the query's `type`). */
  types?: Query<"listEvents">["type"];
  limit?: Query<"listEvents">["limit"];
}

export class Events {
  constructor(private readonly api: Api) {}

  private page(filters: EventFilters) {
    const { types, limit } = filters;
    return (cursor: string | undefined) =>
      this.api.GET("/events", { params: { query: { type: types, limit, cursor } } });
  }

  /** The feed's events up to its end, oldest first (`listEvents`). */
  list(filters: EventFilters = {}) {
    return paginate(this.page(filters));
  }

  /** The feed as it grows: at its end, asked again every `everySeconds`. Never ends: break out. */
  follow(filters: EventFilters & { everySeconds?: number } = {}) {
    return follow(this.page(filters), filters.everySeconds);
  }
}

export class Deliveries {
  constructor(private readonly api: Api) {}

  /** An endpoint's deliveries, newest first (`listWebhookDeliveries`). */
  list(endpointId: number, filters: Filters<"listWebhookDeliveries"> = {}) {
    return paginate((cursor) =>
      this.api.GET("/webhook_endpoints/{endpointId}/deliveries", {
        params: { path: { endpointId }, query: { ...filters, cursor } },
      }),
    );
  }

  /** `retryWebhookDelivery`: `ConflictError` while that delivery is being sent. */
  retry(endpointId: number, deliveryId: number) {
    return body(
      this.api.POST("/webhook_endpoints/{endpointId}/deliveries/{deliveryId}/retry", {
        params: { path: { endpointId, deliveryId } },
      }),
    );
  }
}

export class WebhookEndpoints {
  readonly deliveries: Deliveries;

  constructor(private readonly api: Api) {
    this.deliveries = new Deliveries(api);
  }

  /** The account's endpoints, without secrets (`listWebhookEndpoints`: not paged). */
  list() {
    return body(this.api.GET("/webhook_endpoints"));
  }

  /** `createWebhookEndpoint`: the answer holds the signing `secret`, shown this once. */
  create(endpoint: Body<"createWebhookEndpoint">) {
    return body(this.api.POST("/webhook_endpoints", { body: endpoint }));
  }

  get(id: number) {
    return body(this.api.GET("/webhook_endpoints/{endpointId}", { params: { path: { endpointId: id } } }));
  }

  /** `updateWebhookEndpoint`: `enabled: true` makes a paused or disabled one healthy. */
  update(id: number, changes: Body<"updateWebhookEndpoint">) {
    return body(
      this.api.PATCH("/webhook_endpoints/{endpointId}", { params: { path: { endpointId: id } }, body: changes }),
    );
  }

  delete(id: number) {
    return done(this.api.DELETE("/webhook_endpoints/{endpointId}", { params: { path: { endpointId: id } } }));
  }

  /** `rotateWebhookEndpointSecret`: the new secret; the old one signs beside it for 24 h unless told. */
  rotateSecret(id: number, rotation?: Body<"rotateWebhookEndpointSecret">) {
    return body(
      this.api.POST("/webhook_endpoints/{endpointId}/rotate_secret", {
        params: { path: { endpointId: id } },
        body: rotation,
      }),
    );
  }

  /** `recoverWebhookEndpoint`: the failed deliveries since then, sent again. */
  recover(id: number, recovery: Body<"recoverWebhookEndpoint">) {
    return body(
      this.api.POST("/webhook_endpoints/{endpointId}/recover", { params: { path: { endpointId: id } }, body: recovery }),
    );
  }

  /** `testWebhookEndpoint`: a signed example event of that type, sent to the endpoint. */
  test(id: number, send: Body<"testWebhookEndpoint">) {
    return body(
      this.api.POST("/webhook_endpoints/{endpointId}/test", { params: { path: { endpointId: id } }, body: send }),
    );
  }
}

/**
 * `petstore.rateLimit`: `get()` asks the service where the account stands (`getRateLimit`), and
 * `limit`, `remaining` and `reset` are the latest answer's headers, as `petstore.rateLimit` was
 * until 1.1 (undefined before the first answer).
 */
export class RateLimits {
  /** The latest answer's limit headers, as numbers. */
  latest: RateLimit | undefined;

  constructor(private readonly api: Api) {}

  get limit(): number | undefined {
    return this.latest?.limit;
  }

  get remaining(): number | undefined {
    return this.latest?.remaining;
  }

  get reset(): number | undefined {
    return this.latest?.reset;
  }

  /** The plan, each window's count and any ban, read without spending them (`getRateLimit`). */
  get() {
    return body(this.api.GET("/rate_limit"));
  }
}

export class Usage {
  constructor(private readonly api: Api) {}

  /** The account's requests per UTC day, the last `days` (`getUsage`). */
  get(query: Query<"getUsage"> = {}) {
    return body(this.api.GET("/usage", { params: { query } }));
  }
}
