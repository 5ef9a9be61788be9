import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildBinary, removeTempDirs, startProcess, tempDir, type Running } from "../helpers/binary";
import { browserAvailable, launch, SHOTS } from "./browser";

const ADMIN = { email: "root@example.com", password: "a long admin password" };

/** The admin screens (API keys, guards, bulk actions, translation) with an admin from the config file. */
describe.skipIf(!browserAvailable())("the dashboard's admin screens in a browser", () => {
  let app: Running;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];

  beforeAll(async () => {
    const bin = await buildBinary();
    const dir = tempDir("mailroom-ui-admin-");
    await Bun.write(
      join(dir, "mailroom.toml"),
      `[server]\nport = 0\n[storage]\npath = "data/m.db"\ndurability = "normal"\n` +
        `[[users]]\nemail = "${ADMIN.email}"\nrole = "admin"\npassword_env = "ADMIN_PASSWORD"\n`,
    );
    app = await startProcess([bin, "--config", "mailroom.toml"], dir, { ADMIN_PASSWORD: ADMIN.password });
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("dialog", (d) => (dialogs.push(d.message()), void d.accept()));
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
    removeTempDirs();
  }, 30_000);

  test("an API key created in the dashboard opens /v1, shows its last use, and is refused once revoked", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByLabel("Label").fill("deploy-bot");
    await page.getByRole("button", { name: "Create key" }).click();
    const token = await page.getByLabel("New token").innerText();
    expect(token).toMatch(/^mr_/);
    const used = await fetch(`${app.url}/v1/channels`, { headers: { authorization: `Bearer ${token}` } });
    expect(used.status).toBe(200);
    await page.reload();
    const row = page.getByRole("row", { name: /deploy-bot/ });
    await row.waitFor();
    expect(await row.innerText()).not.toContain("never");
    expect(await page.getByRole("row", { name: /local/ }).innerText()).toContain("read-only");
    await page.screenshot({ path: join(SHOTS, "api-keys.png") });
    await page.getByRole("button", { name: "Revoke deploy-bot" }).click();
    await row.waitFor({ state: "detached" });
    const revoked = await fetch(`${app.url}/v1/channels`, { headers: { authorization: `Bearer ${token}` } });
    expect(revoked.status).toBe(401);
  }, 30_000);

  test("bulk retry over the filter says how many hooks it will touch, asks, and retries them", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(((await (await fetch(`${app.url}/?channel=bulky`, { method: "POST", body: `{"i":${i}}` })).json()) as { id: string }).id);
    await fetch(`${app.url}/?channel=bulky`, { method: "POST", body: "{}" });
    for (const id of ids) {
      const status = await page.evaluate((id) => fetch(`/ui/api/hooks/${id}/fail`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"message":"boom"}' }).then((r) => r.status), id);
      expect(status).toBe(200);
    }
    await page.goto(`${app.url}/ui/hooks?channel=bulky&status=failed`);
    for (const id of ids) await page.locator(`tr[data-id="${id}"]`).waitFor();
    await page.getByRole("button", { name: "Retry all failed" }).click();
    await page.getByRole("status").getByText("Retried 3 hook(s).").waitFor();
    expect(dialogs.at(-1)).toBe("Retry 3 failed hook(s) of channel bulky?");
    await page.getByText("No hooks match these filters").waitFor();
    const channel = (await page.evaluate(() => fetch("/ui/api/channels/bulky").then((r) => r.json()))) as { stats: unknown };
    expect(channel.stats).toMatchObject({ pending: "4", failed: "0" });
  }, 30_000);

  test("a channel's response set on the channels screen is what its senders get next", async () => {
    expect((await fetch(`${app.url}/?channel=answering`, { method: "POST", body: "{}" })).status).toBe(200);
    await page.getByRole("link", { name: "Channels" }).click();
    await page.getByRole("button", { name: "Edit response of answering" }).click();
    await page.getByLabel("Response of answering (JSON)").fill('{"sequence": [{"status": 503, "body": "busy"}]}');
    await page.getByRole("button", { name: "Save response of answering" }).click();
    await page.getByText("Response saved.").waitFor();
    const first = await fetch(`${app.url}/?channel=answering`, { method: "POST", body: "{}" });
    expect([first.status, await first.text()]).toEqual([503, "busy"]);
    expect((await fetch(`${app.url}/?channel=answering`, { method: "POST", body: "{}" })).status).toBe(200);
  }, 30_000);

  test("a guard defined in the dashboard refuses a badly signed hook at once, and the refusal appears live", async () => {
    expect((await fetch(`${app.url}/?channel=signed`, { method: "POST", body: "{}" })).status).toBe(200);
    await page.getByRole("link", { name: "Guards" }).click();
    await page.getByLabel("Name").fill("sig");
    await page.getByLabel("Kind").selectOption("hmac");
    await page.getByLabel("Settings (JSON)").fill('{"header": "x-sig", "prefix": "sha256="}');
    await page.getByLabel(/Secret/).fill("the-shared-secret");
    await page.getByRole("button", { name: "Create guard" }).click();
    await page.getByRole("cell", { name: "sig", exact: true }).waitFor();
    await page.getByRole("textbox", { name: "Guards of signed" }).fill("sig");
    await page.getByRole("button", { name: "Save guards of signed" }).click();
    await page.getByRole("status").getByText("Guards of signed saved.").waitFor();
    expect(await page.content()).not.toContain("the-shared-secret");
    await page.screenshot({ path: join(SHOTS, "guards.png"), fullPage: true });

    await page.goto(`${app.url}/ui/refusals`);
    await page.getByRole("heading", { name: "Refusals" }).waitFor();
    await page.getByText("No guard refused anything.").waitFor();
    await page.locator("body[data-live=open]").waitFor();
    const body = '{"forged":true}';
    const bad = await fetch(`${app.url}/?channel=signed`, { method: "POST", body, headers: { "x-sig": "sha256=00" } });
    expect(bad.status).toBe(401);
    const good = await fetch(`${app.url}/?channel=signed`, {
      method: "POST", body, headers: { "x-sig": `sha256=${new Bun.CryptoHasher("sha256", "the-shared-secret").update(body).digest("hex")}` },
    });
    expect(good.status).toBe(200);
    const row = page.getByRole("table", { name: "Refusals" }).getByRole("row", { name: /signed sig 401/ });
    await row.waitFor();
    await page.screenshot({ path: join(SHOTS, "refusals.png") });
  }, 30_000);
});
