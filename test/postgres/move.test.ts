/**
 * Moving a SQLite Mailroom onto PostgreSQL (docs/postgres.md): `mailroom export` from one, `mailroom
 * import` into the other, and every hook reads back the same: ids, statuses, events, exact bytes,
 * channels' counts, and search.
 */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { removeTempDirs } from "../helpers/binary";
import { killInstances, newDatabase, startInstance } from "../helpers/instances";
import { TOKEN } from "../helpers/client";
import { runCli, serveFromSource } from "../cli/run";

afterAll(async () => {
  await killInstances();
  removeTempDirs();
});

test("export from SQLite, import into PostgreSQL: the same hooks, channels and search answers", async () => {
  const sqlite = await serveFromSource({ api_keys: [{ label: "test", token: TOKEN }] });
  const pg = await startInstance(await newDatabase());
  try {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const post = (channel: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
      fetch(`${sqlite.url}/?channel=${channel}`, { method: "POST", body, headers });
    for (let i = 0; i < 30; i++)
      await post(i % 3 ? "shop" : "github", JSON.stringify({ n: i, word: i % 7 === 0 ? "septimal" : "plain" }), { "content-type": "application/json" });
    await post("bin", new Uint8Array([0, 128, 255, 13, 10]));
    const get = async (base: string, path: string): Promise<any> => (await fetch(`${base}${path}`, { headers: auth })).json();
    const ids: string[] = (await get(sqlite.url, "/v1/hooks?limit=100")).map((h: { id: string }) => h.id);
    await fetch(`${sqlite.url}/v1/hooks/${ids[3]}/discard`, { method: "POST", headers: auth });
    await fetch(`${sqlite.url}/v1/hooks/${ids[4]}/fail`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: '{"message":"no"}',
    });

    const file = join(sqlite.dir, "all.jsonl");
    const exported = await runCli(["export", "--output", file, "--url", sqlite.url, "--token", TOKEN]);
    expect(exported.code).toBe(0);
    const imported = await runCli(["import", file, "--url", pg.url, "--token", TOKEN]);
    expect(imported.stdout).toBe(`imported ${ids.length}, skipped 0 (ids already there), failed 0\n`);

    for (const id of ids) expect(await get(pg.url, `/v1/hooks/${id}`)).toEqual(await get(sqlite.url, `/v1/hooks/${id}`));
    expect(await get(pg.url, "/v1/channels")).toEqual(await get(sqlite.url, "/v1/channels"));
    expect(await get(pg.url, "/v1/hooks?q=septimal&limit=100")).toEqual(await get(sqlite.url, "/v1/hooks?q=septimal&limit=100"));
    expect((await get(pg.url, "/v1/hooks?q=septimal")).length).toBe(5);
  } finally {
    await sqlite.stop();
  }
}, 60_000);
