import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { join } from "node:path";
import { browserAvailable, launch, SHOTS } from "./browser";
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

  test("select all matching: tag with the tags typed, export as a file of JSON lines, untag, mark read; a bad tag is refused in words", async () => {
    const seen = watch(page);
    const matching = async (query: string) =>
      ((await (await api(app, "POST", "/v1/hooks/bulk", { query, action: "export", dry_run: true })).json()) as { count: number }).count;
    const apply = async (action: string, label: string, tags?: string) => {
      await page.getByLabel("Action").selectOption(action);
      if (tags !== undefined) await page.getByRole("textbox", { name: "Tags" }).fill(tags);
      await page.getByRole("button", { name: "Apply" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(`${label}: 450 hook(s)?`).waitFor();
      return dialog.getByRole("button", { name: `${label} them` });
    };
    await page.goto(`${app.url}/ui/hooks?q=channel%3Aorders`);
    await page.getByRole("button", { name: "Select all matching" }).click();
    await page.getByText("All 450 matching selected.").waitFor();

    await (await apply("tag", "Tag", "vip, big  vip")).click();
    await page
      .getByRole("status")
      .filter({ hasText: "tagged" })
      .getByText(/450 of 450 tagged · done/)
      .waitFor({ timeout: 30_000 });
    expect(await matching("tag:vip tag:big")).toBe(450);
    expect(await matching("tag:vip channel:other")).toBe(0);

    const saved = page.waitForEvent("download");
    await (await apply("export", "Export")).click();
    const file = await saved;
    expect(file.suggestedFilename()).toBe("mailroom-hooks.jsonl");
    const lines = (await Bun.file((await file.path())!).text()).split("\n").filter(Boolean);
    expect(lines.length).toBe(450);
    expect(new Set(lines.map((l) => (JSON.parse(l) as { channel: string }).channel))).toEqual(new Set(["orders"]));
    await page.getByRole("status").getByText("450 hook(s) exported to mailroom-hooks.jsonl.").waitFor();

    await (await apply("untag", "Untag", "vip")).click();
    await page
      .getByRole("status")
      .filter({ hasText: "untagged" })
      .getByText(/450 of 450 untagged · done/)
      .waitFor({ timeout: 30_000 });
    expect(await matching("tag:vip")).toBe(0);
    expect(await matching("tag:big")).toBe(450);

    await (await apply("mark-read", "Mark read")).click();
    await page
      .getByRole("status")
      .filter({ hasText: "marked read" })
      .getByText(/of 450 marked read · done/)
      .waitFor({ timeout: 30_000 });
    expect(await page.getByText("All 450 matching selected.").isVisible()).toBe(true);

    // A tag the server refuses is said in words, and nothing is tagged.
    await page.getByLabel("Action").selectOption("tag");
    await page.getByRole("textbox", { name: "Tags" }).fill("Not*A*Tag");
    await page.getByRole("button", { name: "Apply" }).click();
    await page
      .getByRole("alert")
      .getByText(/tags: each is/)
      .waitFor();
    expect(await matching("tag:big")).toBe(450);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    }
    await page.screenshot({ path: join(SHOTS, "bulk-tags.png") });
    // The refused dry run is the console's one error (the browser logs every 400).
    expect(seen.errors).toEqual([expect.stringContaining("status of 400 (Bad Request) (http://127.0.0.1")]);
  }, 120_000);
});
