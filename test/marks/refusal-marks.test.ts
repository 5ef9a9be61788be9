/** has:refusal across a restart, and the look-back of a channel's refusals (marks/, docs/search.md). */
import { afterAll, expect, test } from "bun:test";
import { sign } from "@octokit/webhooks-methods";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REFUSAL_LOOKBACK_MS } from "../../src/marks";
import { createTestApp, type TestApp } from "../helpers/app";

const GH = "gh-secret";
const CONFIG = { guards: [{ name: "gh", kind: "github", secret: GH }], channels: [{ name: "github", guards: ["gh"] }] };
const dir = mkdtempSync(join(tmpdir(), "mailroom-marks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const github = async (t: TestApp, delivery: string, secret = GH) => {
  const body = `{"action":"opened","delivery":"${delivery}"}`;
  return t.call("POST", "/?channel=github", body, {
    "x-hub-signature-256": await sign(secret, body),
    "x-github-event": "issues",
    "x-github-delivery": delivery,
    "content-type": "application/json",
  });
};
const found = async (t: TestApp, q: string): Promise<string[]> =>
  ((await t.call("GET", `/v1/hooks?limit=100&q=${encodeURIComponent(q)}`)).json as { id: string }[]).map((h) => h.id).sort();
/** Marks are made after the catch: waits until has:refusal answers `want`. */
async function until(t: TestApp, want: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  let got = await found(t, "has:refusal");
  while (JSON.stringify(got) !== JSON.stringify([...want].sort()) && Date.now() < deadline) {
    await Bun.sleep(10);
    got = await found(t, "has:refusal");
  }
  expect(got).toEqual([...want].sort());
}

test("a delivery refused before a restart and caught after it is found; one refused longer ago than the look-back is not", async () => {
  const path = join(dir, "mailroom.db");
  const first = createTestApp(CONFIG, { dbPath: path });
  expect((await github(first, "before-restart", "wrong")).status).toBe(401);
  // Listing the refusals writes those still buffered.
  expect((await first.call("GET", "/v1/refusals")).json.length).toBe(1);
  await first.close();

  const t = createTestApp(CONFIG, { dbPath: path });
  const again = await github(t, "before-restart");
  expect(again.status).toBe(200);
  await until(t, [again.json.id]);

  // Refused, then tried again only after the look-back: not looked up (the channel counts as not refused lately).
  expect((await github(t, "long-ago", "wrong")).status).toBe(401);
  t.clock.advance(REFUSAL_LOOKBACK_MS + 60_000);
  const late = await github(t, "long-ago");
  expect(late.status).toBe(200);
  // A refusal now opens the look-up again; batches are looked up in order, so once this one is
  // found the late one was judged.
  expect((await github(t, "now", "wrong")).status).toBe(401);
  const now = await github(t, "now");
  await until(t, [again.json.id, now.json.id]);
  expect(await found(t, "-has:refusal")).toEqual([late.json.id]);
  t.close();
});
