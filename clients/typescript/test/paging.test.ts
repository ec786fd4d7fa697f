import assert from "node:assert/strict";
import { test } from "node:test";

import { paginate, Petstore } from "@petstore/client";
import { fixtures } from "./fixtures.js";

test("paginate() over a filtered list yields the same animals as one large page, none twice", { timeout: 60_000 }, async () => {
  const petstore = new Petstore({ apiKey: fixtures.keys.paging, server: fixtures.baseUrl });
  const query = { categoryId: [fixtures.categoryId], status: "available" as const };
  const { data: onePage } = await petstore.api.GET("/pets", { params: { query: { ...query, limit: 100 } } });
  let pages = 0;

  const paged = [];
  for await (const pet of paginate((cursor) => {
    pages += 1;
    return petstore.api.GET("/pets", { params: { query: { ...query, limit: 7, cursor } } });
  })) {
    paged.push(pet);
  }

  assert.equal(onePage?.length, fixtures.availableInCategory);
  assert.deepEqual(paged, onePage);
  assert.equal(new Set(paged.map((pet) => pet.id)).size, paged.length);
  assert.equal(pages, Math.ceil(fixtures.availableInCategory / 7));
});

test("the limit's headers come back as numbers", { timeout: 60_000 }, async () => {
  const petstore = new Petstore({ apiKey: fixtures.keys.headers, server: fixtures.baseUrl });

  await petstore.api.GET("/categories");

  const { limit, remaining, reset } = petstore.rateLimit ?? {};
  assert.deepEqual([limit, remaining], [60, 59]);
  assert.ok(typeof reset === "number" && reset > Date.now() / 1000 && reset <= Date.now() / 1000 + 61);
});
