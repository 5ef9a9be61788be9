/**
 * The contract checks' shortcut (contracts/known-paths.ts): a body's field paths read from its bytes
 * say "all known" only when `fieldPaths` after `JSON.parse` would find nothing new, so a hook's
 * analysis is the same with the shortcut as without it.
 */
import { describe, expect, test } from "bun:test";
import { createAnalyse, type AnalyseInput } from "../../src/contracts/analyse";
import { compileUserSchema, createContractChecker, fieldPaths } from "../../src/contracts/check";
import { allPathsKnown } from "../../src/contracts/known-paths";
import examples from "../../src/triggers/github-examples.json";

const enc = (s: string) => new TextEncoder().encode(s);
const pathsOf = (s: string) => new Set(fieldPaths(JSON.parse(s)));

const BODIES = [
  '{"event":"order.created","id":"evt_0123456789","data":"xxxx"}',
  ' \n{ "a" : { "b" : [ 1 , { "c" : null } , [ { "d" : true } ] ] } , "e" : -1.5e3 , "f" : "q\\"}{[" } ',
  '[{"a":1},{"b":{"c":[]}},"s",2]',
  '{"":{"":1},"x.y":{}}',
  '{"a":[[[{"deep":"\\\\"}]]],"b":"\\\\\\""}',
  // GitHub's sample events, each a real provider's body.
  ...Object.values(examples as Record<string, unknown>).map((b) => JSON.stringify(b, null, 1)),
];

describe("allPathsKnown", () => {
  test("true with exactly fieldPaths' paths known, false as soon as any one of them is not", () => {
    for (const text of BODIES) {
      const all = pathsOf(text);
      expect(allPathsKnown(enc(text), all)).toBe(true);
      for (const p of all) {
        const less = new Set(all);
        less.delete(p);
        expect(allPathsKnown(enc(text), less)).toBe(false);
      }
    }
  });

  test("a body that is a view into a larger buffer is read from its own bytes", () => {
    const whole = enc('{"zz":1}{"a":{"b":2}}');
    expect(allPathsKnown(whole.subarray(8), new Set(["a", "a.b"]))).toBe(true);
    expect(allPathsKnown(whole.subarray(8), new Set(["a"]))).toBe(false);
  });

  test("what it does not read plainly is a no: escaped or non-ASCII keys, cut short, bytes out of place", () => {
    expect(allPathsKnown(enc('{"t\\u0079pe":1}'), pathsOf('{"t\\u0079pe":1}'))).toBe(false);
    expect(allPathsKnown(enc('{"café":1}'), pathsOf('{"café":1}'))).toBe(false);
    const known = new Set(["a", "a.b"]);
    for (const bad of ['{"a":{"b":1}', '{"a":{"b":"x}}', '{"a" {"b":1}}', '{"a":{"b":1}]', '{"a":{"b":1,}}', '{"a":{"b":}}', "[1 2]"]) {
      expect(allPathsKnown(enc(bad), known)).toBe(false);
    }
    // Past fieldPaths' depth (32 levels) it finds more, so never all known.
    const deep = `${'{"a":'.repeat(100)}1${"}".repeat(100)}`;
    expect(allPathsKnown(enc(deep), pathsOf(deep))).toBe(false);
  });

  test("not an object or an array: no paths, as fieldPaths finds none", () => {
    for (const text of ["", "not json", '"s"', "12", "  null"]) expect(allPathsKnown(enc(text), new Set())).toBe(true);
  });
});

describe("the analysis with the shortcut gives what it gave without it", () => {
  const own = { billing: [{ pattern: "invoice.*", validate: compileUserSchema({ type: "object", required: ["amount"] }) }] };
  const checker = createContractChecker((c) => own[c as "billing"]);
  const hook = (id: string, channel: string, eventType: string, body: string, headers = "{}"): AnalyseInput => ({
    id,
    channel,
    eventType,
    headers,
    body: enc(body),
  });

  test("fields seen before are not fresh; a new one, a duplicate key's or a body that is not JSON are as before", async () => {
    const analyse = createAnalyse(checker);
    const first = await analyse([hook("1", "c", "t", '{"a":{"b":1},"s":"x"}')]);
    expect(first).toEqual([{ result: "none", violations: [], fresh: ["", "a", "a.b", "s"] }]);
    const next = await analyse([
      hook("2", "c", "t", '{"s":"other","a":{"b":2}}'),
      hook("3", "c", "t", '{"a":{"b":2,"n":[{"m":1}]}}'),
      hook("4", "c", "t", '{"a":{"b":1},"a":{"z":1}}'),
      hook("5", "c", "t", '{"a":{"b":1},"s":"x"'),
      hook("6", "c", "u", '{"a":{"b":1}}'),
    ]);
    expect(next).toEqual([
      { result: "none", violations: [], fresh: [] },
      { result: "none", violations: [], fresh: ["a.n", "a.n[].m"] },
      { result: "none", violations: [], fresh: ["a.z"] },
      { result: "none", violations: [], fresh: [] },
      { result: "none", violations: [], fresh: ["", "a", "a.b"] },
    ]);
  });

  test("a hook a schema applies to is checked against it even when its fields are all known", async () => {
    const analyse = createAnalyse(checker);
    await analyse([hook("1", "billing", "invoice.paid", '{"amount":1}')]);
    expect(await analyse([hook("2", "billing", "invoice.paid", '{"amountx":1}'), hook("3", "billing", "invoice.paid", '{"amount":1}')])).toEqual([
      { result: "invalid", violations: [{ path: "/amount", message: "must have required property 'amount'" }], fresh: ["amountx"] },
      { result: "valid", violations: [], fresh: [] },
    ]);
    const gh = await analyse([
      hook("4", "gh", "ping", '{"zen":1}', '{"x-github-event":"ping"}'),
      hook("5", "gh", "ping", '{"zen":1}', '{"x-github-event":"ping"}'),
    ]);
    expect(gh.map((a) => [a.result, a.fresh])).toEqual([
      [gh[0]!.result, ["", "zen"]],
      [gh[0]!.result, []],
    ]);
    expect(gh[1]!.result).not.toBe("none");
  });

  test("a GitHub push seen before is checked in full with nothing fresh; a bad link is invalid every time", async () => {
    const analyse = createAnalyse(createContractChecker());
    const push = (examples as unknown as { push: { repository: Record<string, unknown> } }).push;
    const gh = (id: string, body: unknown) => hook(id, "gh", "push", JSON.stringify(body), '{"x-github-event":"push"}');
    const [first] = await analyse([gh("1", push)]);
    expect(first!.result).toBe("valid");
    expect(first!.fresh).toEqual(["", ...fieldPaths(push)]);
    const badLink = { ...push, repository: { ...push.repository, issues_url: "https://api.github.com/{bad template" } };
    const again = await analyse([gh("2", push), gh("3", badLink), gh("4", badLink), gh("5", { ...push, added: 1 })]);
    expect(again.map((a) => [a.result, a.fresh])).toEqual([
      ["valid", []],
      ["invalid", []],
      ["invalid", []],
      ["invalid", ["added"]], // push allows no other top-level property
    ]);
    expect(again[1]!.violations).toEqual([{ path: "/repository/issues_url", message: 'must match format "uri-template"' }]);
  });
});
