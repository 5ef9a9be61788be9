import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { sendHook, signIn, startInspectorApp, stop } from "./inspector-app";
import { watch } from "./sweep";

/** Two frames after now in the page: what an answer just handled changed is on the screen. */
const settled = (page: Page) => page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");

/**
 * A list read for a filter the user has since changed answers late (a slow server, a busy machine):
 * the screen keeps the rows of the filter it shows, never the late answer's.
 */
describe.skipIf(!browserAvailable())("answers that arrive after the filter changed", () => {
  let app: Running;
  let browser: Browser;

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-late-");
    browser = await launch();
    for (const channel of ["alpha", "alpha", "beta", "beta"]) await sendHook(app, `channel=${channel}`, "{}");
    // Refused by the channel's signature guard: a refusal that is no handshake.
    expect((await fetch(`${app.url}/?channel=signed`, { method: "POST", headers: { "x-sig": "wrong" }, body: "{}" })).status).toBe(401);
  }, 120_000);
  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("the hooks list: the answer for every channel, held back, does not replace the rows of the channel picked meanwhile", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(page);
    await signIn(app, page);
    await page.route(/\/ui\/api\/hooks\?/, async (route) => {
      if (!route.request().url().includes("channel=")) await Bun.sleep(2500);
      await route.continue();
    });
    const late = page.waitForResponse((r) => /\/ui\/api\/hooks\?/.test(r.url()) && !r.url().includes("channel=") && !r.url().includes("is%3Aunread"));
    await page.goto(`${app.url}/ui/hooks`);
    await page.getByLabel("Channel").selectOption("beta");
    const rows = page.locator("ol.hooks > li");
    await rows.filter({ hasText: "beta" }).first().waitFor();
    await (await late).finished();
    await settled(page);
    expect(await rows.filter({ hasText: "beta" }).count()).toBe(2);
    expect(await rows.filter({ hasText: "alpha" }).count()).toBe(0);
    expect(seen.errors).toEqual([]);
    await page.close();
  }, 60_000);

  test("the refusals list: the answer for every kind, held back, does not replace the rows of the kind picked meanwhile", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(app, page);
    await page.route(/\/ui\/api\/refusals/, async (route) => {
      if (!route.request().url().includes("kind=")) await Bun.sleep(2500);
      await route.continue();
    });
    const late = page.waitForResponse((r) => /\/ui\/api\/refusals/.test(r.url()) && !r.url().includes("kind="));
    await page.goto(`${app.url}/ui/refusals`);
    await page.getByLabel("Kind").selectOption("handshake");
    await page.waitForURL(/kind=handshake/);
    await page.getByText("No refusal matches these filters.").waitFor();
    await (await late).finished();
    await settled(page);
    expect(await page.getByText("No refusal matches these filters.").isVisible()).toBe(true);
    await page.close();
  }, 60_000);
});
