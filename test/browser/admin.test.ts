import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildBinary, removeTempDirs, startProcess, tempDir, type Running } from "../helpers/binary";
import { storageToml } from "../helpers/target";
import { browserAvailable, launch, SHOTS } from "./browser";
import { axeViolations, scrollsSideways } from "./sweep";

const ADMIN = { email: "root@example.com", password: "a long admin password" };
const CUSTOMER_KEY = "customer-key-0123456789";

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
      `[server]\nport = 0\n${await storageToml("data/m.db")}` +
        `[[users]]\nemail = "${ADMIN.email}"\nrole = "admin"\npassword_env = "ADMIN_PASSWORD"\n` +
        `[[translate.accounts]]\nid = 1\nbalance = 100\napi_keys = ["${CUSTOMER_KEY}"]\n` +
        // A handler of the config file on the channel the forward test uses; it wants none of its hooks.
        `[[handlers]]\nname = "archive"\nkind = "forward"\nurl = "http://127.0.0.1:9/never"\nwhen = "type:never.sent"\n` +
        `rate = "5/s"\nbreaker = { failures = 4, cool_down = "2m" }\n` +
        `[[channels]]\nname = "fwd"\nhandlers = ["archive"]\n`,
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
    await page.getByRole("dialog").getByRole("button", { name: "Revoke the key" }).click();
    await row.waitFor({ state: "detached" });
    const revoked = await fetch(`${app.url}/v1/channels`, { headers: { authorization: `Bearer ${token}` } });
    expect(revoked.status).toBe(401);
  }, 30_000);

  test("bulk retry over the filter says how many hooks it will touch, asks, and retries them", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(((await (await fetch(`${app.url}/?channel=bulky`, { method: "POST", body: `{"i":${i}}` })).json()) as { id: string }).id);
    await fetch(`${app.url}/?channel=bulky`, { method: "POST", body: "{}" });
    for (const id of ids) {
      const status = await page.evaluate(
        (id) =>
          fetch(`/ui/api/hooks/${id}/fail`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"message":"boom"}' }).then(
            (r) => r.status,
          ),
        id,
      );
      expect(status).toBe(200);
    }
    await page.goto(`${app.url}/ui/hooks?channel=bulky&status=failed`);
    for (const id of ids) await page.locator(`li[data-id="${id}"]`).waitFor();
    await page.getByRole("button", { name: "Retry all failed" }).click();
    // Asked in the page, with the count, never with the browser's confirm().
    await page.getByRole("dialog", { name: "Retry 3 failed hook(s) of channel bulky?" }).getByRole("button", { name: "Retry them" }).click();
    await page.getByRole("status").getByText("Retried 3 hook(s).").waitFor();
    expect(dialogs).toEqual([]);
    await page.getByText("No hooks match these filters").waitFor();
    const channel = (await page.evaluate(() => fetch("/ui/api/channels/bulky").then((r) => r.json()))) as { stats: unknown };
    expect(channel.stats).toMatchObject({ pending: "4", failed: "0" });
  }, 30_000);

  test("a channel's response set on the channels screen is what its senders get next", async () => {
    expect((await fetch(`${app.url}/?channel=answering`, { method: "POST", body: "{}" })).status).toBe(200);
    await page.getByRole("link", { name: "Channels" }).click();
    await page.getByRole("button", { name: "Edit response of answering" }).click();
    // A form, not JSON: one step of the sequence, 503 "busy".
    await page.getByRole("button", { name: "Add a step" }).click();
    await page.getByLabel("Step 1 status").fill("503");
    await page.getByLabel("Step 1 body").fill("busy");
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
    // The fields of the hmac kind, not JSON.
    await page.getByLabel("Signature header").fill("x-sig");
    await page.getByLabel("Prefix").fill("sha256=");
    await page.getByLabel(/Secret/).fill("the-shared-secret");
    await page.getByRole("button", { name: "Create guard" }).click();
    await page.getByRole("cell", { name: "sig", exact: true }).waitFor();
    await page.getByRole("textbox", { name: "Guards of signed" }).fill("sig");
    await page.getByRole("button", { name: "Save guards of signed" }).click();
    await page.getByRole("status").getByText("Guards of signed saved.").waitFor();
    expect(await page.content()).not.toContain("the-shared-secret");
    await page.evaluate("scrollTo(0, 0)"); // the header is sticky: a full page shot taken further down shows it mid-page
    await page.screenshot({ path: join(SHOTS, "guards.png"), fullPage: true });

    await page.goto(`${app.url}/ui/refusals`);
    await page.getByRole("heading", { name: "Refusals" }).waitFor();
    await page.getByText("Nothing was refused.").waitFor();
    await page.locator("body[data-live=open]").waitFor();
    const body = '{"forged":true}';
    const bad = await fetch(`${app.url}/?channel=signed`, { method: "POST", body, headers: { "x-sig": "sha256=00" } });
    expect(bad.status).toBe(401);
    const good = await fetch(`${app.url}/?channel=signed`, {
      method: "POST",
      body,
      headers: { "x-sig": `sha256=${new Bun.CryptoHasher("sha256", "the-shared-secret").update(body).digest("hex")}` },
    });
    expect(good.status).toBe(200);
    const row = page.getByRole("table", { name: "Refusals" }).getByRole("row", { name: /signed 401 sig/ });
    await row.waitFor();
    await page.screenshot({ path: join(SHOTS, "refusals.png") });
  }, 30_000);

  test("translation: an account's ledger, a translator accepts and completes an order, maintenance switched on and off", async () => {
    const customer = { authorization: `Bearer ${CUSTOMER_KEY}`, "content-type": "application/json" };
    const placed = await fetch(`${app.url}/v1/translate`, {
      method: "POST",
      headers: customer,
      body: JSON.stringify({ source_language: "en", target_languages: ["de"], text: "<b>Hello</b> world" }),
    });
    expect(placed.status).toBe(200);
    const id = ((await placed.json()) as { orders: { id: number }[] }).orders[0]!.id;

    await page.getByRole("link", { name: "Translation", exact: true }).click();
    await page.getByRole("link", { name: "Account 1" }).click();
    await page.getByRole("heading", { name: "Account 1" }).waitFor();
    const ledger = page.getByRole("table", { name: "Ledger" });
    await ledger.getByRole("row", { name: /reserve/ }).waitFor();
    expect(await ledger.getByRole("row", { name: /opening/ }).innerText()).toContain("$100.00");
    await page.getByLabel("Top up (USD)").fill("25");
    await page.getByRole("button", { name: "Top up" }).click();
    await page.getByRole("status").getByText("Topped up $25.00.").waitFor();
    expect(await ledger.getByRole("row", { name: /top_up/ }).innerText()).toContain(`admin:${ADMIN.email}`);

    await page.getByRole("link", { name: "Translator queue" }).click();
    await page.getByRole("button", { name: `Accept order ${id}` }).click();
    await page.getByRole("heading", { name: `Order #${id} PROGRESS` }).waitFor();
    // The sender's text is shown as text, never as HTML.
    expect(await page.getByLabel("Source text").innerText()).toBe("<b>Hello</b> world");
    await page.getByLabel("Your translation (target text)").fill("Hallo Welt");
    await page.getByRole("button", { name: "Complete" }).click();
    await page.getByRole("heading", { name: `Order #${id} DONE` }).waitFor();
    const order = await fetch(`${app.url}/v1/orders/${id}`, { headers: customer });
    expect(((await order.json()) as { target_text: string }).target_text).toBe("Hallo Welt");

    await page.getByRole("link", { name: "Accounts" }).click();
    await page.getByRole("button", { name: "Switch maintenance on" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Switch maintenance on" }).click();
    await page.getByRole("status").getByText("Maintenance is on.").waitFor();
    expect((await fetch(`${app.url}/v1/account`, { headers: customer })).status).toBe(503);
    await page.getByRole("link", { name: "Account 1" }).click();
    await page.getByRole("table", { name: "Ledger" }).getByRole("row", { name: /spend/ }).waitFor();
    await page.evaluate("scrollTo(0, 0)"); // the header is sticky: a full page shot taken further down shows it mid-page
    await page.screenshot({ path: join(SHOTS, "translation.png"), fullPage: true });
    await page.getByRole("link", { name: "Accounts" }).click();
    await page.getByRole("button", { name: "Switch maintenance off" }).click();
    await page.getByRole("status").getByText("Maintenance is off.").waitFor();
    expect((await fetch(`${app.url}/v1/account`, { headers: customer })).status).toBe(200);
  }, 30_000);

  test("a forward handler added on a channel's screen delivers a hook to a local receiver; the hook's screen shows the attempt", async () => {
    const received: { body: string; token: string | null }[] = [];
    let failing = false;
    const receiver = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => (
        received.push({ body: await req.text(), token: req.headers.get("x-token") }), new Response("thanks", { status: failing ? 500 : 200 })
      ),
    });
    try {
      await fetch(`${app.url}/?channel=fwd`, { method: "POST", body: "{}" });
      await page.getByRole("link", { name: "Channels" }).click();
      await page.getByRole("link", { name: "Forward handlers of fwd" }).click();
      await page.getByRole("heading", { name: "Forward handlers of fwd" }).waitFor();
      await page.getByLabel("Name", { exact: true }).fill("to-local");
      await page.getByLabel("URL").fill(`http://127.0.0.1:${receiver.port}/in`);
      await page.getByLabel(/Headers/).fill("x-token: not-shown-again");
      await page.getByLabel("Max attempts").fill("3");
      await page.getByLabel("Backoff initial").fill("1s");
      await page.getByLabel("Backoff max").fill("5s");
      // A when that does not parse: the server's words, with the position, under the field.
      const when = page.getByLabel(/^When/);
      await when.fill('"unclosed');
      await page.getByRole("button", { name: "Add handler" }).click();
      await page.getByText("when: does not parse at character 1: a double quote is not closed").waitFor();
      expect(await when.getAttribute("aria-invalid")).toBe("true");
      await when.fill("forward");
      await page.getByLabel("Rate", { exact: true }).fill("10/s");
      await page.getByLabel("Breaker failures").fill("3");
      await page.getByRole("button", { name: "Add handler" }).click();
      const table = page.getByRole("table", { name: "Handlers" });
      const row = table.getByRole("row", { name: /to-local/ });
      await row.waitFor();
      expect(await row.innerText()).toContain("x-token");
      for (const shown of ["forward", "10/s", "after 3 failures, 30s cool-down", "1s to 5s", "10s"]) expect(await row.innerText()).toContain(shown);
      expect(await page.content()).not.toContain("not-shown-again");
      await page.screenshot({ path: join(SHOTS, "forward-handlers.png") });

      const { id } = (await (await fetch(`${app.url}/?channel=fwd`, { method: "POST", body: '{"to":"forward"}' })).json()) as { id: string };
      await page.goto(`${app.url}/ui/hooks/${id}`);
      // The page may open while the attempt still runs: it shows the outcome when the hook changes.
      const attempt = page
        .getByRole("table", { name: "Attempts" })
        .getByRole("row", { name: /to-local/ })
        .filter({ hasText: "succeeded" });
      await attempt.waitFor();
      expect(await attempt.innerText()).toMatch(/to-local\s+1\s+succeeded\s+200/);
      await page.locator("article .hook-head .status-handled").waitFor();
      expect(received.some((r) => r.body === '{"to":"forward"}' && r.token === "not-shown-again")).toBe(true);

      await page.goto(`${app.url}/ui/channels/fwd/handlers`);
      // One row a handler, the config file's too: its state as a badge, its attempts waiting, Pause and Resume.
      await page.locator("body[data-live=open]").waitFor();
      const archive = table.getByRole("row", { name: /archive/ });
      for (const shown of ["forward, config file", "5/s", "after 4 failures, 2m cool-down", "In the config file"])
        expect(await archive.innerText()).toContain(shown);
      expect(await archive.getByRole("button", { name: "Remove archive" }).count()).toBe(0);
      await archive.locator(".status-handled", { hasText: "active" }).waitFor();
      await page.getByRole("button", { name: "Pause archive" }).click();
      await archive.locator(".status-paused", { hasText: "paused" }).waitFor();
      await page.reload();
      await archive.locator(".status-paused", { hasText: "paused" }).waitFor();
      // Both kinds of row, wide and as a phone's cards: no axe violation, no sideways page.
      expect(await axeViolations(page)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 800 });
      expect(await axeViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole("button", { name: "Resume archive" }).click();
      await archive.locator(".status-handled", { hasText: "active" }).waitFor();

      // A paused forward keeps what comes: the hook waits (the row counts it) until Resume delivers it.
      await page.locator("body[data-live=open]").waitFor();
      await row.locator(".status-handled", { hasText: "active" }).waitFor();
      await page.getByRole("button", { name: "Pause to-local" }).click();
      await row.locator(".status-paused", { hasText: "paused" }).waitFor();
      const held = (await (await fetch(`${app.url}/?channel=fwd`, { method: "POST", body: '{"to":"forward","n":"held"}' })).json()) as { id: string };
      await row.getByRole("cell", { name: "1", exact: true }).waitFor();
      expect(received.some((r) => r.body === '{"to":"forward","n":"held"}')).toBe(false);
      await page.getByRole("button", { name: "Resume to-local" }).click();
      await row.locator(".status-handled", { hasText: "active" }).waitFor();
      await row.getByRole("cell", { name: "0", exact: true }).waitFor();
      expect(received.some((r) => r.body === '{"to":"forward","n":"held"}')).toBe(true);
      await page.goto(`${app.url}/ui/hooks/${held.id}`);
      await page.locator("article .hook-head .status-handled").waitFor();
      await page.goto(`${app.url}/ui/channels/fwd/handlers`);

      // Three failures in a row open its breaker (failures = 3): the badge says so as it happens.
      await page.locator("body[data-live=open]").waitFor();
      failing = true;
      for (let i = 0; i < 3; i++) await fetch(`${app.url}/?channel=fwd`, { method: "POST", body: `{"to":"forward","n":${i}}` });
      await row.locator(".status-failed", { hasText: "breaker open" }).waitFor();
      expect(await row.getByRole("cell", { name: /breaker open/ }).innerText()).toMatch(/half-open in \d+ s/);
      await page.getByRole("button", { name: "Remove to-local" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Remove the handler" }).click();
      await page.getByRole("status").getByText("Forward handler to-local removed.").waitFor();
    } finally {
      await receiver.stop(true);
    }
  }, 60_000);
});
