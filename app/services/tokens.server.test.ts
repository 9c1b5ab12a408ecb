import { createHmac, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { TEST_SESSION_SECRET } from "../../tests/context";
import { type CapabilityPurpose, signCapability, verifyCapability } from "./tokens.server";

const config = { SESSION_SECRET: TEST_SESSION_SECRET };
const otherConfig = { SESSION_SECRET: "another-session-secret-that-is-long-enough-9876543210" };
const purposes: CapabilityPurpose[] = ["record", "unsubscribe", "share"];
const DAY = 86_400_000;

/** Flips one character of the signature (the third part), keeping it valid base64url. */
function tamperSignature(token: string) {
  const [header, payload, signature] = token.split(".");
  const i = Math.floor(signature.length / 2);
  const flipped = signature[i] === "A" ? "B" : "A";
  return [header, payload, signature.slice(0, i) + flipped + signature.slice(i + 1)].join(".");
}

describe("capability tokens", () => {
  it.each(["record", "unsubscribe", "register"] as const)(
    "signs a %s token byte for byte as jose's SignJWT does",
    async (purpose) => {
      const subject = randomUUID();
      const now = new Date("2026-11-23T10:00:00.700Z");
      const jose = new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer("heirloom")
        .setAudience(purpose)
        .setSubject(subject)
        .setIssuedAt(now);
      if (purpose !== "record")
        jose.setExpirationTime(new Date(now.getTime() + (purpose === "register" ? 30 : 400) * DAY));
      const key = new Uint8Array(
        createHmac("sha256", TEST_SESSION_SECRET).update("heirloom capability tokens v1").digest(),
      );
      expect(await signCapability(config, purpose, subject, now)).toBe(await jose.sign(key));
    },
  );

  it.each(purposes)("round-trips the subject of a %s token", async (purpose) => {
    const subject = randomUUID();
    const token = await signCapability(config, purpose, subject);
    expect(token.split(".")).toHaveLength(3);
    expect(await verifyCapability(config, purpose, token)).toBe(subject);
  });

  it("refuses a token for one purpose when it is used for another", async () => {
    const subject = randomUUID();
    for (const signedFor of purposes) {
      const token = await signCapability(config, signedFor, subject);
      for (const usedFor of purposes) {
        expect(await verifyCapability(config, usedFor, token)).toBe(usedFor === signedFor ? subject : null);
      }
    }
  });

  it("refuses a token whose signature was tampered with", async () => {
    const token = await signCapability(config, "record", randomUUID());
    const tampered = tamperSignature(token);
    expect(tampered).not.toBe(token);
    expect(await verifyCapability(config, "record", tampered)).toBeNull();
  });

  it("refuses a token whose payload was swapped for another subject", async () => {
    const mine = await signCapability(config, "record", randomUUID());
    const victim = randomUUID();
    const [header, , signature] = mine.split(".");
    const payload = Buffer.from(
      JSON.stringify({ iss: "heirloom", aud: "record", sub: victim, iat: Math.floor(Date.now() / 1000) }),
    ).toString("base64url");
    expect(await verifyCapability(config, "record", [header, payload, signature].join("."))).toBeNull();
  });

  it("refuses an unsigned (alg none) token", async () => {
    const header = Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url");
    const payload = Buffer.from(JSON.stringify({ iss: "heirloom", aud: "record", sub: randomUUID() })).toString(
      "base64url",
    );
    expect(await verifyCapability(config, "record", `${header}.${payload}.`)).toBeNull();
  });

  it("refuses a token signed with another SESSION_SECRET", async () => {
    const subject = randomUUID();
    const token = await signCapability(otherConfig, "unsubscribe", subject);
    expect(await verifyCapability(otherConfig, "unsubscribe", token)).toBe(subject);
    expect(await verifyCapability(config, "unsubscribe", token)).toBeNull();
  });

  it("keeps accepting links signed before the keys module existed", async () => {
    // The derivation decision 009 shipped with; record links sent then must keep working.
    const legacyKey = createHmac("sha256", TEST_SESSION_SECRET).update("heirloom capability tokens v1").digest();
    const subject = randomUUID();
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("heirloom")
      .setAudience("record")
      .setSubject(subject)
      .setIssuedAt()
      .sign(legacyKey);
    expect(await verifyCapability(config, "record", token)).toBe(subject);
  });

  it("refuses a subject that is not a uuid", async () => {
    for (const subject of ["not-a-uuid", "1", "", "' or 1=1 --", randomUUID() + "x"]) {
      const token = await signCapability(config, "record", subject);
      expect(await verifyCapability(config, "record", token)).toBeNull();
    }
  });

  it("keeps an unsubscribe token valid well past 60 days, and refuses it after 400", async () => {
    const issued = new Date("2025-01-15T12:00:00Z");
    const subject = randomUUID();
    const token = await signCapability(config, "unsubscribe", subject, issued);
    expect(await verifyCapability(config, "unsubscribe", token, issued)).toBe(subject);
    expect(await verifyCapability(config, "unsubscribe", token, new Date(issued.getTime() + 61 * DAY))).toBe(subject);
    expect(await verifyCapability(config, "unsubscribe", token, new Date(issued.getTime() + 399 * DAY))).toBe(subject);
    expect(await verifyCapability(config, "unsubscribe", token, new Date(issued.getTime() + 401 * DAY))).toBeNull();
  });

  it("does not expire record links", async () => {
    const issued = new Date("2020-01-01T00:00:00Z");
    const subject = randomUUID();
    const token = await signCapability(config, "record", subject, issued);
    expect(await verifyCapability(config, "record", token, new Date(issued.getTime() + 3 * 365 * DAY))).toBe(subject);
  });

  it("returns null, never throws, for garbage", async () => {
    const garbage = [
      "",
      ".",
      "..",
      "a.b.c",
      "not a token",
      "eyJhbGciOiJIUzI1NiJ9.e30.",
      "%%%.%%%.%%%",
      "\u0000\u0001",
      "🙂.🙂.🙂",
      "x".repeat(2000),
      "a.".repeat(1000),
    ];
    for (const token of garbage) {
      for (const purpose of purposes) {
        await expect(verifyCapability(config, purpose, token)).resolves.toBeNull();
      }
    }
  });

  it("refuses a validly signed token longer than 1000 characters without verifying it", async () => {
    // A large subject makes a genuinely signed token that would otherwise pass the signature check.
    const token = await signCapability(config, "record", randomUUID() + " ".repeat(1200));
    expect(token.length).toBeGreaterThan(1000);
    expect(await verifyCapability(config, "record", token)).toBeNull();
  });
});
