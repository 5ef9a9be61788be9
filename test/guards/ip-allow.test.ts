import { describe, expect, test } from "bun:test";
import { cidrContains, parseCidr, parseIp } from "../../src/hooks/guards/cidr";
import { expectPassed, expectRefused, makeGuard, request } from "./support";

const contains = (block: string, ip: string) => cidrContains(parseCidr(block)!, parseIp(ip)!);

describe("CIDR matching", () => {
  test("IPv4 blocks and addresses", () => {
    expect(contains("192.30.252.0/22", "192.30.255.1")).toBe(true);
    expect(contains("192.30.252.0/22", "192.30.251.255")).toBe(false);
    expect(contains("10.0.0.1", "10.0.0.1")).toBe(true);
    expect(contains("10.0.0.1", "10.0.0.2")).toBe(false);
    expect(contains("0.0.0.0/0", "8.8.8.8")).toBe(true);
  });

  test("IPv6 blocks, compressed forms, zones and brackets", () => {
    expect(contains("2001:db8::/32", "2001:0db8:ffff::1")).toBe(true);
    expect(contains("2001:db8::/32", "2001:db9::1")).toBe(false);
    expect(contains("fe80::/10", "fe80::1%eth0")).toBe(true);
    expect(contains("::1", "[::1]")).toBe(true);
    expect(contains("2001:db8::/127", "2001:db8::1")).toBe(true);
    expect(contains("2001:db8::/128", "2001:db8::1")).toBe(false);
  });

  test("IPv4-mapped IPv6 senders match IPv4 blocks, and the other way round", () => {
    expect(contains("127.0.0.0/8", "::ffff:127.0.0.1")).toBe(true);
    expect(contains("::ffff:10.0.0.0/104", "10.1.2.3")).toBe(true);
    expect(contains("10.0.0.0/8", "::ffff:11.0.0.1")).toBe(false);
    // An IPv4 block never matches a plain IPv6 address sharing its low bytes.
    expect(contains("0.0.0.0/0", "::1")).toBe(false);
  });

  test("what is not an address or block", () => {
    for (const bad of ["", "1.2.3", "1.2.3.256", "1.2.3.4/33", "::1/129", "1::2::3", "12345::", "a.b.c.d", "10.0.0.0/8/1", "1.2.3.4/x"]) {
      expect(parseCidr(bad)).toBeUndefined();
    }
  });
});

describe("ip-allow guard", () => {
  const { guard } = makeGuard({ kind: "ip-allow", allow: ["192.30.252.0/22", "2606:50c0::/32", "127.0.0.1"] });

  test("senders inside a block pass", async () => {
    await expectPassed(guard, request({ ip: "192.30.253.7" }));
    await expectPassed(guard, request({ ip: "2606:50c0:8000::154" }));
    await expectPassed(guard, request({ ip: "::ffff:127.0.0.1" }));
  });

  test("senders outside are refused with 403 naming their ip", async () => {
    await expectRefused(guard, request({ ip: "192.30.251.1" }), 403, /sender ip 192\.30\.251\.1 is not allowed/);
    await expectRefused(guard, request({ ip: "2606:50c1::1" }), 403, /not allowed/);
  });

  test("a missing or unparsable sender ip is refused", async () => {
    await expectRefused(guard, request({ ip: "" }), 403, /\(unknown\) is not an IP address/);
    await expectRefused(guard, request({ ip: "unknown" }), 403, /not an IP address/);
  });

  test("a bad block is a config error naming the entry", () => {
    expect(() => makeGuard({ kind: "ip-allow", allow: ["10.0.0.0/8", "10.0.0.0/40"] })).toThrow(/guards\[0\]\.allow\[1\]: "10\.0\.0\.0\/40" is not/);
  });
});
