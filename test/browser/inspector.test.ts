import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { sendHook, signIn, startInspectorApp, stop } from "./inspector-app";
import { watch } from "./sweep";

/** The inspector: the hooks list and a hook side by side, keys, the tree, copying, dialogs, compare, the theme. */
describe.skipIf(!browserAvailable())("the inspector in a browser", () => {
  let app: Running;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let seen: ReturnType<typeof watch>;
  const ids: Record<string, string> = {};
  const send = (query: string, body: string | Uint8Array, headers: Record<string, string> = {}) => sendHook(app, query, body, headers);

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-inspector-");
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
    page = await context.newPage();
    seen = watch(page);
    await signIn(app, page);
  }, 120_000);

  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("with no hook yet, the list shows the first curl with this server's real URL", async () => {
    const first = page.getByRole("region", { name: "First hook" });
    await first.waitFor();
    expect(await first.innerText()).toContain(`curl -X POST '${app.url}/?channel=demo'`);
    // A channel with no hook yet: its own URL.
    await page.goto(`${app.url}/ui/hooks?channel=orders`);
    await page.getByRole("region", { name: "First hook" }).getByText(`curl -X POST '${app.url}/?channel=orders'`).waitFor();
    await page.goto(`${app.url}/ui/hooks`);
  }, 30_000);

  test("rows say what each hook is, in one format for sizes and times; the keyboard moves, opens and closes", async () => {
    ids.a = await send("channel=shop", '{"order":42,"items":["a","b"],"customer":{"name":"Ada"}}', { "content-type": "application/json" });
    ids.b = await send("channel=shop&retry=1", '{"order":43,"items":["a"],"customer":{"name":"Ada","vip":true}}', { "content-type": "application/json" });
    // 1,048,686 bytes, the example: "1.0 MB" in the list and on the hook's page alike.
    const items = JSON.stringify({ items: Array.from({ length: 10_000 }, (_, i) => ({ i, sku: `SKU-${i}`, note: "x".repeat(60) })) });
    const big = `${items.slice(0, -1)},"pad":"${"x".repeat(1_048_686 - items.length - ',"pad":""'.length)}"}`;
    expect(new TextEncoder().encode(big).length).toBe(1_048_686);
    ids.big = await send("channel=files", big, { "content-type": "application/json" });
    const row = page.locator(`li[data-id="${ids.big}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain("1.0 MB");
    // The one-line preview of the body, as plain text.
    expect(await page.locator(`li[data-id="${ids.a}"] .preview`).innerText()).toBe('{"order":42,"items":["a","b"],"customer":{"name":"Ada"}}');
    expect(await row.locator("time").innerText()).toMatch(/^(just now|\d+ s ago)$/);
    expect(await row.locator("time").getAttribute("title")).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d$/);
    // j moves down, k up, Enter opens beside the list, Escape closes; / goes to the search box.
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    await page.keyboard.press("Enter");
    await page.locator(`article[data-hook="${ids.b}"]`).waitFor();
    expect(await page.locator("ol.hooks").isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe(`/ui/hooks/${ids.b}`);
    // With a hook open, moving opens the next one, as a reading pane does.
    await page.keyboard.press("ArrowUp");
    await page.locator(`article[data-hook="${ids.big}"]`).waitFor();
    expect(await page.locator("article .hook-sub").innerText()).toContain("1.0 MB");
    // Newer and Older do the same for a mouse or a finger.
    expect(await page.getByRole("button", { name: "↑ Newer" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "↓ Older" }).click();
    await page.locator(`article[data-hook="${ids.b}"]`).waitFor();
    await page.getByRole("button", { name: "↑ Newer" }).click();
    await page.locator(`article[data-hook="${ids.big}"]`).waitFor();
    await page.keyboard.press("Escape");
    await page.locator("article").waitFor({ state: "detached" });
    await page.keyboard.press("/");
    expect(await page.evaluate("document.activeElement?.id")).toBe("hook-search");
    await page.keyboard.press("Escape");
  }, 60_000);

  test("a hook's JSON shows once as a tree; headers and query are tables; the curl copied has a readable body and the URL typed", async () => {
    await page.goto(`${app.url}/ui/hooks/${ids.a}`);
    const body = page.getByRole("region", { name: "Body" });
    await body.waitFor();
    expect(await body.innerText()).toContain('"name": "Ada"');
    expect(await page.getByText('"order": 42').count()).toBe(1);
    await page.getByRole("button", { name: "Collapse customer" }).click();
    expect(await body.innerText()).not.toContain('"name": "Ada"');
    expect(await page.getByRole("table", { name: "Query" }).innerText()).toMatch(/channel\s+shop/);
    expect(await page.getByRole("table", { name: "Headers" }).innerText()).toMatch(/content-type\s+application\/json/);
    await page.getByText("Copy as curl").click();
    await page.getByLabel("Send it to").fill("http://localhost:3000/webhooks");
    await page.getByRole("button", { name: "Copy the curl command" }).click();
    await page.getByRole("button", { name: "Copy the curl command" }).getByText("Copied").waitFor();
    const curl = (await page.evaluate("navigator.clipboard.readText()")) as string;
    expect(curl).toStartWith("curl -X POST 'http://localhost:3000/webhooks'");
    expect(curl).toContain(`--data-raw '{"order":42,"items":["a","b"],"customer":{"name":"Ada"}}'`);
    expect(curl).toContain("-H 'content-type: application/json'");
    expect(curl).not.toContain("base64");
  }, 30_000);

  test("fail and delete ask in the page, never with the browser's prompt or confirm", async () => {
    const id = await send("channel=shop", "to fail");
    await page.goto(`${app.url}/ui/hooks/${id}`);
    await page.getByRole("button", { name: "Fail" }).click();
    const ask = page.getByRole("dialog", { name: "Mark this hook failed" });
    await ask.getByLabel("Why did it fail?").fill("the app answered 500");
    await ask.getByRole("button", { name: "Fail the hook" }).click();
    await page
      .getByRole("table", { name: "Events" })
      .getByRole("row", { name: /failed .* the app answered 500/ })
      .waitFor();
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete this hook?" }).getByRole("button", { name: "Cancel" }).click();
    expect(await page.locator(`article[data-hook="${id}"]`).count()).toBe(1);
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete this hook?" }).getByRole("button", { name: "Delete the hook" }).click();
    await page.waitForURL(`${app.url}/ui/hooks`);
    await page.locator(`li[data-id="${id}"]`).waitFor({ state: "detached" });
    expect(await page.evaluate((id) => fetch(`/ui/api/hooks/${id}`).then((r) => r.status), id)).toBe(404);
    expect(seen.dialogs).toEqual([]);
  }, 30_000);

  test("two hooks picked in the list compare as a structural diff of headers and bodies", async () => {
    await page.goto(`${app.url}/ui/hooks?channel=shop`);
    await page.getByRole("checkbox", { name: `Compare ${ids.a}` }).check();
    await page.getByRole("checkbox", { name: `Compare ${ids.b}` }).check();
    await page.getByRole("button", { name: "Compare", exact: true }).click();
    const body = page.getByRole("table", { name: "Body (JSON) diff" });
    await body.waitFor();
    const text = await body.innerText();
    expect(text).toMatch(/order\s+~ changed\s+42\s+43/);
    expect(text).toMatch(/items\[1\]\s+− removed\s+"b"/);
    expect(text).toMatch(/customer\.vip\s+\+ added\s+true/);
    expect(await page.getByRole("table", { name: "Query diff" }).innerText()).toMatch(/retry\s+\+ added\s+"1"/);
  }, 30_000);

  test("the theme follows the system, and a choice is kept across reloads", async () => {
    const background = () => page.evaluate("getComputedStyle(document.documentElement).backgroundColor");
    await page.goto(`${app.url}/ui/channels`);
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await background();
    await page.emulateMedia({ colorScheme: "light" });
    const light = await background();
    expect(dark).not.toBe(light);
    await page.getByLabel("Theme").selectOption("dark");
    expect(await background()).toBe(dark);
    await page.reload();
    await page.getByLabel("Theme").waitFor();
    expect(await page.evaluate("document.documentElement.dataset.theme")).toBe("dark");
    expect(await background()).toBe(dark);
    await page.getByLabel("Theme").selectOption("system");
    expect(await background()).toBe(light);
  }, 30_000);
});
