import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { ATTACK, sendHook, signIn, startInspectorApp, stop, TOKEN } from "./inspector-app";
import { axeViolations, scrollsSideways, watch } from "./sweep";

const api = (app: Running, method: string, path: string, body?: unknown) =>
  fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Saved views in the sidebar (with counts, a shareable URL) and "Select all N matching" with its progress line. */
describe.skipIf(!browserAvailable())("the dashboard's saved views and bulk actions by query", () => {
  let app: Running;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-bulk-");
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("a shared view opens by its URL with its count; select all matching, discard with progress; axe-clean at two widths", async () => {
    for (let i = 0; i < 450; i++) await sendHook(app, "channel=orders", JSON.stringify({ n: i }), { "content-type": "application/json" });
    await sendHook(app, "channel=other", "{}");
    // A hostile name cannot be saved; a hostile query is shown as text.
    expect((await api(app, "POST", "/v1/views", { name: "orders", query: "channel:orders", shared: true })).status).toBe(200);
    expect((await api(app, "POST", "/v1/views", { name: "evil", query: `"${ATTACK}"`, shared: true })).status).toBe(200);

    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(page);
    await signIn(app, page);
    await page.goto(`${app.url}/ui/hooks?view=orders`);
    const sidebar = page.getByRole("complementary", { name: "Saved views" });
    await sidebar.getByRole("link", { name: /orders \(shared\)\s*450 hooks/ }).waitFor();
    await page.waitForURL(/q=channel%3Aorders/);
    expect(await sidebar.getByRole("link", { name: /orders/ }).getAttribute("aria-current")).toBe("page");

    await page.getByRole("button", { name: "Select all matching" }).click();
    await page.getByText("All 450 matching selected.").waitFor();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    }
    await page.getByLabel("Action").selectOption("discard");
    await page.getByRole("button", { name: "Apply" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Discard: 450 hook(s)?").waitFor();
    await dialog.getByRole("button", { name: "Discard them" }).click();
    const progress = page.getByRole("status").filter({ hasText: "discarded" });
    await progress.getByText(/450 of 450 discarded · done/).waitFor({ timeout: 30_000 });
    expect((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
    const stats = ((await (await api(app, "GET", "/v1/channels/orders")).json()) as { stats: Record<string, string> }).stats;
    expect(stats).toMatchObject({ discarded: "450", pending: "0" });
    expect(((await (await api(app, "GET", "/v1/channels/other")).json()) as { stats: Record<string, string> }).stats.pending).toBe("1");

    // Saving the current search as the user's own view adds it to the sidebar.
    await page.getByRole("textbox", { name: "Name" }).fill("mine");
    await page.getByRole("button", { name: "Save this search" }).click();
    await sidebar.getByRole("link", { name: /^mine\s*450 hooks/ }).waitFor();
    expect(seen.errors).toEqual([]);
  }, 120_000);
});
