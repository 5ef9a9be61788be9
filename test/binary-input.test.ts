import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildBinary, removeTempDirs, startProcess, tempDir } from "./helpers/binary";

afterAll(removeTempDirs);

/**
 * The built (minified) executable refuses bad paging values and string numbers in bodies as the
 * source does: 400 in each API's error body naming the field. Before, the minifier renamed the
 * error class Elysia tells coercion failures apart by, and the executable stored what the source
 * refused. The full tables run against the source (test/paging.test.ts, body-numbers.test.ts).
 */
test("the executable answers bad paging and body numbers with the documented 400s", async () => {
  const bin = await buildBinary();
  const dir = tempDir("mailroom-input-");
  writeFileSync(
    join(dir, "mailroom.toml"),
    `[server]\nport = 0\n[storage]\npath = "data/hooks.db"\n[[api_keys]]\nlabel = "ci"\ntoken = "binary-test-token"\n` +
      `[translate]\nadmins = [{ api_key = "binary-admin-key" }]\n[translate.rate_limit]\nrequests = 0\n` +
      `[[translate.accounts]]\nid = 1\nbalance = 100\napi_keys = ["binary-customer-key"]\n`,
  );
  const run = await startProcess([bin], dir);
  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${run.url}${path}`, {
      method, headers: { ...headers, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { path, status: res.status, body: await res.json().catch(() => null) };
  };
  const management = { authorization: "Bearer binary-test-token" };
  const customer = { authorization: "Bearer binary-customer-key" };
  const admin = { authorization: "Bearer binary-admin-key" };
  try {
    for (const value of ["0", "-1", "1.5", "1e3", "0x10", "", "abc", "99999999999999999999"]) {
      for (const path of [`/v1/hooks?limit=${value}`, `/v1/refusals?limit=${value}`]) {
        expect(await call("GET", path, management)).toEqual({ path, status: 400, body: { code: 3, message: expect.stringContaining("limit:"), details: [] } });
      }
      for (const path of [`/v1/orders?per_page=${value}`, `/api/v1/orders?per_page=${value}`]) {
        expect(await call("GET", path, customer)).toMatchObject({ path, status: 400, body: { code: "INVALID_REQUEST", parameters: { field: "per_page" } } });
      }
    }
    const order = { source_language: "en", target_languages: ["de"], text: "Hello" };
    for (const limit of ["0", "-5", "1e10", "0x10"]) {
      for (const path of ["/v1/translate", "/api/v1/translate"]) {
        expect(await call("POST", path, customer, { ...order, context: { limit } })).toMatchObject({
          path, status: 400, body: { code: "INVALID_REQUEST", parameters: { field: "context.limit" } },
        });
      }
    }
    expect(await call("POST", "/admin/v1/accounts/1/top-up", admin, { amount: 1e-9 })).toMatchObject({ status: 400, body: { code: "INVALID_AMOUNT" } });
    expect((await call("GET", "/api/v1/orders", customer)).body).toEqual([]);
  } finally {
    run.proc.kill("SIGTERM");
    await run.proc.exited;
  }
}, 120_000);
