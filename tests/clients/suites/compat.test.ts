// What a partner's program does with the TypeScript SDK, against a server of any later 1.x: copied
// into the SDK's test/ folder and run by tests/clients/released.py, with the server's URL, a key,
// animals and what that server adds in PETSTORE_SDK_FIXTURES.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { ConflictError, NotFoundError, paginate, Petstore, ValidationError } from "@petstore/client";

interface Added {
  windows: string[];
  eventTypes: string[];
  petFields: string[];
  usageFields: string[];
  conflictCode: string;
}
const all = JSON.parse(readFileSync(process.env.PETSTORE_SDK_FIXTURES ?? "", "utf8"));
const fixtures: { key: string; categoryId: number; addTo: number; animals: number; petIds: number[] } =
  all.typescript;
const added: Added = all.added;
const petstore = new Petstore({ apiKey: fixtures.key, server: all.baseUrl });
// The fields of the SDK's own types, and those this server adds, in the order it sends them.
const PET = ["id", "name", "categoryId", "status"];

async function thrown(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => assert.fail("the call succeeded"),
    (error: unknown) => error,
  );
}

test("animals page by page, with the fields the SDK does not know", { timeout: 30_000 }, async () => {
  const pets = [];
  for await (const pet of paginate((cursor) =>
    petstore.api.GET("/pets", { params: { query: { categoryId: [fixtures.categoryId], limit: 2, cursor } } }),
  )) {
    pets.push(pet);
  }

  assert.equal(pets.length, fixtures.animals);
  assert.ok(pets.every((pet) => ["available", "pending", "sold"].includes(pet.status)));
  assert.deepEqual(new Set(pets.map((pet) => Object.keys(pet).join())), new Set([[...PET, ...added.petFields].join()]));
});

test("an animal added comes back whole", { timeout: 30_000 }, async () => {
  const { data: pet } = await petstore.api.POST("/pets", { body: { name: "Compat", categoryId: fixtures.addTo } });

  assert.deepEqual([pet?.name, pet?.status], ["Compat", "available"]);
  assert.deepEqual(Object.keys(pet ?? {}), [...PET, ...added.petFields]);
});

test("an order is placed, read, listed and cancelled", { timeout: 30_000 }, async () => {
  const { data: placed } = await petstore.api.POST("/store/orders", { body: { petId: fixtures.petIds[0] } });
  const orderId = placed?.id ?? 0;
  const { data: read } = await petstore.api.GET("/store/orders/{orderId}", { params: { path: { orderId } } });
  const listed = [];
  for await (const order of paginate((cursor) => petstore.api.GET("/store/orders", { params: { query: { cursor } } }))) {
    listed.push(order.id);
  }
  await petstore.api.DELETE("/store/orders/{orderId}", { params: { path: { orderId } } });
  const { data: after } = await petstore.api.GET("/store/orders/{orderId}", { params: { path: { orderId } } });

  assert.deepEqual([placed?.status, read?.status, after?.status], ["pending", "pending", "cancelled"]);
  assert.ok(listed.includes(orderId));
});

test("the rate limit and usage name every window, known or not", { timeout: 30_000 }, async () => {
  const { data: limit } = await petstore.api.GET("/rate_limit");
  const { data: usage } = await petstore.api.GET("/usage", { params: { query: { days: 1 } } });

  const names: string[] = (limit?.windows ?? []).map((window) => window.name);
  assert.deepEqual(names, added.windows);
  const today = usage?.at(-1);
  assert.ok((today?.admitted ?? 0) >= 1);
  const own = ["date", "admitted", "refused", "banned", "perMinute", "perDay"];
  assert.deepEqual(Object.keys(today ?? {}).filter((field) => !own.includes(field)), added.usageFields);
});

test("every event reads, those of types the SDK does not know too", { timeout: 30_000 }, async () => {
  const events = [];
  for await (const event of paginate((cursor) => petstore.api.GET("/events", { params: { query: { limit: 100, cursor } } }))) {
    events.push(event);
  }

  const types: string[] = events.map((event) => event.type);
  assert.ok(added.eventTypes.every((kind) => types.includes(kind)), types.join());
  assert.ok(events.every((event) => event.id.startsWith("evt_") && typeof event.data === "object"));
  for (const event of events) {
    if (event.type === "pet.created") {
      assert.equal(typeof event.data.name, "string");
    }
  }
});

test("errors are thrown by code, and a code added later by status", { timeout: 30_000 }, async () => {
  const body = { petId: fixtures.petIds[1] };
  await petstore.api.POST("/store/orders", { body });

  const conflict = await thrown(petstore.api.POST("/store/orders", { body }));
  const notFound = await thrown(petstore.api.GET("/store/orders/{orderId}", { params: { path: { orderId: 999_999_999 } } }));
  const invalid = await thrown(petstore.api.POST("/pets", { body: { name: "  ", categoryId: fixtures.addTo } }));

  assert.ok(conflict instanceof ConflictError);
  assert.deepEqual([conflict.status, conflict.code], [409, added.conflictCode]);
  assert.ok(notFound instanceof NotFoundError);
  assert.deepEqual([notFound.status, notFound.code], [404, "not_found"]);
  assert.ok(invalid instanceof ValidationError);
  assert.deepEqual(Object.keys(invalid.fieldErrors), ["name"]);
});
