import { expect, it } from "vitest";
import { useTestDatabase } from "../../tests/db";
import { createRateLimiter, rateLimitPolicies } from "./rate-limit.server";

const database = useTestDatabase();

it("allows a policy's points per window, then refuses with a retry time", async () => {
  const limit = createRateLimiter(database.pool, { clearExpired: false });
  const { points } = rateLimitPolicies.contactPerIp;
  for (let i = 0; i < points; i++) {
    expect(await limit("contactPerIp", "203.0.113.7")).toEqual({ allowed: true });
  }
  const refused = await limit("contactPerIp", "203.0.113.7");
  expect(refused.allowed).toBe(false);
  expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThan(0);
  expect(await limit("contactPerIp", "203.0.113.8")).toEqual({ allowed: true }); // other keys unaffected
});

it("holds across processes because the count lives in Postgres", async () => {
  const processA = createRateLimiter(database.pool, { clearExpired: false });
  const processB = createRateLimiter(database.pool, { clearExpired: false });
  const { points } = rateLimitPolicies.contactPerIp;
  for (let i = 0; i < points; i++) {
    await (i % 2 ? processA : processB)("contactPerIp", "198.51.100.1");
  }
  expect((await processA("contactPerIp", "198.51.100.1")).allowed).toBe(false);
  expect((await processB("contactPerIp", "198.51.100.1")).allowed).toBe(false);
});
