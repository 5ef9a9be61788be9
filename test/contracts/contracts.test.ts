import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sign } from "@octokit/webhooks-methods";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import examples from "../../src/triggers/github-examples.json";
import { AUTH, startTarget, type Target } from "../helpers/target";

// Runs on every target (MAILROOM_TEST_TARGET): the executable on SQLite and PostgreSQL too.

const GH = "gh-secret";
const dir = mkdtempSync(join(tmpdir(), "mailroom-contracts-"));
const invoiceSchema = join(dir, "invoice.json");
writeFileSync(
  invoiceSchema,
  JSON.stringify({ type: "object", required: ["type", "amount"], properties: { type: { type: "string" }, amount: { type: "integer", minimum: 0 } } }),
);

type Contract = { result: string; violations: { path: string; message: string }[]; new_type: boolean; new_field: boolean };

describe("contract checks: each caught hook is checked against its provider's or its channel's schema", () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({
      guards: [{ name: "gh", kind: "github", secret: GH }],
      channels: [{ name: "github", guards: ["gh"] }, { name: "billing", schemas: { "invoice.*": invoiceSchema } }, { name: "plain" }],
    });
  }, 60_000);
  afterAll(async () => (await t.stop(), rmSync(dir, { recursive: true, force: true })));

  /** The hook's contract once checked (it is checked after the sender was answered). */
  async function contractOf(id: string, until: (c: Contract) => boolean = () => true): Promise<Contract> {
    for (;;) {
      const hook = (await t.call("GET", `/v1/hooks/${id}?include=extensions`)).json;
      if (hook.contract && until(hook.contract)) return hook.contract;
      await Bun.sleep(10);
    }
  }
  /**
   * A hook no schema applies to reads `none` at once (implied), before its check ran: the first of
   * its type on its channel is then marked new-type once the check is kept. Waits for that mark.
   */
  const firstOfType = (id: string) => contractOf(id, (c) => c.new_type);
  const github = async (event: string, body: string) => {
    const res = await t.call("POST", "/?channel=github", body, {
      "x-hub-signature-256": await sign(GH, body),
      "x-github-event": event,
      "content-type": "application/json",
    });
    expect(res.status).toBe(200);
    return res.json.id as string;
  };

  test("every GitHub event `mailroom trigger` sends is valid", async () => {
    const ids: [string, string][] = [];
    for (const [type, body] of Object.entries(examples as Record<string, unknown>)) ids.push([type, await github(type.split(".")[0]!, JSON.stringify(body))]);
    const results: Record<string, string> = {};
    for (const [type, id] of ids) results[type] = (await contractOf(id)).result;
    const notValid = Object.entries(results).filter(([, r]) => r !== "valid");
    expect(notValid).toEqual([]);
    expect(Object.keys(results).length).toBeGreaterThan(100);
  }, 300_000);

  test("a GitHub event with a field removed, or of the wrong type, is invalid with its path", async () => {
    const sample = structuredClone((examples as Record<string, any>)["issues.opened"]);
    delete sample.issue.user;
    const removed = await contractOf(await github("issues", JSON.stringify(sample)));
    expect(removed.result).toBe("invalid");
    expect(removed.violations[0]!.path).toBe("/issue/user");

    const wrong = structuredClone((examples as Record<string, any>)["issues.opened"]);
    wrong.issue.number = "seven";
    const typed = await contractOf(await github("issues", JSON.stringify(wrong)));
    expect(typed.result).toBe("invalid");
    expect(typed.violations[0]).toEqual({ path: "/issue/number", message: "must be integer" });
    // An event GitHub's schemas do not describe.
    expect((await contractOf(await github("made_up_event", '{"a":1}'))).result).toBe("unknown");
  });

  test("a channel's own schema per event type; no schema elsewhere; the Hook stays exact without include", async () => {
    const send = async (channel: string, body: unknown) =>
      (await t.call("POST", `/?channel=${channel}`, JSON.stringify(body), { "content-type": "application/json" })).json.id as string;
    const good = await contractOf(await send("billing", { type: "invoice.paid", amount: 5 }));
    expect(good.result).toBe("valid");
    expect(good.new_type).toBe(true);
    const bad = await contractOf(await send("billing", { type: "invoice.paid", amount: -1, note: "x" }));
    expect(bad).toEqual({ result: "invalid", violations: [{ path: "/amount", message: "must be >= 0" }], new_type: false, new_field: true });
    expect((await contractOf(await send("billing", { type: "invoice.paid", amount: 2 }))).new_field).toBe(false);
    expect((await firstOfType(await send("billing", { type: "customer.created" }))).result).toBe("none");
    const untyped = await t.call("POST", "/?channel=untyped", new Uint8Array([0, 159, 146, 150]), { "content-type": "application/octet-stream" });
    // The first hook of a channel without an event type is of no type: neither new-type nor new-field.
    expect(await contractOf(untyped.json.id)).toEqual({ result: "none", violations: [], new_type: false, new_field: false });
    const id = await send("plain", { type: "x" });
    expect((await firstOfType(id)).result).toBe("none");
    const plain = (await t.call("GET", `/v1/hooks/${id}`)).json;
    expect(plain.contract).toBeUndefined();
    expect(plain.event_type).toBeUndefined();
    // Summaries carry it only when asked for too.
    const summaries = async (include: string) =>
      (await t.call("GET", `/v1/hooks?channel=billing&fields=summary${include}`)).json as { id: string; contract?: { result: string } }[];
    expect((await summaries("")).every((h) => !("contract" in h))).toBe(true);
    expect((await summaries("&include=extensions")).map((h) => h.contract?.result)).toEqual(["none", "valid", "invalid", "valid"]);
    // Whole hooks in a list likewise (read only when asked for: bench:reads).
    const whole = async (include: string) =>
      (await t.call("GET", `/v1/hooks?channel=billing${include}`)).json as { id: string; contract?: { result: string } }[];
    expect((await whole("")).every((h) => !("contract" in h))).toBe(true);
    expect((await whole("&include=extensions")).map((h) => h.contract?.result)).toEqual(["none", "valid", "invalid", "valid"]);

    // Filters: the list parameter and the search grammar.
    const list = async (query: string) => ((await t.call("GET", `/v1/hooks?channel=billing&${query}`)).json as { id: string }[]).map((h) => h.id);
    const badId = (await list("schema=invalid"))[0];
    expect(await list("schema=invalid")).toHaveLength(1);
    expect((await contractOf(badId!)).result).toBe("invalid");
    expect(await list("q=schema:invalid")).toEqual([badId!]);
    expect(await list("schema=valid")).toHaveLength(2);
    expect(await list("q=is:new-type")).toHaveLength(2);
    expect(await list("q=is:new-field")).toEqual([badId!]);
    expect(await list("schema=none&q=is:new-type")).toHaveLength(1);
    expect((await t.call("GET", "/v1/hooks?schema=broken")).status).toBe(400);
    expect((await t.call("GET", "/v1/hooks?q=schema:broken")).status).toBe(400);
    // The terms are read from the query's tree: in parentheses, under NOT, in an OR among
    // themselves, beside words; a quoted one is a phrase.
    const all = await list("");
    const [none, , invalid, firstValid] = all;
    const q = (text: string) => list(`q=${encodeURIComponent(text)}`);
    expect(await q("(schema:invalid OR schema:none)")).toEqual([none!, invalid!]);
    expect(await q("NOT schema:valid")).toEqual([none!, invalid!]);
    expect(await q("-schema:valid")).toEqual([none!, invalid!]);
    expect(await q("-(schema:valid OR schema:none)")).toEqual([invalid!]);
    expect(await q("is:new-type -schema:none")).toEqual([firstValid!]);
    expect(await q("(is:new-type)")).toHaveLength(2);
    // Words are searched in the index, which a loaded machine may fill later than the answer: wait
    // until it holds the three invoices.
    for (const deadline = Date.now() + 20_000; (await q("invoice")).length < 3 && Date.now() < deadline; ) await Bun.sleep(50);
    expect(await q("invoice (schema:invalid OR is:new-type)")).toEqual([invalid!, firstValid!]);
    expect(await q("invoice AND NOT (is:new-type OR is:new-field)")).toEqual([all[1]!]);
    expect(await q('"x is:new-type"')).toEqual([]);
    expect(await q('amount "schema:invalid"')).toEqual([]);
    // Beside other terms in one OR or NOT they could not be searched apart: a 400 saying where.
    for (const [text, at] of [
      ["invoice OR schema:invalid", 12],
      ["NOT (schema:invalid invoice)", 6],
      ["amount (status:pending OR is:new-field)", 27],
    ] as const) {
      const res = await t.call("GET", `/v1/hooks?q=${encodeURIComponent(text)}`);
      expect({ text, status: res.status, message: res.json.message }).toEqual({
        text,
        status: 400,
        message: expect.stringContaining(`at character ${at}: schema:, is:new-type and is:new-field can join other terms by AND only`),
      });
    }
    // Elsewhere (saved views, bulk actions) they are refused rather than searched as words.
    const bulk = await t.call("POST", "/v1/hooks/bulk", JSON.stringify({ query: "schema:invalid", action: "retry", dry_run: true }), {
      ...AUTH,
      "content-type": "application/json",
    });
    expect({ status: bulk.status, message: bulk.json.message }).toEqual({ status: 400, message: expect.stringContaining("filter the hook list only") });
    // Export lines carry it (an extension); an import reads past it.
    const exported = (await t.call("GET", "/v1/hooks/export?channel=billing")).text.trim().split("\n");
    expect(exported.map((l) => JSON.parse(l).contract?.result)).toEqual(["none", "valid", "invalid", "valid"]);
    expect(JSON.parse(exported[2]!).contract.violations).toEqual([{ path: "/amount", message: "must be >= 0" }]);
    await t.call("DELETE", "/v1/channels/billing");
    const imported = await t.call("POST", "/v1/hooks/import", exported.join("\n"), { ...AUTH, "content-type": "application/x-ndjson" });
    expect(imported.json).toMatchObject({ imported: 4, failed: [] });
  });

  test("each check is counted by channel and result in /metrics, a batch of one sender as one", async () => {
    const count = async (channel: string, result: string) => {
      const text = (await t.call("GET", "/metrics", undefined, AUTH)).text;
      const line = text.split("\n").find((l) => l.startsWith(`mailroom_contract_checks_total{channel="${channel}",result="${result}"}`));
      return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
    };
    const [none, valid] = [await count("plain", "none"), await count("billing", "valid")];
    const send = (channel: string, body: unknown) => t.call("POST", `/?channel=${channel}`, JSON.stringify(body), { "content-type": "application/json" });
    // Sent together: caught in one batch or a few, of two channels and results.
    await Promise.all([...Array.from({ length: 7 }, (_, i) => send("plain", { type: "x", n: i })), send("billing", { type: "invoice.paid", amount: 1 })]);
    for (const deadline = Date.now() + 20_000; (await count("plain", "none")) < none + 7 && Date.now() < deadline; ) await Bun.sleep(20);
    expect(await count("plain", "none")).toBe(none + 7);
    for (const deadline = Date.now() + 20_000; (await count("billing", "valid")) < valid + 1 && Date.now() < deadline; ) await Bun.sleep(20);
    expect(await count("billing", "valid")).toBe(valid + 1);
  });
});
