import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";
import { tempDir } from "../helpers/binary";
import { createFakeClock } from "../helpers/clock";
import { postgresAvailable } from "../helpers/postgres";
import { pgTestApp, recordingNotify } from "./helpers";

const MIN = 60_000;
type Tested = Pick<TestApp, "call" | "post" | "clock" | "runner"> & { close(): unknown };
let app: Tested;
afterEach(async () => {
  await app?.close();
});

for (const backend of postgresAvailable() ? ["sqlite", "postgres"] : ["sqlite"]) {
  describe(`alert rules on ${backend}`, () => {
    async function start(alerts: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
      const rec = recordingNotify();
      const raw = { channels: [{ name: "stripe" }], notifiers: [{ name: "ops", kind: "slack", url: "https://hooks.example/ops" }], alerts, ...extra };
      app = backend === "sqlite" ? createTestApp(raw, { notify: rec.notify }) : await pgTestApp(raw, rec.notify);
      return rec;
    }
    const issues = async (query = "", headers?: Record<string, string>) => (await app.call("GET", `/v1/issues${query}`, undefined, headers)).json as any[];
    /** Catches one hook and waits until it committed (the change sink has told the engine). */
    async function hook(channel: string, body = "{}") {
      const r = await app.post(channel, body, { "content-type": "application/json" });
      expect(r.status).toBeLessThan(300);
    }
    async function evaluate() {
      await app.runner.tick();
    }

    describe("silence", () => {
      test("opens one issue after `for` without a hook, notifies, resolves on the next hook", async () => {
        const rec = await start([{ name: "stripe-quiet", kind: "silence", channels: ["stripe"], for: "30m", notify: ["ops"] }]);
        await hook("stripe");
        app.clock.advance(29 * MIN);
        await evaluate();
        expect(await issues()).toEqual([]);
        app.clock.advance(2 * MIN);
        await evaluate();
        await evaluate();
        const [issue, ...more] = await issues();
        expect(more).toEqual([]);
        expect(issue).toMatchObject({ rule: "stripe-quiet", kind: "silence", scope: "stripe", state: "open", count: 1, hooks_query: "channel=stripe" });
        expect(issue.summary).toBe("no hook on stripe for 30m");
        expect(rec.events()).toEqual(["opened stripe-quiet stripe"]);
        expect(rec.sent[0]!.to).toEqual(["ops"]);
        await hook("stripe");
        await evaluate();
        const [after] = await issues();
        expect(after.state).toBe("resolved");
        expect(after.history.map((h: any) => `${h.action} ${h.by}`)).toEqual(["opened mailroom", "resolved mailroom"]);
        expect(rec.events()).toEqual(["opened stripe-quiet stripe", "resolved stripe-quiet stripe"]);
      });

      test("within a schedule, across the change to summer time (Europe/Berlin)", async () => {
        await start([{ name: "office", kind: "silence", channels: ["stripe"], for: "30m", schedule: "mon-fri 08:00-20:00 Europe/Berlin" }]);
        // Friday 2026-03-27, CET (UTC+1): the schedule ends at 19:00 UTC.
        app.clock.set(Date.parse("2026-03-27T18:00:00Z"));
        await hook("stripe");
        app.clock.set(Date.parse("2026-03-27T19:10:00Z"));
        await evaluate();
        expect(await issues()).toEqual([]);
        // Sunday: outside the schedule.
        app.clock.set(Date.parse("2026-03-29T12:00:00Z"));
        await evaluate();
        expect(await issues()).toEqual([]);
        // Monday 2026-03-30, CEST (UTC+2): 08:00 is 06:00 UTC; 30 min later, not before.
        app.clock.set(Date.parse("2026-03-30T06:29:00Z"));
        await evaluate();
        expect(await issues()).toEqual([]);
        app.clock.set(Date.parse("2026-03-30T06:30:30Z"));
        await evaluate();
        expect((await issues()).map((i) => [i.scope, i.state])).toEqual([["stripe", "open"]]);
      });

      test("a silence rule with a pattern watches the channels that exist", async () => {
        await start([{ name: "any-quiet", kind: "silence", channels: ["gh-*"], for: "10m" }]);
        await hook("gh-one");
        await hook("other");
        app.clock.advance(11 * MIN);
        await evaluate();
        expect((await issues()).map((i) => i.scope)).toEqual(["gh-one"]);
      });
    });

    describe("rate", () => {
      test("more than threshold hooks in the window: one issue, resolved once the window passes", async () => {
        const rec = await start([{ name: "storm", kind: "rate", channels: ["*"], threshold: 3, window: "1m", notify: ["ops"] }]);
        for (let i = 0; i < 3; i++) await hook("stripe");
        await evaluate();
        expect(await issues()).toEqual([]);
        await hook("stripe");
        await hook("stripe");
        await evaluate();
        const [issue] = await issues();
        expect(issue).toMatchObject({ rule: "storm", scope: "stripe", count: 5, summary: "5 hooks on stripe in 1m" });
        app.clock.advance(2 * MIN);
        await evaluate();
        expect((await issues())[0].state).toBe("resolved");
        expect(rec.events()).toEqual(["opened storm stripe", "resolved storm stripe"]);
      });
    });

    describe("refusals", () => {
      test("more than threshold refusals of a reason kind in the window", async () => {
        await start([{ name: "paused", kind: "refusals", channels: ["stripe"], threshold: 1, window: "5m", reasons: ["paused"] }]);
        expect((await app.call("POST", "/v1/channels/stripe/pause")).status).toBe(200);
        for (let i = 0; i < 2; i++) expect((await app.post("stripe", "{}")).status).toBe(503);
        await evaluate();
        const [issue] = await issues();
        expect(issue).toMatchObject({ kind: "refusals", scope: "stripe", summary: "2 refusals on stripe in 5m" });
      });
    });

    describe("handler", () => {
      test("hooks ending failed in a row open an issue listing the failed hooks; a handled one resolves it", async () => {
        await start([{ name: "failing", kind: "handler", channels: ["stripe"], threshold: 2 }]);
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) ids.push(((await (await app.post("stripe", "{}")).json()) as { id: string }).id);
        expect((await app.call("POST", `/v1/hooks/${ids[0]}/fail`, { message: "no" })).status).toBe(200);
        await evaluate();
        expect(await issues()).toEqual([]);
        expect((await app.call("POST", `/v1/hooks/${ids[1]}/fail`, { message: "no" })).status).toBe(200);
        await evaluate();
        const [issue] = await issues();
        expect(issue).toMatchObject({ kind: "handler", scope: "stripe", count: 2, hooks_query: "channel=stripe&status=failed" });
        expect((await app.call("POST", `/v1/hooks/${ids[2]}/process`)).status).toBe(200);
        await evaluate();
        expect((await issues())[0].state).toBe("resolved");
      });
    });

    describe("new_event_type", () => {
      test("the first hook of an event type never seen on the channel opens an issue; the next does not", async () => {
        const rec = await start([{ name: "new-types", kind: "new_event_type", channels: ["stripe"], notify: ["ops"] }]);
        await hook("stripe", '{"type":"invoice.paid"}');
        await evaluate();
        await hook("stripe", '{"type":"invoice.paid"}');
        await hook("stripe", '{"type":"charge.failed"}');
        await evaluate();
        expect((await issues()).map((i) => [i.scope, i.state]).sort()).toEqual([
          ["stripe/charge.failed", "open"],
          ["stripe/invoice.paid", "open"],
        ]);
        expect(rec.sent).toHaveLength(2);
      });

      test("with a query: only the hooks it finds can bring a new type; its issue's link carries the query", async () => {
        await start([{ name: "live-types", kind: "new_event_type", channels: ["stripe"], query: "payload.livemode:true" }]);
        await hook("stripe", '{"type":"invoice.paid","livemode":false}');
        await evaluate();
        expect(await issues()).toEqual([]);
        await hook("stripe", '{"type":"charge.failed","livemode":true}');
        await evaluate();
        const found = await issues();
        expect(found.map((i) => i.scope)).toEqual(["stripe/charge.failed"]);
        expect(found[0].hooks_query).toBe("channel=stripe&event_type=charge.failed&q=payload.livemode%3Atrue");
      });
    });

    describe("backlogs", () => {
      test("handler: a handler whose oldest waiting attempt is older than `for`", async () => {
        await start([{ name: "slow", kind: "handler", channels: ["stripe"], for: "10m" }], {
          handlers: [{ name: "app", kind: "forward", url: "http://127.0.0.1:9/x" }],
          channels: [{ name: "stripe", handlers: ["app"] }],
        });
        expect((await app.call("POST", "/v1/handlers/app/pause")).status).toBe(200);
        await hook("stripe");
        await evaluate();
        expect(await issues()).toEqual([]);
        app.clock.advance(11 * MIN);
        await evaluate();
        const [issue] = await issues();
        expect(issue).toMatchObject({ scope: "handler:app", count: 1, hooks_query: "channel=stripe&status=pending" });
        expect(issue.summary).toBe("1 attempts of app waiting, the oldest 11m");
        expect((await app.call("POST", "/v1/handlers/app/resume")).status).toBe(200);
      });

      test("relay: no listener on a relay key's channel for longer than `for`", async () => {
        await start([{ name: "laptop-gone", kind: "relay", channels: ["stripe"], for: "5m" }], {
          api_keys: [
            { label: "test", token: "test-token-0123456789" },
            { label: "laptop", token: "relay-token-0123456789", scopes: ["relay"], channels: ["stripe"] },
          ],
        });
        app.clock.advance(4 * MIN);
        await evaluate();
        expect(await issues("", { authorization: "Bearer test-token-0123456789" })).toEqual([]);
        app.clock.advance(2 * MIN);
        await evaluate();
        const [issue] = await issues("", { authorization: "Bearer test-token-0123456789" });
        expect(issue).toMatchObject({ kind: "relay", summary: "no relay listener on stripe for 5m", state: "open" });
      });
    });

    describe("repeat", () => {
      test("an open issue reminds its notifiers every `repeat`, an acknowledged one does not", async () => {
        const rec = await start([{ name: "quiet", kind: "silence", channels: ["stripe"], for: "5m", repeat: "10m", notify: ["ops"] }]);
        app.clock.advance(6 * MIN);
        await evaluate();
        app.clock.advance(11 * MIN);
        await evaluate();
        expect(rec.events()).toEqual(["opened quiet stripe", "reminded quiet stripe"]);
        const [issue] = await issues();
        expect((await app.call("POST", `/v1/issues/${issue.id}/ack`)).json.state).toBe("acknowledged");
        app.clock.advance(11 * MIN);
        await evaluate();
        expect(rec.events()).toHaveLength(2);
      });
    });
  });
}

