import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sign } from "@octokit/webhooks-methods";
import { createHmac } from "node:crypto";
import { cleanEventType } from "../../src/hooks/event-type";
import { AUTH, startTarget, type Target } from "../helpers/target";
import { sseReader } from "../live/sse";

// Runs on every target (MAILROOM_TEST_TARGET): the executable on SQLite and PostgreSQL too.

const GH = "gh-secret";
const STRIPE = "whsec_stripe";

describe("event_type: each caught hook says what its sender says happened", () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget(
      {
        guards: [
          { name: "gh", kind: "github", secret: GH },
          { name: "st", kind: "stripe", secret: STRIPE },
        ],
        channels: [
          { name: "github", guards: ["gh"] },
          { name: "stripe", guards: ["st"] },
        ],
      },
      {},
    );
    // Starting the executable on a fresh PostgreSQL database takes seconds on a busy machine.
  }, 60_000);
  afterAll(() => t.stop());

  // event_type is an extension field: answered when asked for.
  const hookOf = async (id: string) => (await t.call("GET", `/v1/hooks/${id}?include=extensions`)).json;

  test("a GitHub guard reads X-GitHub-Event and the body's action; a Stripe guard the body's type, wherever it is in the object", async () => {
    const body = '{"issue":{"type":"not this","action":"nor this"},"action":"opened"}';
    const gh = await t.call("POST", "/?channel=github", body, { "x-hub-signature-256": await sign(GH, body), "x-github-event": "issues" });
    expect(gh.status).toBe(200);
    expect((await hookOf(gh.json.id)).event_type).toBe("issues.opened");
    // An event without an action is the header's alone.
    const push = '{"ref":"refs/heads/main"}';
    const pushed = await t.call("POST", "/?channel=github", push, { "x-hub-signature-256": await sign(GH, push), "x-github-event": "push" });
    expect((await hookOf(pushed.json.id)).event_type).toBe("push");

    const event = JSON.stringify({ id: "evt_1", object: "event", data: { object: { type: "card" } }, type: "invoice.paid" });
    const ts = Math.floor(Date.now() / 1000);
    const sig = createHmac("sha256", STRIPE).update(`${ts}.${event}`).digest("hex");
    const st = await t.call("POST", "/?channel=stripe", event, { "stripe-signature": `t=${ts},v1=${sig}`, "content-type": "application/json" });
    expect(st.status).toBe(200);
    expect((await hookOf(st.json.id)).event_type).toBe("invoice.paid");
  });

  test("without a preset guard: well-known headers, then common body fields; empty when unknown", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ "x-github-event": "pull_request" }, '{"action":"opened","number":1}', "pull_request.opened"],
      [{ "x-github-event": "ping" }, '{"zen":"Keep it simple."}', "ping"],
      [{ "x-gitea-event": "pull_request" }, '{"action":"opened"}', "pull_request"],
      [{ "content-type": "application/x-www-form-urlencoded" }, `AccountSid=AC${"0".repeat(32)}&MessageSid=SM1&SmsStatus=received&Body=hi`, "message.received"],
      [{ "content-type": "application/x-www-form-urlencoded" }, `AccountSid=AC${"0".repeat(32)}&CallSid=CA1&CallStatus=ringing`, "call.ringing"],
      [{ "content-type": "application/x-www-form-urlencoded" }, "AccountSid=nope&CallSid=CA1&CallStatus=ringing", ""],
      [{ "x-shopify-topic": "orders/create" }, "{}", "orders/create"],
      [{ "x-gitlab-event": "Push Hook" }, "{}", "Push Hook"],
      [{ "x-event-key": "repo:push" }, '{"type":"ignored"}', "repo:push"],
      [{}, '{"type":"event_callback","event":{"type":"app_mention"}}', "app_mention"],
      [{}, ' {"data":{"id":1},"type":"user.created"}', "user.created"],
      [{}, '{"event":"meeting.started","payload":{}}', "meeting.started"],
      [{}, '{"event_type":"transaction.completed"}', "transaction.completed"],
      [{}, '{"type":12}', ""],
      [{}, "type=form", ""],
      [{}, '{"broken":', ""],
      [{}, '{"type":"tab\\tand \\u00e9"}', "taband é"],
    ];
    for (const [headers, body, expected] of cases) {
      const res = await t.call("POST", "/?channel=auto", body, headers);
      expect(res.status).toBe(200);
      expect({ body, event_type: (await hookOf(res.json.id)).event_type }).toEqual({ body, event_type: expected });
    }
  });

  test("summaries carry it, and the list filters by it, exactly or by a prefix ending in *", async () => {
    for (const type of ["charge.failed", "charge.succeeded", "customer.created"]) {
      expect((await t.call("POST", "/?channel=filtered", JSON.stringify({ type }))).status).toBe(200);
    }
    const summaries = (await t.call("GET", "/v1/hooks?channel=filtered&fields=summary")).json;
    expect(summaries.map((h: { event_type: string }) => h.event_type)).toEqual(["customer.created", "charge.succeeded", "charge.failed"]);
    const types = async (q: string) => (await t.call("GET", `/v1/hooks?${q}&include=extensions`)).json.map((h: { event_type: string }) => h.event_type);
    expect(await types("channel=filtered&event_type=charge.failed")).toEqual(["charge.failed"]);
    expect(await types("channel=filtered&event_type=charge.*")).toEqual(["charge.succeeded", "charge.failed"]);
    expect(await types("channel=filtered&status=pending&event_type=customer.created")).toEqual(["customer.created"]);
    expect(await types("event_type=customer.*&limit=1")).toEqual(["customer.created"]);
    expect(await types("status=pending&event_type=charge.succeeded")).toEqual(["charge.succeeded"]);
    const bad = await t.call("GET", "/v1/hooks?event_type=");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("event_type");
  });

  test("the stream's summaries carry it", async () => {
    const res = await t.fetch("/v1/stream?channel=streamed&fields=summary", { headers: AUTH });
    expect(res.status).toBe(200);
    const stream = sseReader(res);
    await t.call("POST", "/?channel=streamed", '{"type":"message.sent"}');
    const e = await stream.next((x) => x.event === "hook");
    expect(JSON.parse(e.data).event_type).toBe("message.sent");
    await stream.cancel();
  });

  test("metrics count caught hooks by channel and event type", async () => {
    await t.call("POST", "/?channel=counted", '{"type":"a.b"}');
    const text = (await t.fetch("/metrics", { headers: AUTH }).then((r) => r.text())) as string;
    expect(text).toMatch(/mailroom_hooks_caught_by_event_type_total\{channel="counted",event_type="a\.b"\} 1/);
  });
});

test("an event type keeps an emoji's zero-width joiners and loses every other format or control character", () => {
  const coder = "\u{1F469}\u200D\u{1F4BB}"; // woman technologist: one emoji of two joined
  const family = "\u{1F468}\u{1F3FD}\u200D\u{1F469}\uFE0F\u200D\u{1F467}";
  expect(cleanEventType(`deploy ${coder}`)).toBe(`deploy ${coder}`);
  expect(cleanEventType(family)).toBe(family);
  // A joiner that joins no emoji, a zero-width space, a right-to-left override, a C1 control.
  expect(cleanEventType("order\u200D.paid")).toBe("order.paid");
  expect(cleanEventType(`\u200D${coder}\u200D`)).toBe(coder);
  expect(cleanEventType("order\u200b.paid\u202egnp.exe\u009b")).toBe("order.paidgnp.exe");
  // Cut at 128 characters: never inside a character, never on a joiner.
  expect(cleanEventType(`${"a".repeat(127)}${coder}`)).toBe("a".repeat(127));
  expect(cleanEventType(`${"a".repeat(126)}${coder}`)).toBe(`${"a".repeat(126)}\u{1F469}`);
  expect(cleanEventType(`${"a".repeat(200)}\u200D`)).toBe("a".repeat(128));
});
