/**
 * The relay end to end, with real processes on loopback: an upstream executable, a laptop
 * executable (`mailroom listen`) and a receiving app. Waits are for signals (a line printed, a
 * counter reached, an attempt recorded), never for time.
 */
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { hostname } from "node:os";
import { removeTempDirs } from "../helpers/binary";
import { eventually } from "../helpers/instances";
import { allIds, killAll, type Laptop, startApp, startLaptop, startUpstream, stats, type Upstream } from "./support";

setDefaultTimeout(120_000);
afterEach(killAll);
afterAll(removeTempDirs);

const connections = (lap: Laptop) => lap.output().split("relay: connected to").length - 1;

/** Sends `n` hooks with bodies {"n": from + i}, `inFlight` at a time; their ids in order. */
async function sendMany(up: Upstream, n: number, from = 0, inFlight = 20): Promise<string[]> {
  const ids: string[] = new Array(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const res = await up.send(JSON.stringify({ n: from + i }), { "content-type": "application/json" });
      if (res.status !== 200) throw new Error(`hook ${from + i}: ${res.status}`);
      ids[i] = ((await res.json()) as { id: string }).id;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return ids;
}

test("a hook sent upstream reaches the app with the same method, headers and bytes; the laptop keeps upstream's id, request and catch time; upstream shows it handled", async () => {
  const up = await startUpstream();
  const app = startApp();
  const lap = await startLaptop(up.publicUrl, app.url);
  await eventually(async () => lap.output().includes("relay: caught up"), 10_000, "caught up");
  const body = new Uint8Array(4096).map((_, i) => (i * 37 + 11) % 256); // not UTF-8
  const headers = { "content-type": "application/octet-stream", "x-signature": "t=1,v1=abc", "x-custom": "Value With Case" };
  const res = await up.send(body, headers, "PUT", "channel=stripe&x=1&y=%20z");
  const { id } = (await res.json()) as { id: string };
  await eventually(async () => app.received.some((r) => r.id === id), 10_000, "the app got the hook");
  const got = app.received.find((r) => r.id === id)!;
  expect(got.method).toBe("PUT");
  expect(got.body).toEqual(body);
  for (const [k, v] of Object.entries(headers)) expect(got.headers.get(k)).toBe(v);

  const upstream = (await up.call("GET", `/v1/hooks/${id}`)).json;
  const local = (await lap.call("GET", `/v1/hooks/${id}`)).json;
  for (const key of ["id", "channel", "method", "query", "headers", "body", "ip", "created_at"]) expect([key, local[key]]).toEqual([key, upstream[key]]);
  expect(local.query).toBe("channel=stripe&x=1&y=%20z");
  await eventually(async () => (await up.call("GET", `/v1/hooks/${id}`)).json.status === "handled", 10_000, "handled upstream");
  const attempts = (await up.call("GET", `/v1/hooks/${id}/attempts`)).json;
  expect(attempts).toMatchObject([{ handler: "relay:laptop:stripe", outcome: "succeeded", excerpt: `committed by ${hostname()}` }]);

  // Metrics on both sides.
  const upMetrics = (await up.call("GET", "/metrics")).text;
  expect(upMetrics).toContain('mailroom_relay_connected{relay="relay:laptop:stripe"} 1');
  expect(upMetrics).toContain('mailroom_relay_acknowledged_total{relay="relay:laptop:stripe"} 1');
  expect(upMetrics).toContain('mailroom_relay_waiting{relay="relay:laptop:stripe"} 0');
  const lapMetrics = (await lap.call("GET", "/metrics")).text;
  expect(lapMetrics).toContain(`mailroom_listen_connected{upstream="${up.publicUrl}",channel="stripe"} 1`);
  expect(lapMetrics).toContain(`mailroom_listen_acknowledged_total{upstream="${up.publicUrl}",channel="stripe"} 1`);
});

test("a body of upstream's max_body travels whole (the laptop's own max_body as large)", async () => {
  const up = await startUpstream({ maxBody: "24MB" });
  const app = startApp();
  const lap = await startLaptop(up.publicUrl, app.url, undefined, "24MB");
  const body = new Uint8Array(24 * 1024 * 1024).map((_, i) => i % 251);
  const res = await up.send(body, { "content-type": "application/octet-stream" });
  expect(res.status).toBe(200);
  const { id } = (await res.json()) as { id: string };
  await eventually(async () => app.ids().has(id), 30_000, "the app got the big hook");
  expect(app.received.find((r) => r.id === id)!.body).toEqual(body);
  expect((await up.send(new Uint8Array(24 * 1024 * 1024 + 1))).status).toBe(413);
  expect((await lap.call("GET", `/v1/hooks/${id}`)).status).toBe(200);
});

test("the laptop SIGKILLed while hooks flow, 1,000 hooks sent while it is down, then restarted: each is stored once with upstream's id, reaches the app, and is handled upstream", async () => {
  const up = await startUpstream();
  const app = startApp();
  const lap = await startLaptop(up.publicUrl, app.url);
  await eventually(async () => connections(lap) === 1, 10_000, "connected");
  const flowing = sendMany(up, 300, 0, 5);
  await eventually(async () => app.received.length >= 30, 20_000, "hooks flowing to the app");
  await lap.kill();
  const ids = [...(await flowing), ...(await sendMany(up, 1000, 300))];
  expect((await stats(up)).pending).toBeGreaterThan(900);

  const again = await startLaptop(up.publicUrl, app.url, lap.dir);
  await eventually(async () => (await stats(up)).handled === ids.length, 60_000, "every hook handled upstream");
  expect(again.output()).toMatch(/relay: connected to \S+, \d+ waiting/);
  await eventually(async () => again.output().includes("relay: caught up"), 10_000, "caught up");
  // Upstream's heartbeats tell the laptop what still waits: it said 1,000 or so at connecting.
  const listen = (name: string) => async () =>
    new RegExp(`^mailroom_listen_${name}\\{upstream="${up.publicUrl}",channel="stripe"\\} 0$`, "m").test((await again.call("GET", "/metrics")).text);
  await eventually(listen("waiting"), 15_000, "the laptop's waiting metric at 0");
  expect(await listen("lag_seconds")()).toBe(true);
  const stored = await allIds(again);
  expect(stored.length).toBe(ids.length);
  expect(new Set(stored)).toEqual(new Set(ids));
  await eventually(async () => ids.every((id) => app.ids().has(id)), 30_000, "the app got every hook");
});

test("upstream SIGKILLed and restarted: the laptop says it lost the connection, reconnects and resumes", async () => {
  const up = await startUpstream();
  const app = startApp();
  const lap = await startLaptop(up.publicUrl, app.url);
  const first = await sendMany(up, 20);
  await eventually(async () => (await stats(up)).handled === 20, 20_000, "first hooks handled");
  await up.kill();
  await eventually(async () => lap.errors().includes("relay: lost; reconnecting in 2s"), 30_000, "the lost line");
  // Why, in words: a killed upstream closes no connection properly.
  expect(lap.errors()).toContain("relay: lost; reconnecting in 2s (the connection dropped without a word: upstream stopped, or the network failed)");
  const up2 = await startUpstream({ dir: up.dir, ports: up.ports });
  await eventually(async () => connections(lap) === 2, 30_000, "reconnected");
  const second = await sendMany(up2, 20, 20);
  await eventually(async () => (await stats(up2)).handled === 40, 20_000, "later hooks handled");
  expect(new Set(await allIds(lap))).toEqual(new Set([...first, ...second]));
  await eventually(async () => [...first, ...second].every((id) => app.ids().has(id)), 20_000, "the app got every hook");
});

test("upstream stopped with SIGTERM lets its relay go: another laptop with the key connects to it restarted at its first try, no 409", async () => {
  const up = await startUpstream();
  const app = startApp();
  const lap = await startLaptop(up.publicUrl, app.url);
  await eventually(async () => connections(lap) === 1, 10_000, "connected");
  up.proc.kill("SIGTERM");
  await up.proc.exited;
  await lap.kill();
  const up2 = await startUpstream({ dir: up.dir, ports: up.ports });
  // Another laptop (its own data, so its own listener id): the relay is free, not held by the first one.
  const other = await startLaptop(up2.publicUrl, app.url);
  await eventually(async () => connections(other) === 1, 30_000, "the other laptop connected");
  expect(other.errors()).not.toContain("cannot connect");
});

test("the app down for 60 s loses nothing: the laptop's forward retries outlast it", async () => {
  const up = await startUpstream();
  const app = startApp();
  const lap = await startLaptop(up.publicUrl, app.url);
  await app.down();
  const downAt = Date.now();
  const ids = await sendMany(up, 10);
  // Stored on the laptop (acknowledged), whatever the app does.
  await eventually(async () => (await stats(up)).handled === 10, 20_000, "handled upstream");
  // An attempt that failed 60 s or more after the app went down, and the hook still pending: a signal, not a sleep.
  await eventually(
    async () => {
      const attempts = (await lap.call("GET", `/v1/hooks/${ids[0]}/attempts`)).json as { outcome: string; finished_at: string | null }[];
      return attempts.some((a) => a.outcome === "failed" && a.finished_at !== null && Date.parse(a.finished_at) - downAt >= 60_000);
    },
    90_000,
    "a failed forward 60 s after the app went down",
  );
  expect((await stats(lap)).failed).toBe(0);
  app.up();
  await eventually(async () => ids.every((id) => app.ids().has(id)), 30_000, "the app got every hook once back");
  await eventually(async () => (await stats(lap)).handled === 10, 10_000, "handled on the laptop");
});

test("a second listener with the same key and channel gets a clear error naming the first one's host and start time", async () => {
  const up = await startUpstream();
  const app = startApp();
  const lap = await startLaptop(up.publicUrl, app.url);
  await eventually(async () => connections(lap) === 1, 10_000, "first connected");
  const second = await startLaptop(up.publicUrl, app.url);
  const pattern = new RegExp(
    `relay: cannot connect to \\S+ \\(channel stripe\\): 409 channel "stripe" is relayed to another listener already: ${hostname()}, listening since \\d{4}-\\d\\d-\\d\\dT`,
  );
  await eventually(async () => pattern.test(second.errors()), 10_000, "the busy error");
  const [id] = await sendMany(up, 1);
  await eventually(async () => app.ids().has(id!), 10_000, "the first listener still receives");
  expect((await second.call("GET", `/v1/hooks/${id}`)).status).toBe(404);
});

const pgAvailable = (await import("../helpers/postgres")).postgresAvailable();
describe.skipIf(!pgAvailable)("upstream on PostgreSQL with two instances", () => {
  test("a laptop connected to either instance receives every hook once, wherever it was caught", async () => {
    const { freshDatabase } = await import("../helpers/postgres");
    const url = await freshDatabase();
    const a = await startUpstream({ pgUrl: url });
    const b = await startUpstream({ pgUrl: url });
    const app = startApp();
    const lap = await startLaptop(b.publicUrl, app.url);
    await eventually(async () => connections(lap) === 1, 10_000, "connected to b");
    const ids = [...(await sendMany(a, 50)), ...(await sendMany(b, 50, 50))];
    await eventually(async () => (await stats(a)).handled === 100, 30_000, "handled");
    // The same laptop, now connected to the other instance.
    await lap.kill();
    const moved = await startLaptop(a.publicUrl, app.url, lap.dir);
    await eventually(async () => connections(moved) === 1, 10_000, "connected to a");
    ids.push(...(await sendMany(b, 50, 100)), ...(await sendMany(a, 50, 150)));
    await eventually(async () => (await stats(b)).handled === 200, 30_000, "handled after the move");
    const stored = await allIds(moved);
    expect(stored.length).toBe(200);
    expect(new Set(stored)).toEqual(new Set(ids));
  });

  test("an instance SIGKILLed with hooks in flight to its listener: the laptop, reconnected to the other, gets them without waiting for the attempt lease", async () => {
    const { freshDatabase } = await import("../helpers/postgres");
    const url = await freshDatabase();
    // A lease far longer than the test: only the takeover on reconnection can deliver what b held.
    const a = await startUpstream({ pgUrl: url, attemptLease: "10m" });
    const b = await startUpstream({ pgUrl: url, attemptLease: "10m" });
    const app = startApp();
    const lap = await startLaptop(b.publicUrl, app.url);
    await eventually(async () => connections(lap) === 1, 10_000, "connected to b");
    // The laptop stops reading: b sends the hooks and holds their attempts, unacknowledged.
    process.kill(lap.proc.pid, "SIGSTOP");
    const ids = await sendMany(b, 20);
    const relayOutcome = async (id: string) =>
      ((await a.call("GET", `/v1/hooks/${id}/attempts`)).json as { handler: string; outcome: string }[]).find((x) => x.handler.startsWith("relay:"))?.outcome;
    await eventually(async () => (await Promise.all(ids.map(relayOutcome))).every((o) => o === "running"), 10_000, "in flight on b");
    await b.kill();
    await lap.kill();
    const moved = await startLaptop(a.publicUrl, app.url, lap.dir);
    await eventually(async () => (await stats(a)).handled === 20, 30_000, "handled through a");
    expect(new Set(await allIds(moved))).toEqual(new Set(ids));
  });
});
