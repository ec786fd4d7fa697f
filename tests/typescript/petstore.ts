// A partner's program: every operation of the API, with the README's request bodies as written,
// through openapi-fetch and the types openapi-typescript generates from the served document.
// tests/contract/test_typescript.py writes those types to ./schema.d.ts and compiles this file
// with `tsc --strict`; it is never run.
import createClient from "openapi-fetch";
import type { paths } from "./schema";

export async function tour(key: string): Promise<string[]> {
  const client = createClient<paths>({
    baseUrl: "https://petstore.example.com/v1",
    headers: { Authorization: `Bearer ${key}` },
  });
  const seen: string[] = [];

  const pets = await client.GET("/pets", { params: { query: { limit: 2, status: "available" } } });
  if (pets.data === undefined) throw new Error(pets.error.message);
  seen.push(...pets.data.map((pet) => `${pet.name} (${pet.status})`));

  const fido = await client.POST("/pets", {
    params: { header: { "Idempotency-Key": "3f1c-add-fido" } },
    body: { name: "Fido", categoryId: 1 },
  });
  if (fido.data === undefined) throw new Error(fido.error.message);
  seen.push(`${fido.data.name} added, ${fido.response.headers.get("Location")}`);

  const pet = await client.GET("/pets/{petId}", { params: { path: { petId: fido.data.id } } });
  if (pet.data === undefined) throw new Error(pet.error.message);
  seen.push(`${pet.data.name} is in category ${pet.data.categoryId}`);

  const categories = await client.GET("/categories");
  if (categories.data === undefined) throw new Error(categories.error.message);
  seen.push(...categories.data.map((category) => category.name));

  const reptiles = await client.POST("/categories", { body: { name: "Reptiles" } });
  if (reptiles.data === undefined) throw new Error(reptiles.error.code);
  seen.push(`${reptiles.data.name}: "${reptiles.data.description}"`);

  const category = await client.GET("/categories/{categoryId}", {
    params: { path: { categoryId: reptiles.data.id } },
  });
  if (category.data === undefined) throw new Error(category.error.message);
  seen.push(category.data.description);

  const placed = await client.POST("/store/orders", { body: { petId: 1 } });
  if (placed.data === undefined) throw new Error(placed.error.code);
  seen.push(`order ${placed.data.id} for pet ${placed.data.petId}: ${placed.data.status}`);

  const order = await client.GET("/store/orders/{orderId}", {
    params: { path: { orderId: placed.data.id } },
  });
  if (order.data === undefined) throw new Error(order.error.message);
  if (order.data.status === "pending") {
    const cancelled = await client.DELETE("/store/orders/{orderId}", {
      params: { path: { orderId: order.data.id } },
    });
    seen.push(`cancelled: ${cancelled.response.status}`);
  }

  const orders = await client.GET("/store/orders", { params: { query: { status: "cancelled" } } });
  if (orders.data === undefined) throw new Error(orders.error.message);
  seen.push(...orders.data.map((each) => `${each.id}: ${each.status}`));

  const limits = await client.GET("/rate_limit");
  if (limits.data === undefined) throw new Error(limits.error.message);
  seen.push(limits.data.plan.name, ...limits.data.windows.map((w) => `${w.name}: ${w.remaining}`));

  const usage = await client.GET("/usage", { params: { query: { days: 7 } } });
  if (usage.data === undefined) throw new Error(usage.error.message);
  seen.push(...usage.data.map((day) => `${day.date}: ${day.admitted} admitted`));

  const events = await client.GET("/events", {
    params: { query: { type: ["pet.status_changed", "order.approved"], limit: 50 } },
  });
  if (events.data === undefined) throw new Error(events.error.message);
  for (const event of events.data) {
    // Narrowed by `type`: were `data` not typed per event type, these would not compile.
    if (event.type === "pet.status_changed") {
      const previous: string = event.data.previousStatus;
      seen.push(`${event.data.name}: ${previous} → ${event.data.status}`);
    } else if (event.type === "order.approved") {
      const petId: number = event.data.petId;
      seen.push(`order ${event.data.id} for pet ${petId}: ${event.data.status}`);
    }
  }

  const made = await client.POST("/webhook_endpoints", {
    body: { url: "http://127.0.0.1:9000/hooks", events: ["pet.created"] },
  });
  if (made.data === undefined) throw new Error(made.error.message);
  const secret: string = made.data.secret;
  seen.push(`${made.data.url} signs with ${secret.slice(0, 6)}…`);

  const endpoints = await client.GET("/webhook_endpoints");
  if (endpoints.data === undefined) throw new Error(endpoints.error.message);
  seen.push(...endpoints.data.map((endpoint) => `${endpoint.url}: ${endpoint.state}`));

  const endpoint = await client.GET("/webhook_endpoints/{endpointId}", {
    params: { path: { endpointId: made.data.id } },
  });
  if (endpoint.data === undefined) throw new Error(endpoint.error.message);
  seen.push(endpoint.data.events.join(", "));

  const updated = await client.PATCH("/webhook_endpoints/{endpointId}", {
    params: { path: { endpointId: endpoint.data.id } },
    body: { url: "http://127.0.0.1:9001/hooks", enabled: true },
  });
  if (updated.data === undefined) throw new Error(updated.error.message);
  seen.push(`${updated.data.url}: ${updated.data.state}`);

  const rotated = await client.POST("/webhook_endpoints/{endpointId}/rotate_secret", {
    params: { path: { endpointId: endpoint.data.id } },
    body: { expireCurrentInSeconds: 3600 },
  });
  if (rotated.data === undefined) throw new Error(rotated.error.message);
  seen.push(`signs with ${rotated.data.secret.slice(0, 6)}… and the old until ${rotated.data.previousSecretExpiresAt}`);

  const deliveries = await client.GET("/webhook_endpoints/{endpointId}/deliveries", {
    params: { path: { endpointId: endpoint.data.id }, query: { state: "failed", limit: 10 } },
  });
  if (deliveries.data === undefined) throw new Error(deliveries.error.message);
  for (const delivery of deliveries.data) {
    const last = delivery.lastAttempt;
    seen.push(`${delivery.eventType} ${delivery.state}: ${last === null ? "not tried" : `${last.status} ${last.error} in ${last.durationMs} ms`}`);
    const retried = await client.POST("/webhook_endpoints/{endpointId}/deliveries/{deliveryId}/retry", {
      params: { path: { endpointId: endpoint.data.id, deliveryId: delivery.id } },
    });
    if (retried.data === undefined) throw new Error(retried.error.message);
    seen.push(`${retried.data.eventId}: ${retried.data.state}`);
  }

  const recovered = await client.POST("/webhook_endpoints/{endpointId}/recover", {
    params: { path: { endpointId: endpoint.data.id } },
    body: { since: new Date(Date.now() - 3_600_000).toISOString() },
  });
  if (recovered.data === undefined) throw new Error(recovered.error.message);
  seen.push(`requeued ${recovered.data.requeued}, more: ${recovered.data.hasMore}`);

  const tested = await client.POST("/webhook_endpoints/{endpointId}/test", {
    params: { path: { endpointId: endpoint.data.id } },
    body: { type: "order.placed" },
  });
  if (tested.data === undefined) throw new Error(tested.error.message);
  seen.push(`${tested.data.eventType} example: ${tested.data.state}`);

  const deleted = await client.DELETE("/webhook_endpoints/{endpointId}", {
    params: { path: { endpointId: endpoint.data.id } },
  });
  seen.push(`deleted: ${deleted.response.status}`);

  return seen;
}
