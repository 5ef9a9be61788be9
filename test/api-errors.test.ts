/**
 * Each API answers the errors of its own routes with its own error handler: an unexpected error
 * (here a table the route reads is gone) is logged with a request id and answered with a generic
 * 500 in that API's format, revealing nothing. In process only: the test breaks the database.
 */
import { expect, test } from "bun:test";
import { createTestApp, AUTH } from "./helpers/app";
import type { Log } from "../src/lib/log";
import { basic, CUSTOMER, translateConfig } from "./translate/setup";
import { ORIGIN } from "./dashboard/support";

const ADMIN = { email: "ada@example.com", password: "correct horse battery" };

async function brokenApp() {
  const lines: string[] = [];
  const log: Log = { info() {}, warn() {}, error: (m, f) => void lines.push(m + JSON.stringify(f)) };
  const app = createTestApp({ translate: translateConfig() }, { log });
  await app.ready;
  const passwordHash = await Bun.password.hash(ADMIN.password, { algorithm: "argon2id", memoryCost: 8, timeCost: 1 });
  await app.storage.dashboard.insertUser({ email: ADMIN.email, role: "admin", passwordHash, createdAt: app.clock.now() });
  const signedIn = await app.call("POST", "/ui/api/session", ADMIN, ORIGIN);
  const session = { cookie: /^(mailroom_session=[^;]+)/.exec(signedIn.headers.get("set-cookie") ?? "")![1]!, ...ORIGIN };
  for (const table of ["hooks", "translate_orders"]) app.db.$client.run(`ALTER TABLE ${table} RENAME TO ${table}_gone`);
  return { ...app, lines, session };
}

/** The request id the answer names, which the log names too; the database's own words stay in the log. */
function loggedOnce(lines: string[], text: string): void {
  const id = /request id ([0-9a-f-]{36})/.exec(text)?.[1];
  expect(id).toBeDefined();
  expect(text).not.toContain("no such table");
  const logged = lines.filter((l) => l.includes(id!));
  expect(logged).toHaveLength(1);
  expect(logged[0]).toContain("no such table");
}

test("the management API, its dashboard mount and the translation API each answer a 500 in their own format", async () => {
  const app = await brokenApp();

  const management = await app.call("GET", "/v1/hooks", undefined, AUTH);
  expect(management.status).toBe(500);
  expect(management.json).toEqual({ code: 13, message: expect.stringMatching(/^internal error \(request id /), details: [] });
  loggedOnce(app.lines, management.text);

  const dashboard = await app.call("GET", "/ui/api/hooks", undefined, app.session);
  expect(dashboard.status).toBe(500);
  expect(dashboard.json).toEqual({ code: 13, message: expect.stringMatching(/^internal error \(request id /), details: [] });
  loggedOnce(app.lines, dashboard.text);

  for (const path of ["/v1/orders", "/api/v1/orders"]) {
    const translate = await app.call("GET", path, undefined, basic(CUSTOMER));
    expect(translate.status).toBe(500);
    expect(translate.json).toEqual({ code: "INTERNAL_ERROR", description: expect.stringMatching(/request id /), parameters: {} });
    loggedOnce(app.lines, translate.text);
  }
  app.close();
});
