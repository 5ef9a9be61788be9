/**
 * The Hook resource exactly as the interface document has it ("No other properties are allowed on
 * a Hook"), and Mailroom's extension fields only where a client asks: `include=extensions`.
 * Runs on every target (MAILROOM_TEST_TARGET).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { specViolation } from "../helpers/spec";
import { AUTH, startTarget, type Target } from "../helpers/target";

const HOOK_KEYS = ["body", "channel", "content_type", "created_at", "events", "headers", "id", "ip", "method", "payload", "query", "status"];

describe("include=extensions", () => {
  let t: Target;
  let id: string;
  beforeAll(async () => {
    t = await startTarget();
    const res = await t.post("gh", '{"action":"opened","number":7}', { "content-type": "application/json", "x-github-event": "pull_request" });
    id = ((await res.json()) as { id: string }).id;
  }, 60_000);
  afterAll(() => t.stop());

  test("GetHook and ListHooks answer the spec's Hook without it, and add event_type with it", async () => {
    const plain = await t.call("GET", `/v1/hooks/${id}`);
    expect(Object.keys(plain.json).sort()).toEqual(HOOK_KEYS);
    const listed = await t.call("GET", "/v1/hooks?channel=gh");
    expect(listed.json.map((h: object) => Object.keys(h).sort())).toEqual([HOOK_KEYS]);

    // `contract` (docs/contracts.md) comes once the hook's check ran, after its catch: not waited for here.
    const withoutContract = ({ contract: _, ...rest }: Record<string, unknown>) => rest;
    const extended = await t.call("GET", `/v1/hooks/${id}?include=extensions`);
    expect(withoutContract(extended.json)).toEqual({ ...plain.json, event_type: "pull_request.opened", verified: false });
    const extendedList = await t.call("GET", "/v1/hooks?channel=gh&include=extensions");
    expect(extendedList.json.map(withoutContract)).toEqual([{ ...listed.json[0], event_type: "pull_request.opened", verified: false }]);
    // With the other filters and a search as without it.
    expect((await t.call("GET", "/v1/hooks?q=opened&status=pending&include=extensions&limit=1")).json.map((h: { id: string }) => h.id)).toEqual([id]);
  });

  test("the transitions answer the spec's Hook", async () => {
    const discarded = await t.call("POST", `/v1/hooks/${id}/discard`);
    expect([discarded.status, Object.keys(discarded.json).sort()]).toEqual([200, [...HOOK_KEYS, "finalized_at"].sort()]);
    const retried = await t.call("POST", `/v1/hooks/${id}/retry`);
    expect([retried.status, Object.keys(retried.json).sort()]).toEqual([200, HOOK_KEYS]);
    const processed = await t.call("POST", `/v1/hooks/${id}/process`);
    expect([processed.status, "event_type" in processed.json]).toEqual([200, false]);
  });

  test("an unknown include, or one on an operation without it, is a 400 in the error body", async () => {
    for (const path of [`/v1/hooks/${id}?include=everything`, "/v1/hooks?include=event_type", "/v1/hooks?include="]) {
      const res = await t.call("GET", path);
      expect({ path, status: res.status, code: res.json.code, details: res.json.details }).toEqual({ path, status: 400, code: 3, details: [] });
      expect(res.json.message).toContain("include: must be extensions");
    }
    const transition = await t.call("POST", `/v1/hooks/${id}/retry?include=extensions`);
    expect([transition.status, transition.json.code]).toEqual([400, 3]);
  });

  test("summaries and export lines keep the event type: they are extensions already", async () => {
    const [summary] = (await t.call("GET", "/v1/hooks?channel=gh&fields=summary")).json;
    expect(summary.event_type).toBe("pull_request.opened");
    const res = await t.fetch(`/v1/hooks/export?id=${id}`, { headers: AUTH });
    expect(JSON.parse((await res.text()).trim()).event_type).toBe("pull_request.opened");
  });
});

test("the suites' check of every answer refuses a Hook or Channel with a property the document lacks", () => {
  const hook = {
    id: "01jd3q9x0c2m8t6v4r2k8p1w5z",
    channel: "gh",
    status: "pending",
    method: "POST",
    query: "channel=gh",
    headers: { "content-type": "application/json" },
    content_type: "application/json",
    body: "e30=",
    payload: {},
    ip: "127.0.0.1",
    created_at: "2026-11-26T10:00:00.123Z",
    events: [],
  };
  const channel = { name: "gh", paused: false, stats: { pending: "1", handled: "0", failed: "0", discarded: "0" }, guards: [] };
  expect(specViolation("GET", `/v1/hooks/${hook.id}`, JSON.stringify(hook))).toBeUndefined();
  expect(specViolation("GET", `/v1/hooks/${hook.id}`, JSON.stringify({ ...hook, event_type: "push" }))).toContain("(event_type)");
  expect(specViolation("GET", "/v1/hooks?limit=5", JSON.stringify([{ ...hook, source_id: hook.id }]))).toContain("(source_id)");
  expect(specViolation("POST", `/v1/hooks/${hook.id}/discard`, JSON.stringify({ ...hook, event_type: "" }))).toContain("(event_type)");
  expect(specViolation("POST", "/v1/channels/gh/pause", JSON.stringify({ ...channel, extra: 1 }))).toContain("(extra)");
  expect(specViolation("GET", "/v1/channels", JSON.stringify([{ ...channel, stats: { ...channel.stats, total: "1" } }]))).toContain("(total)");
  expect(
    specViolation(
      "GET",
      `/v1/hooks/${hook.id}`,
      JSON.stringify({ ...hook, events: [{ kind: "handled", actor: "", message: "", created_at: hook.created_at, by: 1 }] }),
    ),
  ).toContain("(by)");
  expect(specViolation("DELETE", `/v1/hooks/${hook.id}`, '{"deleted":true}')).toContain("(deleted)");
  // What the document does not describe, or a client asked beyond it, is not held to it.
  expect(specViolation("GET", `/v1/hooks/${hook.id}?include=extensions`, JSON.stringify({ ...hook, event_type: "push" }))).toBeUndefined();
  expect(specViolation("GET", "/v1/hooks?fields=summary", "[{}]")).toBeUndefined();
  expect(specViolation("GET", `/v1/hooks/${hook.id}/attempts`, "[{}]")).toBeUndefined();
});
