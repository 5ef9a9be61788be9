/**
 * The change sink as the services see it (db/caller-filter.ts): whoever's request reported a change,
 * its subscribers run with no caller's limits, one failing subscriber neither stops the others nor
 * reaches the reporter, and an unsubscribed one hears nothing more.
 */
import { expect, test } from "bun:test";
import { filteredByCaller } from "../../src/db/caller-filter";
import type { Storage } from "../../src/db/storage";
import { createChangeSink } from "../../src/hooks/changes";
import { asCaller, callerChannels } from "../../src/lib/caller";

function filtered() {
  const raw = createChangeSink();
  // The stores are not read here: each of their methods throws.
  const unused = new Proxy({}, { get: () => () => Promise.reject(new Error("not read by this test")) });
  const stores = ["hooks", "search", "refusals", "issues", "bulkJobs", "tags", "reads", "transfer"];
  const storage = Object.fromEntries([...stores.map((s) => [s, unused]), ["changes", raw]]) as unknown as Storage;
  return { raw, changes: filteredByCaller(storage).changes };
}

test("subscribers run unlimited, in order, each guarded; a failure is logged once and an unsubscribed one hears nothing", () => {
  const { raw, changes } = filtered();
  const errors: string[] = [];
  changes.setLog({ error: (message, fields) => void errors.push(`${message}: ${fields?.change}`) });
  const heard: string[] = [];
  changes.subscribe((c) => void heard.push(`first ${c.kind} ${JSON.stringify(callerChannels() ?? null)}`));
  changes.subscribe(() => {
    throw new Error("broken");
  });
  const off = changes.subscribe((c) => void heard.push(`third ${c.kind} ${JSON.stringify(callerChannels() ?? null)}`));
  // Reported from a limited caller's request: the subscribers still see everything.
  asCaller(["stripe-*"], () => raw.emit({ kind: "channel", name: "shop" }));
  expect(heard).toEqual(["first channel null", "third channel null"]);
  expect(errors).toEqual(["a change subscriber failed: channel"]);
  off();
  changes.emit({ kind: "channel", name: "shop" });
  expect(heard).toEqual(["first channel null", "third channel null", "first channel null"]);
});
