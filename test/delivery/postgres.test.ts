/**
 * Delivery controls on PostgreSQL, in process with the fake clock: a paused handler stays paused
 * across a restart (a new app on the same database), and another instance sharing the database
 * holds the handler's attempts once it hears of the pause (the change feed); a forward added in the
 * dashboard keeps its when, rate and breaker across a restart.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { migratePostgres } from "../../src/db/pg/migrate";
import { openPostgres } from "../../src/db/pg/open";
import { createPostgresStorage } from "../../src/db/pg/storage";
import { silentLog } from "../../src/lib/log";
import { buildConfig } from "../../src/load-config";
import { createMetrics } from "../../src/metrics";
import { createRunner } from "../../src/runner";
import { httpClient, TOKEN } from "../helpers/client";
import { createFakeClock } from "../helpers/clock";
import { eventually } from "../helpers/instances";
import { freshDatabase, postgresAvailable } from "../helpers/postgres";
import { receivers } from "../runner/receiver";
import { forward } from "../runner/setup";

const receiver = receivers();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A Mailroom on the PostgreSQL database at `url`, as createTestApp makes one on SQLite. */
async function pgApp(url: string, raw: Record<string, unknown>, env: Record<string, string> = {}) {
  const config = buildConfig({ api_keys: [{ label: "test", token: TOKEN }], ...raw, storage: { url } }, env);
  const clock = createFakeClock();
  const sql = await openPostgres(url, { max: 4 });
  await migratePostgres(sql);
  const storage = await createPostgresStorage(sql, { instance: crypto.randomUUID(), leaseMs: config.storage.attempt_lease, log: silentLog });
  const metrics = createMetrics(config);
  const runner = createRunner({ config, queue: storage.attempts, clock, log: silentLog, random: () => 0.5, metrics });
  const built = createApp({ config, storage, clock, log: silentLog, runner, metrics });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await built.close();
    await storage.close();
  };
  closers.push(close);
  const client = httpClient((path, init) => built.app.handle(new Request(`http://localhost${path}`, init)));
  return { ...built, ...client, runner, clock, close };
}

describe.skipIf(!postgresAvailable())("delivery controls on PostgreSQL", () => {
  test("a restart keeps a paused handler paused; resume drains what waited", async () => {
    const target = receiver();
    const url = await freshDatabase();
    const raw = { handlers: [forward("app", target.url)], channels: [{ name: "c", handlers: ["app"] }] };
    const first = await pgApp(url, raw);
    expect((await first.call("POST", "/v1/handlers/app/pause")).json.state).toBe("paused");
    const ids = await first.catchHooks("c", 2);
    await first.runner.tick();
    expect(target.received).toHaveLength(0);
    await first.close();

    const second = await pgApp(url, raw);
    await second.runner.tick();
    expect(target.received).toHaveLength(0);
    expect((await second.call("GET", "/v1/handlers/app")).json).toMatchObject({ state: "paused", waiting: 2 });
    await second.call("POST", "/v1/handlers/app/resume");
    await second.runner.tick();
    expect(target.received).toHaveLength(2);
    for (const id of ids) expect((await second.call("GET", `/v1/hooks/${id}`)).json.status).toBe("handled");
  });

  test("a pause on one instance holds the handler on another once the change feed tells it; resume there lets it run", async () => {
    const target = receiver();
    const url = await freshDatabase();
    const raw = { handlers: [forward("app", target.url)], channels: [{ name: "c", handlers: ["app"] }] };
    const a = await pgApp(url, raw);
    const b = await pgApp(url, raw);
    await b.call("GET", "/v1/handlers"); // b's start-up reads are done
    await a.call("POST", "/v1/handlers/app/pause");
    await eventually(async () => (await b.call("GET", "/v1/handlers/app")).json.state === "paused", 5000, "b reads the pause");
    await b.catchHooks("c", 2);
    await b.runner.tick();
    expect(target.received).toHaveLength(0);

    await a.call("POST", "/v1/handlers/app/resume");
    await eventually(async () => (await b.call("GET", "/v1/handlers/app")).json.state === "active", 5000, "b reads the resume");
    await b.runner.tick();
    expect(target.received).toHaveLength(2);
  });

  test("a dashboard forward's when, rate and breaker are stored, survive a restart and apply", async () => {
    const target = receiver({ status: 500 });
    const url = await freshDatabase();
    const raw = { users: [{ email: "ada@example.com", role: "admin", password_env: "ADA" }], channels: [{ name: "c" }] };
    const env = { ADA: "correct horse battery" };
    const first = await pgApp(url, raw, env);
    const origin = { origin: "http://localhost" };
    const session = await first.call("POST", "/ui/api/session", { email: "ada@example.com", password: env.ADA }, origin);
    const cookie = /^(mailroom_session=[^;]+)/.exec(session.headers.get("set-cookie") ?? "")![1]!;
    const body = { name: "billing", url: target.url, when: "type:invoice.*", rate: "10/s", breaker: { failures: 2 }, backoff: { initial: "1h" } };
    const added = await first.call("POST", "/ui/api/channels/c/handlers", body, { cookie, ...origin });
    expect(added.status).toBe(200);
    await first.close();

    const second = await pgApp(url, raw, env);
    expect((await second.call("GET", "/v1/handlers/billing")).json).toMatchObject({ rate: "10/s", breaker: { threshold: 2, cool_down: "30000ms" } });
    const json = { "content-type": "application/json" };
    const caught = async (type: string) => ((await (await second.post("c", JSON.stringify({ type }), json)).json()) as { id: string }).id;
    const [a, b, other] = [await caught("invoice.paid"), await caught("invoice.created"), await caught("charge.refunded")];
    await second.runner.tick();
    expect(target.received).toHaveLength(1); // paced: one start now, the next 100 ms later
    second.clock.advance(100);
    await second.runner.tick();
    second.clock.advance(100);
    await second.runner.tick();
    expect(target.received.map((r) => JSON.parse(new TextDecoder().decode(r.body)).type)).toEqual(["invoice.paid", "invoice.created"]);
    for (const id of [a, b]) expect((await second.call("GET", `/v1/hooks/${id}`)).json.status).toBe("pending");
    // Two failures in a row opened the breaker: the hook it does not want waits behind it, then ends skipped.
    expect((await second.call("GET", "/v1/handlers/billing")).json.state).toBe("breaker_open");
    second.clock.advance(30_000);
    await second.runner.tick();
    expect((await second.call("GET", `/v1/hooks/${other}/attempts`)).json.map((x: { outcome: string }) => x.outcome)).toEqual(["skipped"]);
    expect((await second.call("GET", `/v1/hooks/${other}`)).json.status).toBe("handled");
    expect(target.received).toHaveLength(2);
  });
});