describe("a restart", () => {
  test("leaves open silence issues open: neither resolved nor opened again, on a channel with hooks or none", async () => {
    const dbPath = join(tempDir("mailroom-alerts-restart-"), "m.db");
    const raw = {
      channels: [{ name: "stripe" }, { name: "never" }],
      notifiers: [{ name: "ops", kind: "slack", url: "https://hooks.example/ops" }],
      alerts: [{ name: "quiet", kind: "silence", channels: ["stripe", "never"], for: "30m", notify: ["ops"] }],
    };
    const first = recordingNotify();
    const one = createTestApp(raw, { dbPath, notify: first.notify });
    app = one;
    expect((await one.post("stripe", "{}", { "content-type": "application/json" })).status).toBe(200);
    one.clock.advance(31 * MIN);
    await one.runner.tick();
    await one.runner.tick();
    expect(first.events().sort()).toEqual(["opened quiet never", "opened quiet stripe"]);
    const at = one.clock.now();
    await one.close();

    const second = recordingNotify();
    const two = createTestApp(raw, { dbPath, notify: second.notify, clock: createFakeClock(at + MIN) });
    app = two;
    // Through the first `for` after the start and past it: the same two issues, open, and no notice.
    for (let i = 0; i < 8; i++) {
      await two.runner.tick();
      two.clock.advance(5 * MIN);
    }
    const open = (await two.call("GET", "/v1/issues")).json as any[];
    expect(open.map((i) => [i.scope, i.state, i.history.length]).sort()).toEqual([
      ["never", "open", 1],
      ["stripe", "open", 1],
    ]);
    expect(second.events()).toEqual([]);
    // A hook still resolves its channel's issue.
    expect((await two.post("stripe", "{}", { "content-type": "application/json" })).status).toBe(200);
    await two.runner.tick();
    expect(second.events()).toEqual(["resolved quiet stripe"]);
  });
});
