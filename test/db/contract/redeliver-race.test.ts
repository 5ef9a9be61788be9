/**
 * RedeliverHook when a delivery settles the hook between the service's read and its write (on
 * PostgreSQL another connection can; here the runner's cancel() stands in for it, settling the hook
 * past the service's transaction): the hook is read again and redelivered, not answered 409.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createPgHookStore } from "../../../src/db/pg/hook-store";
import { createHookService } from "../../../src/hooks/service";
import { createHookStore } from "../../../src/db/sqlite/hook-store";
import type { NewHook } from "../../../src/hooks/store";
import type { HookRunner } from "../../../src/hooks/runner";
import { closeBackends, contractBackends } from "./backends";

afterEach(closeBackends);

const ID = "01jd0000000000000000000001";
const caught: NewHook = {
  id: ID,
  channel: "gh",
  method: "POST",
  query: "",
  headers: "{}",
  body: new Uint8Array([1]),
  ip: "127.0.0.1",
  createdAt: 1000,
  eventType: "",
};

for (const backend of contractBackends((db) => createHookStore(db), createPgHookStore)) {
  describe(`redeliver on ${backend.name}`, () => {
    test("a hook settled by its delivery meanwhile is read again and redelivered", async () => {
      const b = await backend.open();
      await b.transaction(() => b.store.insertHooks([caught], () => []));
      let settles = 1;
      const runner: HookRunner = {
        queueCaught: async () => false,
        queueRetry: async () => {},
        queueRetries: async () => {},
        queueRedelivery: async () => {},
        // The delivery in flight settles the hook once, outside this transaction where it can.
        cancel: async () => {
          if (settles-- > 0) await b.query(`UPDATE hooks SET status = 'handled', finalized_at = 2000 WHERE id = '${ID}'`);
        },
        cancelChannel: async () => {},
        hasHandlers: () => true,
        notify: () => {},
      };
      const service = createHookService({ store: b.store, clock: { now: () => 3000 }, runner });
      const hook = await service.redeliver(ID, "api:test");
      expect(hook.status).toBe("pending");
      expect(hook.events.filter((e) => e.kind === "retried").map((e) => e.message)).toEqual(["redelivered to every handler of the channel"]);
      expect(settles).toBe(-1);
    });
  });
}
