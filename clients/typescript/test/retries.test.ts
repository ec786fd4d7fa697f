import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import { Petstore, RateLimitError, type RetryInfo } from "@petstore/client";
import { fixtures, losingFirstAnswer } from "./fixtures.js";

test("a Free key past 60 a minute waits out Retry-After; past the budget, a RateLimitError says when", { timeout: 150_000 }, async () => {
  const burner = new Petstore({ apiKey: fixtures.keys.free, server: fixtures.baseUrl, retry: { maxRetries: 0 } });
  const spend = async () => {
    do {
      await burner.api.GET("/categories");
    } while ((burner.rateLimit?.remaining ?? 0) > 0);
  };
  await spend();
  // Limits count per clock minute: the calls below need a few seconds of it left.
  const left = (burner.rateLimit?.reset ?? 0) - Date.now() / 1000;
  if (left < 3) {
    await sleep((left + 0.5) * 1000);
    await spend();
  }

  const hurried = new Petstore({ apiKey: fixtures.keys.free, server: fixtures.baseUrl, retry: { budgetSeconds: 2 } });
  const refused = await hurried.api.GET("/categories").then(
    () => assert.fail("the 61st request of the minute was answered"),
    (error: unknown) => error,
  );
  const retries: RetryInfo[] = [];
  const patient = new Petstore({
    apiKey: fixtures.keys.free,
    server: fixtures.baseUrl,
    retry: { onRetry: (retry) => retries.push(retry) },
  });
  const { data, response } = await patient.api.GET("/categories");

  assert.ok(refused instanceof RateLimitError);
  assert.equal(refused.code, "rate_limited");
  assert.ok(refused.retryAfter !== undefined && refused.retryAfter > 2, `${refused.retryAfter}`);
  assert.equal(response.status, 200);
  assert.ok(Array.isArray(data));
  assert.deepEqual(retries.map((retry) => retry.status), [429]);
  assert.ok(retries[0].waitSeconds > 0 && retries[0].waitSeconds <= 60);
});

test("a POST whose first answer is lost is retried and places one order, not two", { timeout: 60_000 }, async () => {
  const proxy = await losingFirstAnswer(fixtures.baseUrl);
  const retries: RetryInfo[] = [];
  const [petId] = fixtures.petIds;
  try {
    const petstore = new Petstore({
      apiKey: fixtures.keys.orders,
      server: proxy.url,
      retry: { onRetry: (retry) => retries.push(retry) },
    });
    const { data: order, response } = await petstore.api.POST("/store/orders", { body: { petId } });

    assert.equal(order?.petId, petId);
    assert.equal(response.headers.get("Idempotent-Replayed"), "true");
  } finally {
    proxy.close();
  }
  const direct = new Petstore({ apiKey: fixtures.keys.orders, server: fixtures.baseUrl });
  const { data: orders } = await direct.api.GET("/store/orders");

  assert.equal(proxy.connections, 2);
  assert.equal(retries.length, 1);
  assert.ok(retries[0].error !== undefined);
  assert.deepEqual(orders?.map((order) => order.petId), [petId]);
});
