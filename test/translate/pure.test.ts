import { describe, expect, test } from "bun:test";
import { priceCents, rateUnits, toCents, wholeCents } from "../../src/translate/money";
import { acceptsJson } from "../../src/translate/accept";
import { createRateLimiter } from "../../src/translate/rate-limit";
import { presentedKey } from "../../src/translate/auth";
import { createErrorResponse } from "../../src/translate/errors";
import { silentLog } from "../../src/lib/log";

describe("money", () => {
  test("price is volume x rate / 1000, rounded half up to cents", () => {
    expect(priceCents(1234, rateUnits(20))).toBe(2468);
    expect(priceCents(11, rateUnits(25))).toBe(28); // 0.275
    expect(priceCents(1, rateUnits(20))).toBe(2);
    expect(priceCents(1, rateUnits(0.004))).toBe(0);
    expect(priceCents(0, rateUnits(20))).toBe(0);
    expect(priceCents(30_000_000, rateUnits(999.9999))).toBe(2_999_999_700);
  });

  test("cents", () => {
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(wholeCents(10.25)).toBe(true);
    expect(wholeCents(10.255)).toBe(false);
  });
});

describe("acceptsJson", () => {
  test.each([
    [null, true],
    ["", true],
    ["application/json", true],
    ["*/*", true],
    ["application/*", true],
    ["application/problem+json", true],
    ["text/html, application/json;q=0.5", true],
    ["text/html", false],
    ["application/xml", false],
    ["application/json;q=0", false],
    ["text/html, */*;q=0", false],
  ])("%p -> %p", (header, ok) => {
    expect(acceptsJson(header)).toBe(ok);
  });
});

describe("rate limiter", () => {
  test("allows the burst, then answers the wait, and refills with time", () => {
    const take = createRateLimiter(2, 1000);
    expect(take("k", 0)).toBe(0);
    expect(take("k", 0)).toBe(0);
    expect(take("k", 0)).toBe(500);
    expect(take("other", 0)).toBe(0);
    expect(take("k", 499)).toBeGreaterThan(0);
    expect(take("k", 500)).toBe(0);
  });

  test("0 requests turns it off", () => {
    const take = createRateLimiter(0, 1000);
    for (let i = 0; i < 100; i++) expect(take("k", 0)).toBe(0);
  });
});

describe("presentedKey", () => {
  test("Basic with an empty password, Bearer, or malformed", () => {
    expect(presentedKey(`Basic ${btoa("key-1:")}`)).toBe("key-1");
    expect(presentedKey(`basic ${btoa("key-1")}`)).toBe("key-1");
    expect(presentedKey("Bearer key-2")).toBe("key-2");
    expect(presentedKey(null)).toBeUndefined();
    expect(presentedKey("Token abc")).toBe("");
  });
});

describe("errorResponse", () => {
  test("an unexpected error is a 500 that reveals nothing inside", async () => {
    const logged: unknown[] = [];
    const respond = createErrorResponse({ ...silentLog, error: (_m, f) => void logged.push(f) });
    const res = respond(new Error("SQLITE_CORRUPT at /secret/path.db"), "UNKNOWN");
    expect(res.status).toBe(500);
    const body = (await res.json()) as { code: string };
    expect(body.code).toBe("INTERNAL_ERROR");
    expect(JSON.stringify(body)).not.toContain("secret");
    expect(logged).toHaveLength(1);
  });
});
