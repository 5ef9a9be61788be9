import { expect, test } from "bun:test";
import { parseArgs } from "../../src/cli";

test("mailroom listen: the URL, --channel and --token are required; --forward-to forwards the relayed channel; serve's flags apply", () => {
  expect(
    parseArgs(["listen", "https://hooks.example.com", "--channel", "stripe", "--token", "mr_x", "--forward-to", "http://localhost:3000/h", "--port", "0"]),
  ).toEqual({
    kind: "listen",
    relay: { url: "https://hooks.example.com", channel: "stripe", token: "mr_x" },
    forwardTo: { url: "http://localhost:3000/h", channel: "stripe" },
    port: 0,
  });
  expect(parseArgs(["listen", "http://127.0.0.1:8081", "--channel=github", "--token=t", "--quiet"])).toMatchObject({
    kind: "listen",
    quiet: true,
    forwardTo: undefined,
  });
  const error = (argv: string[]) => (parseArgs(argv) as { kind: string; message?: string }).message;
  expect(error(["listen"])).toStartWith("listen: give the upstream Mailroom's URL");
  expect(error(["listen", "hooks.example.com", "--channel", "s", "--token", "t"])).toBe("listen: not an http:// or https:// URL: hooks.example.com");
  expect(error(["listen", "https://h", "--token", "t"])).toStartWith("listen: --channel NAME");
  expect(error(["listen", "https://h", "--channel", "s"])).toStartWith("listen: --token TOKEN");
  expect(error(["listen", "https://h", "--channel", "s", "--token", "t", "--nope", "1"])).toStartWith("unknown flag for listen: --nope");
});

test("mailroom listen refuses plain http:// to another machine unless --insecure; loopback is plain http:// that never leaves it", () => {
  const argv = (url: string, ...more: string[]) => ["listen", url, "--channel", "stripe", "--token", "t", ...more];
  expect(parseArgs(argv("http://hooks.example.com"))).toEqual({
    kind: "error",
    message:
      "listen: http://hooks.example.com is plain http:// to hooks.example.com, which is not this machine: the relay key and every hook would cross the network unencrypted, and anyone on the way could write hooks here. Use https://, or allow it on a network you trust with --insecure",
  });
  expect(parseArgs(argv("http://10.0.0.5:8081", "--insecure"))).toMatchObject({ kind: "listen", relay: { url: "http://10.0.0.5:8081", insecure: true } });
  for (const url of ["http://127.0.0.1:8081", "http://localhost:8081", "http://[::1]:8081", "https://hooks.example.com"])
    expect([url, parseArgs(argv(url)).kind]).toEqual([url, "listen"]);
});

test("reconnection backs off 2, 4, 8, 16 s, then stays at 30 s", async () => {
  const { reconnectDelay } = await import("../../src/relay/preflight");
  expect([0, 1, 2, 3, 4, 5, 20].map(reconnectDelay)).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});
