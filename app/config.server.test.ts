import { describe, expect, it } from "vitest";
import { ConfigError, completeConfig, parseEnv } from "./config.server";

describe("parseEnv", () => {
  it("gives working defaults with no configuration at all", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.WORKER).toBe("on");
    const config = completeConfig(env, { SESSION_SECRET: "s".repeat(32) });
    expect(config.APP_URL).toBe("http://localhost:3000");
    expect(config.mailUsesOutbox).toBe(true);
    expect(config.smsUsesOutbox).toBe(true);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).DATABASE_URL).toBeUndefined();
  });

  it("stops with one line naming the bad variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(ConfigError);
    try {
      parseEnv({ PORT: "eighty" });
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid configuration: PORT /);
      expect((error as Error).message).not.toContain("\n");
    }
  });

  it("names every variable a provider needs", () => {
    expect(() => parseEnv({ POSTMARK_SERVER_TOKEN: "token" })).toThrow(
      /MAIL_FROM is required when POSTMARK_SERVER_TOKEN is set.*APP_URL/,
    );
    expect(() => parseEnv({ TWILIO_ACCOUNT_SID: "AC" + "0".repeat(32) })).toThrow(/TWILIO_AUTH_TOKEN is required/);
    expect(() => parseEnv({ TWILIO_ACCOUNT_SID: "nope" })).toThrow(/TWILIO_ACCOUNT_SID must look like/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ WORKER: "maybe" })).toThrow(/WORKER/);
    // The printer's sandbox or production is always chosen, never assumed.
    expect(() => parseEnv({ LULU_CLIENT_KEY: "key" })).toThrow(
      /LULU_CLIENT_SECRET is required when LULU_CLIENT_KEY is set.*LULU_API_URL/,
    );
    expect(() => parseEnv({ LULU_CLIENT_KEY: "k", LULU_CLIENT_SECRET: "s", LULU_API_URL: "sandbox" })).toThrow(
      /LULU_API_URL/,
    );
  });

  it("runs a jobs-only process on a shared database, and a metrics token long enough to guess at nothing", () => {
    expect(() => parseEnv({ WORKER: "only" })).toThrow(/DATABASE_URL is required when WORKER is only/);
    expect(parseEnv({ WORKER: "only", DATABASE_URL: "postgres://u:p@db/heirloom" }).WORKER).toBe("only");
    expect(() => parseEnv({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(parseEnv({}).METRICS_TOKEN).toBeUndefined();
  });

  it("requires a session secret in production with an external database", () => {
    expect(() => parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://u:p@db/heirloom" })).toThrow(
      /SESSION_SECRET/,
    );
  });

  it("selects real providers when configured", () => {
    const env = parseEnv({
      APP_URL: "https://heirloom.example",
      POSTMARK_SERVER_TOKEN: "token",
      MAIL_FROM: "Heirloom <hello@heirloom.example>",
      MAIL_POSTAL_ADDRESS: "1 Main St, Springfield",
      CONTACT_EMAIL: "team@heirloom.example",
    });
    const config = completeConfig(env, { SESSION_SECRET: "s".repeat(32) });
    expect(config.mailUsesOutbox).toBe(false);
    expect(config.smsUsesOutbox).toBe(true);
  });
});
