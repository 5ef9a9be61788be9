/**
 * Where Mailroom may send (config/forward-target.ts, config/url-pattern.ts): pure pieces, with the
 * name resolution given, so that a name pointing at a metadata service is tested without a DNS server.
 */
import { describe, expect, test } from "bun:test";
import { linkLocalProblem, outboundProblem } from "../../src/config/forward-target";
import { urlPatternMatches, urlPatternProblem } from "../../src/config/url-pattern";
import { createForward } from "../../src/runner/handlers/forward";
import type { ForwardConfig } from "../../src/config/handlers";
import type { RawHook } from "../../src/hooks/store";

const RULE = "Mailroom does not send to link-local addresses or cloud metadata services unless [server] allow_link_local = true";
const resolvesTo =
  (table: Record<string, string[]>) =>
  async (host: string): Promise<string[]> => {
    const found = table[host];
    if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    return found;
  };

describe("outboundProblem", () => {
  test("link-local addresses in every spelling the URL parser reads, and the metadata names", () => {
    for (const url of [
      "http://169.254.169.254/",
      "http://169.254.0.1:8080/x",
      "http://0xa9fea9fe/",
      "http://0251.0376.0251.0376/",
      "http://[::ffff:169.254.169.254]/",
      "http://[64:ff9b::a9fe:a9fe]/",
      "http://[fe80::1]/",
      "http://[febf::1]/",
      "http://[fd00:ec2::254]/",
      "http://100.100.100.200/",
      "http://metadata/",
      "http://METADATA.GOOGLE.INTERNAL./",
      "https://metadata.goog/",
      "http://instance-data/",
    ])
      expect({ url, problem: linkLocalProblem(url)?.endsWith(RULE) }).toEqual({ url, problem: true });
    for (const url of [
      "http://127.0.0.1:3000/",
      "http://[::1]/",
      "http://169.255.0.1/",
      "http://[fec0::1]/",
      "https://example.com/",
      "http://metadata.example.com/",
    ])
      expect({ url, problem: linkLocalProblem(url) }).toEqual({ url, problem: undefined });
  });

  test("a name that resolves to a link-local address is refused too; one that does not resolve is left to the request", async () => {
    const resolve = resolvesTo({
      "meta.attacker.example": ["203.0.113.9", "169.254.169.254"],
      "v6.attacker.example": ["fe80::5"],
      "app.example": ["10.0.0.5"],
    });
    expect(await outboundProblem("http://meta.attacker.example/", { allowLinkLocal: false, resolve })).toBe(
      `meta.attacker.example resolves to 169.254.169.254, a link-local address: ${RULE}`,
    );
    expect(await outboundProblem("http://v6.attacker.example:81/", { allowLinkLocal: false, resolve })).toBe(
      `v6.attacker.example resolves to fe80::5, a link-local address: ${RULE}`,
    );
    expect(await outboundProblem("http://app.example/", { allowLinkLocal: false, resolve })).toBeUndefined();
    expect(await outboundProblem("http://nowhere.invalid/", { allowLinkLocal: false, resolve })).toBeUndefined();
    expect(await outboundProblem("http://meta.attacker.example/", { allowLinkLocal: true, resolve })).toBeUndefined();
    expect(await outboundProblem("http://169.254.169.254/", { allowLinkLocal: true, resolve })).toBeUndefined();
  });

  test("a forward handler's attempt to a name resolving to a metadata service fails saying why", async () => {
    const config = { name: "f", kind: "forward", url: "http://meta.attacker.example/x", headers: {} } as unknown as ForwardConfig;
    const policy = { maxAttempts: 1, backoff: { initial: 1000, max: 1000 }, concurrency: 1, timeout: 1000 };
    const hook = { id: "01jd3q9x0c2m8t6v4r2k8p1w5z", channel: "app", method: "POST", headers: {}, body: new Uint8Array() } as unknown as RawHook;
    const run = createForward(config, policy, { allowLinkLocal: false, resolve: resolvesTo({ "meta.attacker.example": ["169.254.169.254"] }) });
    expect(await run(hook, { attempt: 1, now: 0 })).toEqual({
      ok: false,
      excerpt: "",
      error: `not sent: meta.attacker.example resolves to 169.254.169.254, a link-local address: ${RULE}`,
    });
  });
});

describe("member_send_to patterns", () => {
  test("match by the URL's parts: scheme, host (with * for part of it), port (default or *), path", () => {
    const cases: [string, string, boolean][] = [
      ["http://localhost:*", "http://localhost:3000/hooks?x=1", true],
      ["http://localhost:*", "http://localhost/", true],
      ["http://localhost:*", "https://localhost:3000/", false],
      ["http://localhost:*", "http://localhost.attacker.example:3000/", false],
      ["http://localhost:*", "http://localhost:@127.0.0.1:8080/", false],
      ["http://localhost:*", "http://user:pw@localhost:3000/", false],
      ["http://localhost", "http://localhost:80/x", true],
      ["http://localhost", "http://localhost:8080/x", false],
      ["https://*.example.com/hooks/*", "https://app.example.com/hooks/a/b", true],
      ["https://*.example.com/hooks/*", "https://example.com.attacker.net/hooks/a", false],
      ["https://*.example.com/hooks/*", "https://evil.net/?.example.com/hooks/", false],
      ["https://*.example.com/hooks/*", "https://app.example.com/other", false],
      ["http://[::1]:3000/", "http://[::1]:3000/", true],
      ["http://127.0.0.1:3000/in", "http://127.0.0.1:3000/in?x=1", true],
      ["http://127.0.0.1:3000/in?x=1", "http://127.0.0.1:3000/in?x=2", false],
    ];
    for (const [pattern, url, matches] of cases) expect({ pattern, url, matches: urlPatternMatches(pattern, url) }).toEqual({ pattern, url, matches });
  });

  test("what is not a pattern is refused", () => {
    for (const bad of ["localhost:3000", "ftp://x/", "http://a b/", "http://x:99999/", "http://u@x/", "http://x/#f", ""])
      expect(urlPatternProblem(bad)).toBeString();
    for (const good of ["http://localhost:*", "https://*.example.com/hooks/*", "http://[::1]:3000"]) expect(urlPatternProblem(good)).toBeUndefined();
  });
});
