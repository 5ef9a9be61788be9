import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { sendHook, signIn, startInspectorApp, stop } from "./inspector-app";
import { axeViolations, scrollsSideways, watch } from "./sweep";

/** Read and unread in the dashboard (docs/tags.md, docs/dashboard.md): counts, the title, opening, mark all read, notifications. */
describe.skipIf(!browserAvailable())("the dashboard's unread hooks", () => {
  let app: Running;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-unread-");
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  // Functions, not strings: the page's CSP allows no eval (tests type-check without the DOM's types,
  // hence the page's globals cast inside each function; the function is sent as its source).
  type Page_ = { document: { title: string; body: { dataset: Record<string, string> } }; shown: string[] };
  const title = (text: string) => page.waitForFunction((t) => (globalThis as unknown as Page_).document.title === t, text);
  const shown = () => page.evaluate("window.shown") as Promise<string[]>;

  test("counts and the title drop as hooks are opened and marked read; a watched channel notifies", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await sendHook(app, "channel=news", JSON.stringify({ n: i }), { "content-type": "application/json" }));
    await sendHook(app, "channel=quiet", "{}");

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(["notifications"], { origin: app.url });
    // What the page shows as notifications, recorded (the constructor is the browser's own).
    await context.addInitScript(`{
      const Shown = window.Notification;
      window.shown = [];
      window.Notification = class extends Shown {
        constructor(title, options) {
          super(title, options);
          window.shown.push(title + " | " + (options?.body ?? ""));
        }
      };
    }`);
    page = await context.newPage();
    const seen = watch(page);
    await signIn(app, page);
    await title("(4) Mailroom");
    await page.goto(`${app.url}/ui/hooks?channel=news`);
    await title("(4) Mailroom");
    const bar = page.locator(".unread-bar");
    await bar.getByText("3 unread in news").waitFor();
    expect(await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: /Hooks/ }).innerText()).toContain("4");

    // Unread rows say so; opening a hook marks it read for this user.
    for (const id of ids) await page.locator(`li.unread[data-id="${id}"]`).getByText("Unread:").waitFor({ state: "attached" });
    await page.locator(`li[data-id="${ids[1]}"] a.row`).click();
    await title("(3) Mailroom");
    await bar.getByText("2 unread in news").waitFor();
    await page.locator(`li.unread[data-id="${ids[1]}"]`).waitFor({ state: "detached" });
    expect(await page.locator("li.unread").count()).toBe(2);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    }

    // Mark all read: the screen's query (channel:news), through a bulk mark-read.
    await page.goto(`${app.url}/ui/hooks?channel=news`);
    await bar.getByRole("button", { name: "Mark all read" }).click();
    await bar.getByText("All read in news").waitFor();
    await title("(1) Mailroom");

    // The channels screen: each channel's unread count; Notify me asks nothing more (granted here) and notifies.
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Channels" }).click();
    const quiet = page.getByRole("row").filter({ has: page.getByRole("link", { name: "quiet", exact: true }) });
    await quiet.getByRole("link", { name: "1 unread" }).waitFor();
    const notify = page.getByRole("button", { name: "Notify me of new hooks in news" });
    expect(await notify.getAttribute("aria-pressed")).toBe("false");
    await notify.click();
    await page.getByRole("button", { name: "Notify me of new hooks in news", pressed: true }).waitFor();
    expect((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
    await page.waitForFunction(() => (globalThis as unknown as Page_).document.body.dataset.live === "open");
    await sendHook(app, "channel=quiet", "{}");
    await sendHook(app, "channel=news", JSON.stringify({ event: "<b>hi</b>" }), { "content-type": "application/json" });
    await title("(3) Mailroom");
    const news = page.getByRole("row").filter({ has: page.getByRole("link", { name: "news", exact: true }) });
    await news.getByRole("link", { name: "1 unread" }).waitFor();
    await page.waitForFunction(() => (globalThis as unknown as Page_).shown.length > 0);
    // Only the watched channel notifies.
    expect(await shown()).toEqual(['New hook in news | POST · <b>hi</b>\n{"event":"<b>hi</b>"}']);
    expect(seen.errors).toEqual([]);
    await context.close();
  }, 120_000);

  test("a tab follows everything on one stream: the list, the reading pane and the counts share it", async () => {
    // A browser opens six connections to a host at most (HTTP/1.1): a stream per screen was three per tab.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    const streams: string[] = [];
    page.on("request", (r) => void (new URL(r.url()).pathname === "/ui/api/stream" && streams.push(r.url())));
    await signIn(app, page);
    const first = await sendHook(app, "channel=pane", JSON.stringify({ n: 1 }), { "content-type": "application/json" });
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: /Hooks/ }).click();
    await page.locator(`li[data-id="${first}"] a.row`).click();
    await page.locator("article .hook-head h1").waitFor();
    await page.waitForFunction(() => (globalThis as unknown as Page_).document.body.dataset.live === "open");
    // Live all the same: a new hook reaches the list, beside the open hook.
    const second = await sendHook(app, "channel=pane", JSON.stringify({ n: 2 }), { "content-type": "application/json" });
    await page.locator(`li[data-id="${second}"]`).waitFor();
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Refusals" }).click();
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Channels" }).click();
    await page.getByRole("link", { name: "pane", exact: true }).waitFor();
    expect(streams).toHaveLength(1);
    await context.close();
  }, 120_000);
});
