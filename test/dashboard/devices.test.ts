/**
 * Sign-in that cannot be turned against its owner (docs/dashboard.md, Sign-in): a browser that
 * signed in to an account keeps its own allowance (its device cookie), whatever others do to the
 * account's and the addresses' limits.
 */
import { describe, expect, test } from "bun:test";
import { createDevices } from "../../src/dashboard/devices";
import { ADMIN, dashboardApp, MEMBER, ORIGIN } from "./support";

const deviceOf = (res: { headers: Headers }) =>
  /^(mailroom_device=[^;]+)/.exec(res.headers.getSetCookie().find((c) => c.startsWith("mailroom_device=")) ?? "")?.[1];

describe("device cookies", () => {
  test("failures from many addresses lock the account for strangers, not for a browser that signed in before", async () => {
    const app = await dashboardApp({ server: { trust_proxy: true } });
    const from = (ip: string, cookie?: string) => ({ ...ORIGIN, "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) });
    const owner = await app.call("POST", "/ui/api/session", ADMIN, from("198.51.100.1"));
    expect(owner.status).toBe(200);
    const device = deviceOf(owner)!;
    expect(device).toBeDefined();

    // 50 failures from 17 addresses (3 each, under the per-address limits): the account-wide limit.
    for (let n = 0; n < 17; n++) {
      for (let i = 0; i < 3 && n * 3 + i < 50; i++) {
        expect((await app.call("POST", "/ui/api/session", { ...ADMIN, password: "wrong" }, from(`192.0.2.${n}`))).status).toBe(401);
      }
    }
    expect((await app.call("POST", "/ui/api/session", ADMIN, from("203.0.113.50"))).status).toBe(429);
    // The owner's browser, from a new address too, signs in; its cookie is kept.
    const again = await app.call("POST", "/ui/api/session", ADMIN, from("203.0.113.51", device));
    expect(again.status).toBe(200);
    expect(deviceOf(again)).toBe(device);
    // From an address the attacker filled (20 failures of any account), the device is not held by it.
    for (let i = 0; i < 20; i++) await app.call("POST", "/ui/api/session", { email: `x${i}@example.com`, password: "wrong" }, from("192.0.2.200"));
    expect((await app.call("POST", "/ui/api/session", MEMBER, from("192.0.2.200"))).status).toBe(429);
    expect((await app.call("POST", "/ui/api/session", ADMIN, from("192.0.2.200", device))).status).toBe(200);
  }, 120_000); // about 70 argon2id verifications

  test("a device has its own limit; a forged cookie or one for another account counts for nothing", async () => {
    const app = await dashboardApp({ server: { trust_proxy: true } });
    const from = (ip: string, cookie?: string) => ({ ...ORIGIN, "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) });
    const device = deviceOf(await app.call("POST", "/ui/api/session", ADMIN, from("198.51.100.1")))!;
    const member = deviceOf(await app.call("POST", "/ui/api/session", MEMBER, from("198.51.100.2")))!;
    for (let i = 0; i < 5; i++)
      expect((await app.call("POST", "/ui/api/session", { ...ADMIN, password: "wrong" }, from(`192.0.2.${i}`, device))).status).toBe(401);
    const held = await app.call("POST", "/ui/api/session", ADMIN, from("192.0.2.9", device));
    expect(held.status).toBe(429);
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    // Those failures were the device's: a stranger's limits for the account are untouched.
    expect((await app.call("POST", "/ui/api/session", ADMIN, from("192.0.2.10"))).status).toBe(200);
    // A tampered signature, or the member's cookie, is no device of the admin's: the address's limit applies.
    const forged = `${device.slice(0, -2)}xx`;
    const other = `mailroom_device=${member.split("=")[1]}`;
    for (const cookie of [forged, other]) {
      const ip = cookie === forged ? "203.0.113.1" : "203.0.113.2";
      for (let i = 0; i < 5; i++) expect((await app.call("POST", "/ui/api/session", { ...ADMIN, password: "wrong" }, from(ip, cookie))).status).toBe(401);
      expect((await app.call("POST", "/ui/api/session", ADMIN, from(ip, cookie))).status).toBe(429);
    }
    app.clock.advance(15 * 60 * 1000);
    expect((await app.call("POST", "/ui/api/session", ADMIN, from("192.0.2.9", device))).status).toBe(200);
  }, 60_000);

  test("cookies verify across restarts and instances: the key is made once and kept in the database", async () => {
    const settings = new Map<string, unknown>();
    const store = {
      readSetting: async <T>(key: string) => settings.get(key) as T | undefined,
      createSetting: async (key: string, value: unknown) => void (settings.has(key) || settings.set(key, value)),
    };
    const one = createDevices(store);
    const value = await one.issue("Ann@Example.com");
    const two = createDevices(store);
    expect(await two.verify(value, "ann@example.com")).toBe(value.split(".")[0]);
    expect(await two.verify(value, "bob@example.com")).toBeUndefined();
    expect(await two.verify(`${value}.x`, "ann@example.com")).toBeUndefined();
    expect(await two.verify(undefined, "ann@example.com")).toBeUndefined();
  });
});
