/**
 * A bulk job whose instance died (docs/bulk.md): on SQLite the next start interrupts it; on
 * PostgreSQL another instance sharing the database does once the job's lease ran out. Never
 * `running` for ever.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildBinary, removeTempDirs, startProcess, tempDir } from "../helpers/binary";
import { httpClient, TOKEN } from "../helpers/client";
import { eventually, killInstances, newDatabase, startInstance } from "../helpers/instances";

afterEach(killInstances);
afterAll(removeTempDirs);

/** A receiver that takes each request and never answers: a `send` job holds at its first hook. */
function hangingReceiver() {
  const { promise: reached, resolve } = Promise.withResolvers<void>();
  const server = Bun.serve({
    port: 0,
    fetch: () => {
      resolve();
      return new Promise<Response>(() => {});
    },
  });
  return { url: `http://127.0.0.1:${server.port}/`, reached, stop: () => server.stop(true) };
}

describe("a bulk job whose instance died", () => {
  test("SQLite: the next start marks it interrupted, its counts kept", async () => {
    const receiver = hangingReceiver();
    const dir = tempDir("mailroom-bulk-lease-");
    await Bun.write(join(dir, "mailroom.toml"), `[server]\nport = 0\n[storage]\npath = "data/m.db"\n[[api_keys]]\nlabel = "tests"\ntoken = "${TOKEN}"\n`);
    const bin = await buildBinary();
    const first = await startProcess([bin, "--config", "mailroom.toml"], dir);
    const one = httpClient((path, init) => fetch(`${first.url}${path}`, init));
    for (let i = 0; i < 3; i++) expect((await fetch(`${first.url}/?channel=slow`, { method: "POST", body: "{}" })).status).toBe(200);
    const started = await one.call("POST", "/v1/hooks/bulk", { query: "channel:slow", action: "send", url: receiver.url });
    expect(started.status).toBe(200);
    await receiver.reached;
    expect((await one.call("GET", `/v1/hooks/bulk/${started.json.id}`)).json.state).toBe("running");
    first.proc.kill(9);
    await first.proc.exited;

    const second = await startProcess([bin, "--config", "mailroom.toml"], dir);
    const two = httpClient((path, init) => fetch(`${second.url}${path}`, init));
    const job = (await two.call("GET", `/v1/hooks/bulk/${started.json.id}`)).json;
    expect(job).toMatchObject({ state: "interrupted", total: 3, done: 0 });
    expect(job.message).toContain("the instance running it stopped");
    expect(job.finished_at).not.toBeNull();
    expect(((await two.call("GET", "/v1/hooks/bulk")).json as { state: string }[]).map((j) => j.state)).toEqual(["interrupted"]);
    second.proc.kill();
    await second.proc.exited;
    receiver.stop();
  }, 60_000);

  test("PostgreSQL: another instance shows it running while its lease is renewed, then interrupted once it ran out", async () => {
    const receiver = hangingReceiver();
    const url = await newDatabase();
    const raw = { storage: { attempt_lease: "1s" } };
    const a = await startInstance(url, raw);
    const b = await startInstance(url, raw);
    await a.catchHooks("slow", 3);
    const started = await a.call("POST", "/v1/hooks/bulk", { query: "channel:slow", action: "send", url: receiver.url });
    expect(started.status).toBe(200);
    await receiver.reached;
    const read = async () => (await b.call("GET", `/v1/hooks/bulk/${started.json.id}`)).json;
    // Held at its first hook for longer than its 1 s lease (an executable has no fake clock: this
    // waits until the job is older than the lease), the heartbeat keeps it running, on B too.
    const leaseRenewed = async () =>
      (await a.call("GET", `/v1/hooks/bulk/${started.json.id}`)).json.state === "running" && Date.now() - Date.parse(started.json.created_at) > 1500;
    await eventually(leaseRenewed, 5000, "the job running past its first lease");
    expect((await read()).state).toBe("running");
    await a.kill();
    await eventually(async () => (await read()).state === "interrupted", 10_000, "the job interrupted on B");
    expect(await read()).toMatchObject({ state: "interrupted", total: 3, done: 0 });
    receiver.stop();
  }, 60_000);
});
