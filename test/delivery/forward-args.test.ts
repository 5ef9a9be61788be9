import { expect, test } from "bun:test";
import { parseArgs } from "../../src/cli";
import { buildConfig, type ConfigError } from "../../src/load-config";

test("serve --forward PATTERN=URL, repeated: routes in order, a --forward-to URL last, --channel for them all", () => {
  expect(
    parseArgs(["serve", "--forward", "invoice.*=http://x/billing", "--forward-to", "http://x/rest", "--forward=Push Hook=http://x/gl", "--channel", "c"]),
  ).toEqual({
    kind: "serve",
    forward: {
      routes: [
        { pattern: "invoice.*", url: "http://x/billing", flag: "--forward invoice.*", when: 'type:"invoice.*"' },
        { pattern: "Push Hook", url: "http://x/gl", flag: "--forward Push Hook", when: 'type:"Push Hook"' },
        { pattern: "*", url: "http://x/rest", flag: "--forward-to" },
      ],
      channel: "c",
    },
  });
  expect(parseArgs(["listen", "http://127.0.0.1:1", "--channel", "stripe", "--token", "t", "--forward", "*=http://x/all"])).toMatchObject({
    kind: "listen",
    forward: { routes: [{ pattern: "*", url: "http://x/all", flag: "--forward *" }], channel: "stripe" },
  });
  const error = (argv: string[]) => (parseArgs(argv) as { message?: string }).message;
  expect(error(["serve", "--forward", "http://x"])).toBe("--forward: give PATTERN=URL, as --forward 'invoice.*=http://localhost:3000/billing', not http://x");
  expect(error(["serve", "--forward", "=http://x"])).toBe("--forward: the event type pattern before = is empty (* forwards every hook): =http://x");
  expect(error(["serve", "--forward", "in*voice=http://x"])).toBe("--forward: * only ends a pattern (a prefix, as invoice.*): in*voice");
  expect(error(["serve", "--forward", "invoice.*="])).toBe("--forward: the URL after = is empty: invoice.*=");
  expect(error(["serve", "--channel", "c"])).toBe("--channel is only used with --forward-to URL or --forward");
});

test("a route's problems name its flag; each route is a forward handler of every channel, first match wins", async () => {
  const problems = (run: () => unknown) => {
    try {
      run();
      return [];
    } catch (error) {
      return (error as ConfigError).problems;
    }
  };
  const route = (pattern: string, url: string) => ({ pattern, url, flag: `--forward ${pattern}`, ...(pattern === "*" ? {} : { when: `type:"${pattern}"` }) });
  expect(problems(() => buildConfig({}, {}, { forward: { routes: [route("a.*", "ftp://x"), route("*", "http://127.0.0.1:1/")] } }))).toEqual([
    { path: "--forward a.*", message: "must be an http:// or https:// URL" },
  ]);
  const config = buildConfig(
    { channels: [{ name: "gh" }] },
    {},
    { forward: { routes: [route("invoice.*", "http://127.0.0.1:1/a"), route("invoice.paid", "http://127.0.0.1:1/b"), route("*", "http://127.0.0.1:1/c")] } },
  );
  expect(config.channels[0]!.handlers).toEqual(["forward-to", "forward-to-2", "forward-to-3"]);
  expect(config.hooks.default_handlers).toEqual(["forward-to", "forward-to-2", "forward-to-3"]);
  const hook = (eventType: string) => ({ id: "h", channel: "gh", method: "POST", query: "", ip: "", headers: {}, body: new Uint8Array(), eventType });
  const takes = async (eventType: string) => {
    const out: string[] = [];
    for (const h of config.handlers) if (!h.when || (await h.when.matches(hook(eventType)))) out.push(h.name);
    return out;
  };
  expect(await takes("invoice.paid")).toEqual(["forward-to"]);
  expect(await takes("customer.created")).toEqual(["forward-to-3"]);
  expect(await takes("")).toEqual(["forward-to-3"]);
});
