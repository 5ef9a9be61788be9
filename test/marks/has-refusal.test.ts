/** `has:refusal` (docs/search.md): a hook whose delivery was refused before it was caught. Runs on every target. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sign } from "@octokit/webhooks-methods";
import { createHmac } from "node:crypto";
import { startTarget, type Target } from "../helpers/target";

const GH = "gh-secret";
const STRIPE = "whsec_stripe";

describe("has:refusal finds the hooks whose same delivery was refused first", () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({
      guards: [
        { name: "gh", kind: "github", secret: GH },
        { name: "st", kind: "stripe", secret: STRIPE },
      ],
      channels: [{ name: "github", guards: ["gh"] }, { name: "stripe", guards: ["st"] }, { name: "open" }],
    });
    // Starting the executable on a fresh PostgreSQL database takes seconds on a busy machine.
  }, 60_000);
  afterAll(() => t.stop());

  const github = async (delivery: string, body: string, secret = GH) =>
    t.call("POST", "/?channel=github", body, {
      "x-hub-signature-256": await sign(secret, body),
      "x-github-event": "issues",
      "x-github-delivery": delivery,
      "content-type": "application/json",
    });
  const stripe = (body: string, secret = STRIPE) => {
    const ts = Math.floor(Date.now() / 1000);
    const sig = createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex");
    return t.call("POST", "/?channel=stripe", body, { "stripe-signature": `t=${ts},v1=${sig}`, "content-type": "application/json" });
  };
  const ids = async (q: string): Promise<string[]> => {
    const r = await t.call("GET", `/v1/hooks?limit=100&q=${encodeURIComponent(q)}`);
    expect({ q, status: r.status }).toEqual({ q, status: 200 });
    return (r.json as { id: string }[]).map((h) => h.id).sort();
  };
  /** The marks are made after the catch: waits until the query answers `want` (or fails saying what it answered). */
  const until = async (q: string, want: string[]): Promise<void> => {
    const deadline = Date.now() + 20_000;
    let got = await ids(q);
    while (JSON.stringify(got) !== JSON.stringify([...want].sort()) && Date.now() < deadline) {
      await Bun.sleep(50);
      got = await ids(q);
    }
    expect({ q, got }).toEqual({ q, got: [...want].sort() });
  };

  test("a GitHub delivery refused for its signature, then caught, is found; other hooks are not", async () => {
    const body = '{"action":"opened","issue":{"number":7}}';
    const delivery = "72d3162e-cc78-11e3-81ab-4c9367dc0958";
    expect((await github(delivery, body, "wrong-secret")).status).toBe(401);
    const caught = await github(delivery, body);
    expect(caught.status).toBe(200);
    // Never refused: another delivery of the same channel, and the same delivery id on a channel without refusals.
    const other = await github("0b989ba4-242f-11e5-81e1-c7b6966d2516", body);
    expect(other.status).toBe(200);
    const open = await t.call("POST", "/?channel=open", body, { "x-github-delivery": delivery, "content-type": "application/json" });
    expect(open.status).toBe(200);
    // A request refused without a delivery id marks nothing.
    expect((await t.call("POST", "/?channel=github", body, { "x-hub-signature-256": "sha256=00", "content-type": "application/json" })).status).toBe(401);
    const plain = await github("", body);
    expect(plain.status).toBe(200);

    await until("has:refusal", [caught.json.id]);
    expect(await ids("-has:refusal")).toEqual([other.json.id, open.json.id, plain.json.id].sort());
    expect(await ids("NOT has:refusal channel:github")).toEqual([other.json.id, plain.json.id].sort());
    // With words, OR and the other terms.
    expect(await ids("has:refusal opened")).toEqual([caught.json.id]);
    expect(await ids("has:refusal OR channel:open")).toEqual([caught.json.id, open.json.id].sort());
    expect(await ids("has:refusal status:failed")).toEqual([]);
    // The grammar's other value of has: still means attempts.
    expect(await ids("has:attempts has:refusal")).toEqual([]);
  });

  test("a Stripe event refused, then caught, is found by its event id", async () => {
    const event = JSON.stringify({ id: "evt_1RefusedFirst", type: "invoice.paid", data: { object: {} } });
    expect((await stripe(event, "whsec_wrong")).status).toBe(401);
    const caught = await stripe(event);
    expect(caught.status).toBe(200);
    const fresh = await stripe(JSON.stringify({ id: "evt_1NeverRefused", type: "invoice.paid", data: { object: {} } }));
    expect(fresh.status).toBe(200);
    await until("has:refusal channel:stripe", [caught.json.id]);
    expect(await ids("-has:refusal channel:stripe")).toEqual([fresh.json.id]);
  });
});
