/**
 * Relay keys made and revoked while upstream runs: a new key's relay gets the channel's pending
 * hooks at once (as it would after a restart), and a revoked key's deliveries end, with the reason
 * in their attempts, so their hooks settle by the channel's other handlers instead of waiting.
 */
import { afterEach, expect, test } from "bun:test";
import { unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, TOKEN } from "../helpers/app";
import { eventually } from "../helpers/instances";
import { dashboardApp } from "../dashboard/support";
import { receivers } from "../runner/receiver";
import { forward } from "../runner/setup";

const receiver = receivers();
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

type Attempt = { handler: string; outcome: string; error: string };
type App = Awaited<ReturnType<typeof dashboardApp>> | ReturnType<typeof createTestApp>;
const attempts = async (app: App, id: string): Promise<Attempt[]> => (await app.call("GET", `/v1/hooks/${id}/attempts`)).json;
const relayAttempts = async (app: App, id: string) => (await attempts(app, id)).filter((a) => a.handler.startsWith("relay:"));
const status = async (app: App, id: string): Promise<string> => (await app.call("GET", `/v1/hooks/${id}`)).json.status;

function config(appUrl: string) {
  return { handlers: [forward("app", appUrl)], channels: [{ name: "stripe", handlers: ["app"] }, { name: "solo" }] };
}

/** A data file in the temp directory, removed after the test. */
function dataFile(): string {
  const path = join(tmpdir(), `mailroom-relay-keys-${crypto.randomUUID()}.db`);
  cleanup.push(() => {
    // The search index's own file (and its WAL) beside the data file's.
    for (const suffix of ["", "-wal", "-shm", "-search", "-search-wal", "-search-shm"]) {
      try {
        unlinkSync(path + suffix);
      } catch {}
    }
  });
  return path;
}

test("a relay key created at run time relays the pending hooks of its channels at once, as after a restart, and a restart adds no second delivery", async () => {
  const target = receiver();
  const dbPath = dataFile();
  const app = await dashboardApp({ ...config(target.url), storage: { path: dbPath } });
  let closed = false;
  cleanup.push(() => closed || app.close());
  await app.runner.tick(); // the runner has started, as a serving Mailroom's has
  // Caught before the key exists: "solo" has no handler, so its hook waits for one.
  const [early] = await app.catchHooks("solo", 1);
  expect(await relayAttempts(app, early!)).toEqual([]);

  const created = await app.call("POST", "/ui/api/api-keys", { label: "laptop", scopes: ["relay"], channels: ["solo"] }, app.admin);
  expect(created.status).toBe(200);
  await eventually(async () => (await relayAttempts(app, early!)).length === 1, 5000, "the pending hook's relay delivery");
  expect(await relayAttempts(app, early!)).toMatchObject([{ handler: "relay:laptop:solo", outcome: "queued" }]);

  // Restarted on the same data: the delivery is still the one, nothing queued twice.
  await app.close();
  closed = true;
  const again = createTestApp({ ...config(target.url), storage: { path: dbPath } });
  cleanup.push(() => again.close());
  await again.ready; // the keys are read before the runner starts, as `serve` does
  await again.runner.tick();
  expect(await relayAttempts(again, early!)).toMatchObject([{ handler: "relay:laptop:solo", outcome: "queued" }]);
});

test("revoking a relay key ends its deliveries with the reason: hooks settle by the channel's other handlers, a hook only it had stays pending", async () => {
  const target = receiver();
  const app = await dashboardApp(config(target.url));
  cleanup.push(() => app.close());
  const created = await app.call("POST", "/ui/api/api-keys", { label: "laptop", scopes: ["relay"], channels: ["stripe", "solo"] }, app.admin);
  expect(created.status).toBe(200);
  // The relay is attached once the keys are read again: a hook caught then gets its delivery.
  let relayed = "";
  await eventually(
    async () => {
      relayed = (await app.catchHooks("stripe", 1))[0]!;
      return (await relayAttempts(app, relayed)).length === 1;
    },
    5000,
    "the relay attached",
  );
  const [only] = await app.catchHooks("solo", 1);
  await app.runner.tick();
  // The app has it; the relay waits for a laptop that never comes.
  expect(await status(app, relayed)).toBe("pending");
  expect((await attempts(app, relayed)).map((a) => [a.handler, a.outcome])).toEqual([
    ["app", "succeeded"],
    ["relay:laptop:stripe", "queued"],
  ]);

  expect((await app.call("DELETE", "/ui/api/api-keys/laptop", undefined, app.admin)).status).toBe(200);
  await eventually(async () => (await status(app, relayed)) === "handled", 5000, "handled once the relay's delivery ended");
  expect(await relayAttempts(app, relayed)).toMatchObject([{ handler: "relay:laptop:stripe", outcome: "cancelled", error: 'relay key "laptop" was revoked' }]);
  // No other handler: pending, as hooks of a channel without handlers are, and processing it is allowed.
  expect(await relayAttempts(app, only!)).toMatchObject([{ handler: "relay:laptop:solo", outcome: "cancelled", error: 'relay key "laptop" was revoked' }]);
  expect(await status(app, only!)).toBe("pending");
  expect((await app.call("POST", `/v1/hooks/${only}/process`)).status).toBe(200);
  // Hooks caught from now on get no relay delivery.
  const [later] = await app.catchHooks("stripe", 1);
  await app.runner.tick();
  expect(await status(app, later!)).toBe("handled");
  expect(await relayAttempts(app, later!)).toEqual([]);
});

test("a channel taken off a configured relay key while Mailroom was stopped: its deliveries end at the next start", async () => {
  const target = receiver();
  const dbPath = dataFile();
  const key = (channels: string[]) => ({ label: "laptop", token: "relay-token-0123456789", scopes: ["relay"], channels });
  const first = createTestApp({ ...config(target.url), storage: { path: dbPath }, api_keys: [{ label: "test", token: TOKEN }, key(["stripe", "solo"])] });
  await first.ready;
  const [id] = await first.catchHooks("solo", 1);
  expect(await relayAttempts(first, id!)).toMatchObject([{ handler: "relay:laptop:solo", outcome: "queued" }]);
  await first.close();

  const again = createTestApp({ ...config(target.url), storage: { path: dbPath }, api_keys: [{ label: "test", token: TOKEN }, key(["stripe"])] });
  cleanup.push(() => again.close());
  await again.ready;
  await again.runner.tick();
  expect(await relayAttempts(again, id!)).toMatchObject([
    { outcome: "cancelled", error: "relay:laptop:solo is no longer relayed (its key was removed or no longer names the channel)" },
  ]);
});
