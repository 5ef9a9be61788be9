import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually, startTarget, type Target } from "../helpers/target";
import { createReceiver } from "../runner/receiver";

// Runs on every target (MAILROOM_TEST_TARGET): the executable on SQLite and PostgreSQL too.

/** Each handler's `when`, and the hooks (by index in HOOKS) it must run on. */
const TABLE: [name: string, when: string, wants: number[]][] = [
  ["invoices", "type:invoice.*", [0, 1]],
  ["paid", "type:invoice.paid", [0]],
  ["paid-any-case", "TYPE:Invoice.PAID", [0]],
  ["event-type-name", "event_type:invoice.*", [0, 1]],
  ["event-short", "event:invoice.paid", [0]],
  ["test-mode", "payload.data.object.livemode:false", [0, 2]],
  ["test-invoices", "type:invoice.* payload.data.object.livemode:false", [0]],
  ["refunds", "refund", [2]],
  ["pushes", "header.x-github-event:push", [3]],
  ["puts", "method:PUT", [4]],
  ["phrase", '"order failed"', [4]],
  ["everything", "channel:routes", [0, 1, 2, 3, 4]],
  // The whole grammar: NOT, OR, parentheses, hook terms (a hook as caught: pending, no attempts).
  ["not-invoices", "-type:invoice.* channel:routes", [2, 3, 4]],
  ["refund-or-push", "refund OR header.x-github-event:push", [2, 3]],
  ["grouped", "(type:invoice.* OR method:PUT) NOT payload.data.object.livemode:true", [0, 4]],
  ["small", "smaller:30B", [3, 4]],
  ["local-recent", "ip:127.0.0.0/8 after:-1h before:2999-01-01", [0, 1, 2, 3, 4]],
  ["as-caught", "status:pending NOT has:attempts refund", [2]],
];

/** The hooks caught on channel "routes": [body, headers, method]. */
const HOOKS: [string, Record<string, string>, string][] = [
  ['{"type":"invoice.paid","data":{"object":{"livemode":false}}}', { "content-type": "application/json" }, "POST"],
  ['{"type":"invoice.created","data":{"object":{"livemode":true}}}', { "content-type": "application/json" }, "POST"],
  ['{"type":"charge.refunded","data":{"object":{"livemode":false,"reason":"refund requested"}}}', { "content-type": "application/json" }, "POST"],
  ['{"ref":"refs/heads/main"}', { "content-type": "application/json", "x-github-event": "push" }, "POST"],
  ["the order failed twice", { "content-type": "text/plain" }, "PUT"],
];

describe("when: a handler runs only on the hooks its search query finds", () => {
  let t: Target;
  const app = createReceiver({ status: 200, body: "ok" });
  const base = app.url.replace(/\/hook$/, "");
  beforeAll(async () => {
    t = await startTarget({
      handlers: [
        ...TABLE.map(([name, when]) => ({ name, kind: "forward", url: `${base}/${name}`, when, max_attempts: 1 })),
        { name: "never", kind: "forward", url: `${base}/never`, when: "type:never.happens", max_attempts: 1 },
        { name: "never-either", kind: "command", argv: ["false"], when: "payload.nothing:here", max_attempts: 1 },
      ],
      channels: [
        { name: "routes", handlers: TABLE.map(([name]) => name) },
        { name: "unwanted", handlers: ["never", "never-either"] },
      ],
    });
    // Starting the executable on a fresh PostgreSQL database takes seconds on a busy machine.
  }, 60_000);
  afterAll(async () => {
    await t.stop();
    app.stop();
  });

  const settled = (id: string) =>
    eventually(`hook ${id} handled`, async () => {
      const hook = (await t.call("GET", `/v1/hooks/${id}`)).json;
      return hook.status === "pending" ? undefined : hook;
    });

  test("a table of queries against a fixed set of hooks: each handler that wants a hook runs, the others are skipped", async () => {
    const ids: string[] = [];
    for (const [body, headers, method] of HOOKS) {
      const res = await t.post("routes", body, headers, method);
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const ran: Record<string, number[]> = Object.fromEntries(TABLE.map(([name]) => [name, []]));
    for (const [i, id] of ids.entries()) {
      expect((await settled(id)).status).toBe("handled");
      const attempts = (await t.call("GET", `/v1/hooks/${id}/attempts`)).json as { handler: string; outcome: string }[];
      expect(attempts.map((a) => a.handler).sort()).toEqual(TABLE.map(([name]) => name).sort());
      for (const a of attempts) {
        expect(["succeeded", "skipped"]).toContain(a.outcome);
        if (a.outcome === "succeeded") ran[a.handler]!.push(i);
      }
    }
    expect(ran).toEqual(Object.fromEntries(TABLE.map(([name, , wants]) => [name, wants])));
    // What reached the app: one request per handler that wanted a hook, at its own path.
    const sent = TABLE.flatMap(([name, , wants]) => wants.map(() => `/${name}`)).sort();
    expect(app.received.map((r) => r.path).sort()).toEqual(sent);
    // A search with each `when` finds the hooks the handler ran on (the hooks are handled now and
    // have attempts: the row that reads a hook as caught is left out).
    for (const [name, when, wants] of TABLE.filter(([name]) => name !== "as-caught")) {
      const found = (await t.call("GET", `/v1/hooks?limit=100&q=${encodeURIComponent(`(${when}) channel:routes`)}`)).json as { id: string }[];
      expect({ name, found: found.map((h) => h.id) }).toEqual({ name, found: wants.map((i) => ids[i]!).reverse() });
    }
  });

  test("a hook no handler wants is handled, its event saying so, and nothing is sent", async () => {
    const res = await t.post("unwanted", '{"type":"invoice.paid"}', { "content-type": "application/json" });
    const id = ((await res.json()) as { id: string }).id;
    const hook = await settled(id);
    expect(hook.status).toBe("handled");
    expect(hook.events.at(-1)).toMatchObject({ kind: "handled", actor: "", message: "no handler wants this hook (their when does not match it)" });
    const attempts = (await t.call("GET", `/v1/hooks/${id}/attempts`)).json as { handler: string; outcome: string }[];
    expect(attempts.map((a) => [a.handler, a.outcome]).sort()).toEqual([
      ["never", "skipped"],
      ["never-either", "skipped"],
    ]);
    expect(app.received.some((r) => r.path === "/never")).toBe(false);
  });
});
