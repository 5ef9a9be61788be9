import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
import { createTranslate } from "../../src/translate";
import { silentLog } from "../../src/lib/log";
import { CUSTOMER, basic, translateConfig } from "./setup";
import { sqliteDialect } from "../../src/db/stores/dialect";
import { createTranslateStore } from "../../src/db/stores/translate";

const T0 = Date.parse("2026-01-01T00:00:00Z");
const simulator = { enabled: true, accept_after: "2s", complete_after: "5s" };

/** The app's own simulator worker, built from the same config and database. */
function setup(dbPath?: string) {
  const app = createTestApp({ translate: translateConfig({ simulator }) }, { dbPath });
  const { worker } = createTranslate({ config: app.config, store: createTranslateStore(sqliteDialect(app.db.$client)), clock: app.clock, log: silentLog });
  const get = async (id: number) => (await app.call("GET", `/v1/orders/${id}`, undefined, basic(CUSTOMER))).json;
  const place = (body: object) => app.call("POST", "/v1/translate", { source_language: "en", target_languages: ["de"], ...body }, basic(CUSTOMER));
  return { app, worker: worker!, get, place };
}

describe("simulated translator", () => {
  test("is off by default", () => {
    const app = createTestApp({ translate: translateConfig() });
    expect(
      createTranslate({ config: app.config, store: createTranslateStore(sqliteDialect(app.db.$client)), clock: app.clock, log: silentLog }).worker,
    ).toBeNull();
  });

  test("accepts after accept_after and completes after complete_after with a pseudo-translation", async () => {
    const { worker, get, place } = setup();
    await place({ resource: { type: "application/json", data: '{"title": "Hello", "n": 1}' } });
    expect(await worker.tick(T0 + 1999)).toBe(T0 + 2000);
    expect((await get(1)).status).toBe("QUEUE");

    expect(await worker.tick(T0 + 2000)).toBe(T0 + 3000); // polls for new orders at least every second
    expect(await get(1)).toMatchObject({ status: "PROGRESS", accepted_at: "2026-01-01T00:00:02.000Z" });

    await worker.tick(T0 + 6999);
    expect((await get(1)).status).toBe("PROGRESS");
    await worker.tick(T0 + 7000);
    const done = await get(1);
    expect(done).toMatchObject({ status: "DONE", translator: "Simulator", completed_at: "2026-01-01T00:00:07.000Z" });
    expect(JSON.parse(done.target_text)).toEqual({ title: "[de] Hello", n: 1 });
  });

  test("the money follows as with a human translator", async () => {
    const { app, worker, place } = setup();
    await place({ text: "x".repeat(1000) });
    await worker.tick(T0 + 2000);
    await worker.tick(T0 + 7000);
    const account = (await app.call("GET", "/v1/account", undefined, basic(CUSTOMER))).json;
    expect(account).toMatchObject({ balance: 80, reserved: 0 });
  });

  test("takes revisions too, from their reopening time", async () => {
    const { app, worker, get, place } = setup();
    await place({ text: "Hi" });
    await worker.tick(T0 + 2000);
    await worker.tick(T0 + 7000);
    app.clock.set(T0 + 60_000);
    await app.call("POST", "/admin/v1/orders/1/reopen", {}, basic("admin-key-1"));
    await worker.tick(T0 + 61_999);
    expect((await get(1)).status).toBe("REVISION");
    await worker.tick(T0 + 62_000);
    await worker.tick(T0 + 67_000);
    expect(await get(1)).toMatchObject({ status: "DONE", target_text: "[de] Hi", completed_at: "2026-01-01T00:01:07.000Z" });
  });

  test("leaves orders a human translator holds", async () => {
    const { app, worker, get, place } = setup();
    await place({ text: "Hi" });
    await app.call("POST", "/translator/v1/orders/1/accept", undefined, basic("translator-key-1"));
    await worker.tick(T0 + 60_000);
    expect(await get(1)).toMatchObject({ status: "PROGRESS" });
    expect((await get(1)).target_text).toBeUndefined();
  });

  test("survives a restart: its timers are the orders' timestamps", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-sim-"));
    const path = join(dir, "sim.db");
    const one = setup(path);
    await one.place({ text: "Hi" });
    await one.worker.tick(T0 + 2000);
    one.app.close();

    const two = setup(path);
    expect((await two.get(1)).status).toBe("PROGRESS");
    expect(await two.worker.tick(T0 + 3000)).toBe(T0 + 4000);
    await two.worker.tick(T0 + 7000);
    expect((await two.get(1)).status).toBe("DONE");
    two.app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("runs in the app's runner", async () => {
    const { app, get, place } = setup();
    await place({ text: "Hi" });
    app.clock.set(T0 + 2000);
    await app.runner.tick();
    expect((await get(1)).status).toBe("PROGRESS");
  });
});
