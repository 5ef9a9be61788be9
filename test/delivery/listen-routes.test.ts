/**
 * `mailroom listen` with several routes, with real processes on loopback: an upstream executable,
 * a laptop executable (`listen --forward PATTERN=URL ...`) and an app per route in this process.
 * Waits are for signals (a line printed, requests arrived, a status reached), never for time.
 */
import { afterAll, afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { removeTempDirs } from "../helpers/binary";
import { eventually } from "../helpers/instances";
import { killAll, startApp, startLaptop, startUpstream } from "../relay/support";

setDefaultTimeout(120_000);
afterEach(killAll);
afterAll(removeTempDirs);

test("listen with two routes delivers each hook to the first route whose event type pattern matches it, once", async () => {
  const up = await startUpstream();
  const billing = startApp();
  const rest = startApp();
  const lap = await startLaptop(up.publicUrl, ["--forward", `invoice.*=${billing.url}`, "--forward", `*=${rest.url}`]);
  expect(lap.output()).toContain(`forward:  channel stripe, invoice.* -> ${billing.url}`);
  await eventually(async () => lap.output().includes("relay: caught up"), 10_000, "caught up");

  const types = ["invoice.paid", "customer.created", "invoice.created", "", "INVOICE.finalized"];
  const ids: string[] = [];
  for (const type of types) {
    const res = await up.send(JSON.stringify(type ? { type, n: ids.length } : { n: ids.length }), { "content-type": "application/json" });
    expect(res.status).toBe(200);
    ids.push(((await res.json()) as { id: string }).id);
  }
  // Every hook ends handled on the laptop: each route either took it or passed it over.
  for (const id of ids) await eventually(async () => (await lap.call("GET", `/v1/hooks/${id}`)).json.status === "handled", 20_000, `${id} handled`);
  // The event type term ignores case, as the search's does: INVOICE.finalized is an invoice.
  const wanted = [0, 2, 4].map((i) => ids[i]!);
  expect(billing.received.map((r) => r.id).sort()).toEqual(wanted.sort());
  expect(rest.received.map((r) => r.id).sort()).toEqual([1, 3].map((i) => ids[i]!).sort());
  for (const [i, id] of ids.entries()) {
    const attempts = ((await lap.call("GET", `/v1/hooks/${id}/attempts`)).json as { handler: string; outcome: string }[]).map((a) => [a.handler, a.outcome]);
    const first = wanted.includes(id);
    expect({ i, attempts: attempts.sort() }).toEqual({
      i,
      attempts: [
        ["forward-to", first ? "succeeded" : "skipped"],
        ["forward-to-2", first ? "skipped" : "succeeded"],
      ],
    });
  }
});
