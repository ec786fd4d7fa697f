import assert from "node:assert/strict";
import { test } from "node:test";

import { ConflictError, NotFoundError, Petstore } from "@petstore/client";
import { fixtures } from "./fixtures.js";

// A partner's program using every method, compiled by `tsc --strict` with the rest of the tests
// (no cast, no `!`): each request it sends is named by the document's operation it reached.

interface Operation {
  id: string;
  method: string;
  path: RegExp;
  deprecated: boolean;
}

async function documentOperations(): Promise<Operation[]> {
  const document = await (await fetch(`${fixtures.baseUrl}/openapi.json`)).json();
  const found: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, { operationId?: string; deprecated?: boolean }>>(
    document.paths,
  )) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.operationId) {
        const pattern = "^/v1" + path.replace(/\{[^}]+\}/g, "[^/]+") + "$";
        found.push({
          id: operation.operationId,
          method: method.toUpperCase(),
          path: new RegExp(pattern),
          deprecated: operation.deprecated === true,
        });
      }
    }
  }
  return found;
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) {
    found.push(item);
  }
  return found;
}

test("every operation of the document but the deprecated is reached by a method, which answers its model", { timeout: 60_000 }, async () => {
  const sent: Request[] = [];
  const petstore = new Petstore({
    apiKey: fixtures.keys.resources,
    server: fixtures.baseUrl,
    fetch: (input, init) => {
      const request = new Request(input, init);
      sent.push(request);
      return fetch(request);
    },
  });

  const category = await petstore.categories.create({ name: `Resources ${Date.now()}` });
  const readCategory = await petstore.categories.get(category.id);
  const categories = await petstore.categories.list();
  const pet = await petstore.pets.create({ name: "Biscuit", categoryId: category.id });
  const onePet = await petstore.pets.get(pet.id);
  const missing = await petstore.pets.get(999_999_999).catch((error: unknown) => error);
  const listed = await all(petstore.pets.list({ categoryId: [category.id], status: "available", limit: 1 }));
  const order = await petstore.orders.place({ petId: pet.id });
  const readOrder = await petstore.orders.get(order.id);
  const pending = await all(petstore.orders.list({ status: "pending" }));
  await petstore.orders.cancel(order.id);
  const created = await petstore.webhookEndpoints.create({ url: "http://127.0.0.1:9/hooks", events: ["order.placed"] });
  const endpoints = await petstore.webhookEndpoints.list();
  const readEndpoint = await petstore.webhookEndpoints.get(created.id);
  const updated = await petstore.webhookEndpoints.update(created.id, { description: "The SDK's test" });
  const rotated = await petstore.webhookEndpoints.rotateSecret(created.id, { expireCurrentInSeconds: 0 });
  const sample = await petstore.webhookEndpoints.test(created.id, { type: "pet.created" });
  const deliveries = await all(petstore.webhookEndpoints.deliveries.list(created.id));
  // The sample may be on its way to the closed port still: a retry is then refused.
  const retried = await petstore.webhookEndpoints.deliveries
    .retry(created.id, sample.id)
    .catch((error: unknown) => (error instanceof ConflictError ? error : Promise.reject(error)));
  const recovered = await petstore.webhookEndpoints.recover(created.id, { since: new Date(Date.now() - 3_600_000).toISOString() });
  await petstore.webhookEndpoints.delete(created.id);
  const events = await all(petstore.events.list({ types: ["pet.created"], limit: 100 }));
  let followed: string | undefined;
  for await (const event of petstore.events.follow({ types: ["order.placed"], everySeconds: 0.2 })) {
    if (event.type === "order.placed" && event.data.id === order.id) {
      followed = event.id;
      break;
    }
  }
  const limits = await petstore.rateLimit.get();
  const usage = await petstore.usage.get({ days: 1 });

  assert.deepEqual([readCategory, categories.some((each) => each.id === category.id)], [category, true]);
  assert.deepEqual([onePet, listed], [pet, [pet]]);
  assert.ok(missing instanceof NotFoundError);
  assert.deepEqual([readOrder.id, pending.map((each) => each.id)], [order.id, [order.id]]);
  assert.match(created.secret, /^whsec_/);
  assert.deepEqual([endpoints.map((each) => each.id), readEndpoint.url], [[created.id], created.url]);
  assert.equal(updated.description, "The SDK's test");
  assert.deepEqual([rotated.previousSecretExpiresAt, rotated.secret === created.secret], [null, false]);
  assert.ok(deliveries.some((delivery) => delivery.id === sample.id));
  assert.ok(retried instanceof ConflictError || retried.id === sample.id);
  assert.equal(typeof recovered.hasMore, "boolean");
  assert.ok(events.some((event) => event.type === "pet.created" && event.data.id === pet.id));
  assert.ok(followed);
  assert.ok(limits.windows.some((window) => window.name === "minute"));
  assert.equal(petstore.rateLimit.remaining, petstore.rateLimit.latest?.remaining);
  assert.equal(usage.length, 1);
  const operations = await documentOperations();
  const reached = new Set(
    sent.flatMap((request) =>
      operations
        .filter((operation) => operation.method === request.method && operation.path.test(new URL(request.url).pathname))
        .map((operation) => operation.id),
    ),
  );
  const wanted = operations.filter((operation) => !operation.deprecated).map((operation) => operation.id);
  assert.deepEqual([...reached].sort(), wanted.sort());
});
