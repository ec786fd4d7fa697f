import assert from "node:assert/strict";
import { test } from "node:test";

import { Petstore } from "@petstore/client";
import { fixtures } from "./fixtures.js";

test("with the ETag cache, a repeated GET is answered from the cache after a 304, the day window unspent", { timeout: 30_000 }, async () => {
  const petstore = new Petstore({ apiKey: fixtures.keys.cache, server: fixtures.baseUrl, cache: true });
  const path = { params: { path: { categoryId: fixtures.categoryId } } };
  const windows = async () => {
    const { data } = await petstore.api.GET("/rate_limit");
    return Object.fromEntries((data?.windows ?? []).map((window) => [window.name, window.remaining]));
  };
  const { data: first } = await petstore.api.GET("/categories/{categoryId}", path);
  const before = await windows();

  const { data: second, response } = await petstore.api.GET("/categories/{categoryId}", path);
  const after = await windows();

  assert.deepEqual(second, first);
  assert.equal(response.status, 200);
  assert.equal(petstore.cache?.hits, 1);
  assert.equal(after.day, before.day);
  assert.equal(after.minute, before.minute - 1);
});
