import { expect, test } from "bun:test";
import type { CaughtRow } from "../../src/hooks/changes";
import { systemClock } from "../../src/lib/clock";
import { silentLog } from "../../src/lib/log";
import { createRefusalMarks, type MarkStore } from "../../src/marks";

/**
 * Another instance streams its refusal before its write commits: a hook caught right after that
 * refusal was looked up before the refusal's row was there. It is looked up once more, a second
 * later, and marked then.
 */
test("a delivery whose refusal was streamed before its row was written is marked on the second look", async () => {
  let written = false;
  const marked: string[] = [];
  const store: MarkStore = {
    async mark(ids) {
      marked.push(...ids);
      return ids.length;
    },
    async marked() {
      return new Set();
    },
    async refusedDeliveries(_channel, ids) {
      // The refusal's row commits only after the first look.
      const found = written ? new Set(ids.filter((id) => id === "github:d-1")) : new Set<string>();
      written = true;
      return found;
    },
    async refusedChannels() {
      return new Map();
    },
  };
  const marks = createRefusalMarks({
    store,
    deliveryId: (_c, headers) => (headers["x-github-delivery"] ? `github:${headers["x-github-delivery"]}` : undefined),
    flushRefusals: async () => {},
    clock: systemClock,
    log: silentLog,
  });
  marks.refused("github", Date.now());
  const row = (id: string, delivery: string): CaughtRow => ({
    id,
    channel: "github",
    method: "POST",
    query: "channel=github",
    headers: JSON.stringify({ "X-GitHub-Delivery": delivery }),
    body: new Uint8Array(),
    ip: "127.0.0.1",
    createdAt: Date.now(),
    eventType: "",
  });
  marks.caught([row("01A", "d-1"), row("01B", "d-2")]);
  await marks.settled();
  expect(marked).toEqual(["01A"]);
});
