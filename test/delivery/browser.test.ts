import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { verify as octokitVerify } from "@octokit/webhooks-methods";
import type { Browser, Page } from "playwright-core";
import { browserAvailable, launch } from "../browser/browser";
import { buildBinary, removeTempDirs, startProcess, tempDir, type Running } from "../helpers/binary";
import { storageToml } from "../helpers/target";

const ADMIN = { email: "root@example.com", password: "a long admin password" };

/** Issue 30 in the dashboard: the chaos toggle of a forward handler, edit-and-send's "re-sign as", and the attempts showing both. */
describe.skipIf(!browserAvailable())("delivery chaos and re-signing in the dashboard", () => {
  let app: Running;
  let browser: Browser;
  let page: Page;
  const received: { body: string; headers: Record<string, string> }[] = [];
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => (received.push({ body: await req.text(), headers: Object.fromEntries(req.headers) }), new Response("thanks")),
  });

  beforeAll(async () => {
    const bin = await buildBinary();
    const dir = tempDir("mailroom-ui-delivery-");
    await Bun.write(
      join(dir, "mailroom.toml"),
      `[server]\nport = 0\n${await storageToml("data/m.db")}[[users]]\nemail = "${ADMIN.email}"\nrole = "admin"\npassword_env = "ADMIN_PASSWORD"\n`,
    );
    app = await startProcess([bin, "--config", "mailroom.toml"], dir, { ADMIN_PASSWORD: ADMIN.password });
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${app.url}/ui/`);
    await page.getByLabel("E-mail").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText(`${ADMIN.email} (admin)`).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    app?.proc.kill();
    await app?.proc.exited;
    receiver.stop(true);
    removeTempDirs();
  }, 30_000);

  test("a forward with the chaos toggle on delivers each hook twice; the hook's screen says so on the attempt", async () => {
    await fetch(`${app.url}/?channel=chaos`, { method: "POST", body: "{}" });
    await page.goto(`${app.url}/ui/channels/chaos/handlers`);
    await page.getByLabel("Name", { exact: true }).fill("twice");
    await page.getByLabel("URL").fill(`http://127.0.0.1:${receiver.port}/in`);
    await page.getByLabel(/Delivery chaos/).check();
    await page.getByLabel("Duplicate share").fill("1");
    await page.getByLabel("Seed").fill("42");
    await page.getByRole("button", { name: "Add handler" }).click();
    const row = page.getByRole("table", { name: "Handlers" }).getByRole("row", { name: /twice/ });
    await row.waitFor();
    expect(await row.innerText()).toContain("duplicate 1, seed 42");
    const { id } = (await (await fetch(`${app.url}/?channel=chaos`, { method: "POST", body: '{"n":"twice"}' })).json()) as { id: string };
    await page.goto(`${app.url}/ui/hooks/${id}`);
    const attempt = page.getByRole("table", { name: "Attempts" }).getByRole("row", { name: /twice/ }).filter({ hasText: "succeeded" });
    await attempt.waitFor();
    expect(await attempt.innerText()).toContain("chaos: duplicate");
    expect(received.filter((r) => r.body === '{"n":"twice"}')).toHaveLength(2);
  });

  test("edit and send re-signs as the provider chosen with the secret given; GitHub's library verifies it", async () => {
    const { id } = (await (await fetch(`${app.url}/?channel=plain`, { method: "POST", body: '{"zen":"hi"}' })).json()) as { id: string };
    await page.goto(`${app.url}/ui/hooks/${id}`);
    await page.getByRole("button", { name: "Edit and send" }).click();
    const form = page.getByRole("form", { name: "Edit and send" });
    await form.getByLabel("URL", { exact: true }).fill(`http://127.0.0.1:${receiver.port}/resigned`);
    await form.getByLabel("Re-sign as").selectOption("github");
    await form.getByLabel("Secret").fill("local-secret");
    await form.getByRole("button", { name: "Send to the URL" }).click();
    await page.getByRole("region", { name: "Answer body" }).waitFor();
    const got = received.at(-1)!;
    expect(await octokitVerify("local-secret", got.body, got.headers["x-hub-signature-256"]!)).toBe(true);
    expect(await page.content()).not.toContain("local-secret");
  });
});
