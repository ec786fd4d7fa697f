import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  Petstore,
  UnauthorizedError,
  ValidationError,
} from "@petstore/client";
import { fixtures } from "./fixtures.js";

const petstore = new Petstore({ apiKey: fixtures.keys.errors, server: fixtures.baseUrl });

async function thrown(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => assert.fail("the call succeeded"),
    (error: unknown) => error,
  );
}

test("an unknown category is a NotFoundError", { timeout: 30_000 }, async () => {
  const error = await thrown(petstore.api.GET("/categories/{categoryId}", { params: { path: { categoryId: 999_999_999 } } }));

  assert.ok(error instanceof NotFoundError);
  assert.deepEqual([error.status, error.code], [404, "not_found"]);
});

test("ordering an animal already ordered is a ConflictError", { timeout: 30_000 }, async () => {
  const petId = fixtures.petIds[1];
  await petstore.api.POST("/store/orders", { body: { petId } });

  const error = await thrown(petstore.api.POST("/store/orders", { body: { petId } }));

  assert.ok(error instanceof ConflictError);
  assert.deepEqual([error.status, error.code], [409, "conflict"]);
});

test("an invalid animal is a ValidationError with its field errors", { timeout: 30_000 }, async () => {
  const error = await thrown(petstore.api.POST("/pets", { body: { name: "  ", categoryId: fixtures.categoryId } }));

  assert.ok(error instanceof ValidationError);
  assert.deepEqual([error.status, error.code], [400, "validation_error"]);
  assert.deepEqual(Object.keys(error.fieldErrors), ["name"]);
  assert.ok(error.fieldErrors.name.length > 0);
});

test("an unknown key is an UnauthorizedError", { timeout: 30_000 }, async () => {
  const stranger = new Petstore({ apiKey: "petstore_live_not-a-key", server: fixtures.baseUrl });

  const error = await thrown(stranger.api.GET("/pets"));

  assert.ok(error instanceof UnauthorizedError);
  assert.deepEqual([error.status, error.code], [401, "unauthorized"]);
});

test("a key without the operation's scope gets a ForbiddenError", { timeout: 30_000 }, async () => {
  const reader = new Petstore({ apiKey: fixtures.keys.readOnly, server: fixtures.baseUrl });

  const error = await thrown(reader.api.POST("/store/orders", { body: { petId: fixtures.petIds[1] } }));

  assert.ok(error instanceof ForbiddenError);
  assert.deepEqual([error.status, error.code], [403, "forbidden"]);
});
