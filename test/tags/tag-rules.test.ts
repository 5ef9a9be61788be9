/**
 * `[[tag_rules]]` (docs/tags.md): hooks a rule's query matches get its tags as they are caught;
 * a rule whose query or tags are wrong is refused when the config loads. Runs on every target.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildConfig, type ConfigError } from "../../src/load-config";
import { eventually, startTarget, type Target } from "../helpers/target";

describe("tag rules", () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({
      tag_rules: [
        { query: "event:invoice.* larger:40B", tags: ["billing", "big"] },
        { query: "payload.kind:ping", tags: ["ping"] },
      ],
    });
  });
  afterAll(() => t?.stop());

  test("a caught hook gets the tags of every rule it matches, and only those", async () => {
    const json = { "content-type": "application/json" };
    const big = (await (await t.post("stripe", JSON.stringify({ type: "invoice.paid", note: "x".repeat(60) }), json)).json()) as { id: string };
    const small = (await (await t.post("stripe", JSON.stringify({ type: "invoice.paid" }), json)).json()) as { id: string };
    const ping = (await (await t.post("misc", JSON.stringify({ kind: "ping" }), json)).json()) as { id: string };
    const list = async (q: string) => ((await t.call("GET", `/v1/hooks?q=${encodeURIComponent(q)}`)).json as { id: string }[]).map((h) => h.id);
    await eventually("the rules' tags", async () => ((await list("tag:ping")).length === 1 && (await list("tag:billing")).length === 1 ? true : undefined));
    expect(await list("tag:billing")).toEqual([big.id]);
    expect(await list("tag:big")).toEqual([big.id]);
    expect(await list("tag:ping")).toEqual([ping.id]);
    expect(await list("tag:billing OR tag:big OR tag:ping")).not.toContain(small.id);
  });
});

describe("tag rules in the config", () => {
  const problems = (rules: unknown) => {
    try {
      buildConfig({ tag_rules: rules });
      return [];
    } catch (error) {
      return (error as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
    }
  };
  test("a query that does not parse names its rule and the character", () => {
    expect(problems([{ query: "event:invoice.* (", tags: ["a"] }]).join("\n")).toMatch(/^tag_rules\[0\]\.query: does not parse at character 18/);
  });
  test("a tag out of the rule, no tags, or an unknown key is refused", () => {
    expect(problems([{ query: "invoice", tags: ["Billing"] }]).join("\n")).toContain("tag_rules[0].tags");
    expect(problems([{ query: "invoice", tags: [] }]).join("\n")).toContain("tag_rules[0].tags");
    expect(problems([{ query: "invoice", tags: ["a"], tag: "b" }]).join("\n")).toContain("tag_rules[0]");
  });
  test("a valid rule loads compiled", () => {
    const config = buildConfig({ tag_rules: [{ query: "invoice", tags: ["a", "a", "b"] }] });
    expect(config.tag_rules.map((r) => ({ query: r.query, tags: r.tags }))).toEqual([{ query: "invoice", tags: ["a", "b"] }]);
  });
});
