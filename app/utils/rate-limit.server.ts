import type pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";

/** Every limit in one place: points allowed per window of `seconds`. */
export const rateLimitPolicies = {
  contactPerIp: { points: 5, seconds: 60 * 60 },
  signInPerIp: { points: 30, seconds: 15 * 60 },
  signInPerEmail: { points: 5, seconds: 15 * 60 },
  registerPerIp: { points: 10, seconds: 60 * 60 },
  verifyPerIp: { points: 30, seconds: 15 * 60 },
  emailChangePerUser: { points: 5, seconds: 60 * 60 },
  invitesPerUser: { points: 20, seconds: 24 * 60 * 60 },
  testSendsPerUser: { points: 5, seconds: 60 * 60 },
  sendToSomeonePerAnswer: { points: 10, seconds: 24 * 60 * 60 },
  sendToSomeonePerIp: { points: 20, seconds: 24 * 60 * 60 },
} as const;
export type RateLimitPolicy = keyof typeof rateLimitPolicies;

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };
export type RateLimiter = (policy: RateLimitPolicy, key: string) => Promise<RateLimitResult>;

/**
 * Limits kept in Postgres (the rate_limits table), so they hold across processes and restarts.
 * Created once at boot; each call consumes one point for `key` under `policy`.
 */
export function createRateLimiter(pool: pg.Pool, options: { clearExpired?: boolean } = {}): RateLimiter {
  const limiters = new Map<RateLimitPolicy, RateLimiterPostgres>();
  const limiterFor = (policy: RateLimitPolicy) => {
    let limiter = limiters.get(policy);
    if (!limiter) {
      const { points, seconds } = rateLimitPolicies[policy];
      limiter = new RateLimiterPostgres({
        storeClient: pool,
        storeType: "pool",
        tableName: "rate_limits",
        tableCreated: true,
        clearExpiredByTimeout: options.clearExpired ?? true,
        keyPrefix: policy,
        points,
        duration: seconds,
      });
      limiters.set(policy, limiter);
    }
    return limiter;
  };
  return async (policy, key) => {
    try {
      await limiterFor(policy).consume(key);
      return { allowed: true };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      throw rejection;
    }
  };
}
