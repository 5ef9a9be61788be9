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

  test("select all matching: tag with the tags typed, export as a file of JSON lines (a hostile body only saved), untag, mark read; tags refused or missing are said in words", async () => {
    // Hooks of their own channel: this test does not depend on the one before.
    for (let i = 0; i < 119; i++) await sendHook(app, "channel=tagged", JSON.stringify({ n: i }), { "content-type": "application/json" });
    await sendHook(app, "channel=tagged", ATTACK, { "content-type": "text/html" });
    const own = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(own);
    await signIn(app, own);
    const matching = async (query: string) =>
      ((await (await api(app, "POST", "/v1/hooks/bulk", { query, action: "export", dry_run: true })).json()) as { count: number }).count;
    const tagsBox = (label: string) => own.getByRole("textbox", { name: label });
    const apply = async (action: string, label: string, tags?: { box: string; text: string }) => {
      await own.getByLabel("Action").selectOption(action);
      if (tags) await tagsBox(tags.box).fill(tags.text);
      await own.getByRole("button", { name: "Apply" }).click();
      const dialog = own.getByRole("dialog");
      await dialog.getByText(`${label}: 120 hook(s)?`).waitFor();
      return dialog.getByRole("button", { name: `${label} them` });
    };
    await own.goto(`${app.url}/ui/hooks?q=channel%3Atagged`);
    await own.getByRole("button", { name: "Select all matching" }).click();
    await own.getByText("All 120 matching selected.").waitFor();

    await (await apply("tag", "Tag", { box: "Tags to add", text: "vip, big  vip" })).click();
    await own
      .getByRole("status")
      .filter({ hasText: "tagged" })
      .getByText(/120 of 120 tagged · done/)
      .waitFor({ timeout: 30_000 });
    expect(await matching("tag:vip tag:big")).toBe(120);
    expect(await matching("tag:vip -channel:tagged")).toBe(0);

    const saved = own.waitForEvent("download");
    await (await apply("export", "Export")).click();
    const file = await saved;
    expect(file.suggestedFilename()).toBe("mailroom-hooks.jsonl");
    const lines = (await Bun.file((await file.path())!).text()).split("\n").filter(Boolean);
    expect(lines.length).toBe(120);
    expect(new Set(lines.map((l) => (JSON.parse(l) as { channel: string }).channel))).toEqual(new Set(["tagged"]));
    await own.getByRole("status").getByText("120 hook(s) exported to mailroom-hooks.jsonl.").waitFor();
    // The job's line before it is gone: the line says what the last action did.
    expect(await own.getByText(/of 120 tagged/).count()).toBe(0);

    await (await apply("untag", "Untag", { box: "Tags to remove", text: "vip" })).click();
    await own
      .getByRole("status")
      .filter({ hasText: "untagged" })
      .getByText(/120 of 120 untagged · done/)
      .waitFor({ timeout: 30_000 });
    expect(await matching("tag:vip")).toBe(0);
    expect(await matching("tag:big")).toBe(120);

    await (await apply("mark-read", "Mark read")).click();
    await own
      .getByRole("status")
      .filter({ hasText: "marked read" })
      .getByText(/of 120 marked read · done/)
      .waitFor({ timeout: 30_000 });
    expect(await own.getByText("All 120 matching selected.").isVisible()).toBe(true);

    // Tags that split to nothing are asked for before anything is sent; a tag the server refuses is said in its words.
    await own.getByLabel("Action").selectOption("tag");
    await tagsBox("Tags to add").fill(" , ");
    await own.getByRole("button", { name: "Apply" }).click();
    await own.getByRole("alert").getByText("tags: type at least one tag").waitFor();
    await tagsBox("Tags to add").fill("Not*A*Tag");
    await own.getByRole("button", { name: "Apply" }).click();
    await own
      .getByRole("alert")
      .getByText(/tags: each is/)
      .waitFor();
    expect(await tagsBox("Tags to add").getAttribute("aria-invalid")).toBe("true");
    expect(await matching("tag:big")).toBe(120);
    for (const width of [390, 1280]) {
      await own.setViewportSize({ width, height: 800 });
      expect((await axeViolations(own)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
      expect(await scrollsSideways(own)).toBe(false);
    }
    await own.screenshot({ path: join(SHOTS, "bulk-tags.png") });
    // A new search starts a new selection: the lines of the last one go.
    await own.getByRole("button", { name: "Clear" }).click();
    expect(await own.getByRole("alert").count()).toBe(0);
    expect(await own.getByText(/marked read · done/).count()).toBe(0);
    // No script of the hostile body ran; the refused dry run is the console's one error (the browser logs every 400).
    expect(seen.dialogs).toEqual([]);
    expect(seen.errors).toEqual([expect.stringContaining("status of 400 (Bad Request) (http://127.0.0.1")]);
    await own.close();
  }, 120_000);
});
