import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { sendHook, signIn, startInspectorApp, stop } from "./inspector-app";
import { watch } from "./sweep";

/** What the inspector does with the server's search, refusals, replay and send: the query in the URL, refusal details, edit and send. */
describe.skipIf(!browserAvailable())("the inspector with the server's search, refusals and sending", () => {
  let app: Running;
  let browser: Browser;
  let page: Page;
  let seen: ReturnType<typeof watch>;
  const ids: Record<string, string> = {};
  const json = { "content-type": "application/json" };

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-search-");
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    seen = watch(page);
    await signIn(app, page);
    ids.paid = await sendHook(app, "channel=stripe", '{"type":"invoice.paid","data":{"customer":"cus_ada"}}', json);
    ids.push = await sendHook(app, "channel=github", '{"ref":"refs/heads/main"}', { ...json, "x-github-event": "push" });
    ids.failed = await sendHook(app, "channel=stripe", '{"type":"invoice.payment_failed","data":{"customer":"cus_bob"}}', json);
  }, 120_000);

  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  const shown = () => page.locator("li[data-id]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-id")));

  test("the search box's query lives in the URL as q and is what the list asks the server", async () => {
    await page.goto(`${app.url}/ui/hooks`);
    await page.locator(`li[data-id="${ids.failed}"]`).waitFor();
    // No saved view and no search to save: no views box above the list.
    const views = page.getByRole("complementary", { name: "Saved views" });
    expect(await views.count()).toBe(0);
    await page.keyboard.press("/");
    await page.keyboard.type("cus_ada");
    await page.waitForURL((u) => u.searchParams.get("q") === "cus_ada");
    // A search to save: the box offers it.
    await views.getByRole("button", { name: "Save this search" }).waitFor();
    await page.locator(`li[data-id="${ids.failed}"]`).waitFor({ state: "detached" });
    expect(await shown()).toEqual([ids.paid]);
    // A field term, from a link: the view is the URL.
    await page.goto(`${app.url}/ui/hooks?q=${encodeURIComponent("payload.data.customer:cus_bob")}`);
    await page.locator(`li[data-id="${ids.failed}"]`).waitFor();
    expect(await shown()).toEqual([ids.failed]);
    expect(await page.getByRole("searchbox", { name: "Search hooks" }).inputValue()).toBe("payload.data.customer:cus_bob");
    // The event type filter: the github hook says it is a push.
    await page.goto(`${app.url}/ui/hooks?type=push`);
    await page.locator(`li[data-id="${ids.push}"]`).waitFor();
    expect(await shown()).toEqual([ids.push]);
    expect(await page.locator(`li[data-id="${ids.push}"]`).innerText()).toContain("github · push");
  }, 30_000);

  test("a hook's screen asks for the event type (an extension field) and keeps it when a transition answers the plain Hook", async () => {
    await page.goto(`${app.url}/ui/hooks/${ids.push}`);
    const heading = page.locator("article .hook-head h1");
    await heading.getByText("push").waitFor();
    await page.getByRole("button", { name: "Discard" }).click();
    await page.locator("article .hook-head .status-discarded").waitFor();
    expect(await heading.innerText()).toBe("github · push");
    expect(seen.errors).toEqual([]);
  }, 30_000);

  test("Save as fixture downloads the hook as a scrubbed fixture file named after its provider and event", async () => {
    const id = await sendHook(app, "channel=stripe", '{"type":"invoice.paid","data":{"email":"ada@example.org"}}', {
      ...json,
      "stripe-signature": "t=1,v1=00",
    });
    await page.goto(`${app.url}/ui/hooks/${id}`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Save as fixture" }).click()]);
    expect(download.suggestedFilename()).toBe("stripe-invoice-paid.json");
    const text = await Bun.file((await download.path())!).text();
    const file = JSON.parse(text);
    expect(file).toMatchObject({ mailroom_fixture: 1, provider: "stripe", event_type: "invoice.paid", body_encoding: "json" });
    expect(file.body.data.email).toBe("email-1@example.com");
    expect(text).not.toContain("ada@example.org");
    expect(file.headers["stripe-signature"]).toBeUndefined();
    expect(seen.errors).toEqual([]);
  }, 30_000);

  test("every refusal is listed, a bad channel name and a paused channel too, each with a link to its headers, secrets redacted", async () => {
    const forged = await fetch(`${app.url}/?channel=signed`, { method: "POST", body: "{}", headers: { "x-sig": "forged", authorization: "Bearer hunter2" } });
    expect(forged.status).toBe(401);
    expect((await fetch(`${app.url}/?channel=Not_Valid!`, { method: "POST", body: "{}" })).status).toBe(400);
    await page.goto(`${app.url}/ui/refusals`);
    const table = page.getByRole("table", { name: "Refusals" });
    await table.getByRole("row", { name: /signed 401 sig/ }).waitFor();
    await table.getByRole("row", { name: /400/ }).waitFor();
    await table
      .getByRole("row", { name: /signed 401 sig/ })
      .getByRole("link", { name: /Details/ })
      .click();
    const headers = page.getByRole("table", { name: "Headers" });
    await headers.waitFor();
    expect(await headers.innerText()).toMatch(/authorization\s+\[redacted\]/);
    expect(await page.locator("main").innerText()).not.toContain("hunter2");
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toContain("refused on signed");
  }, 30_000);

  test("edit and send: into a channel as a new hook that links to its source, and to a URL with its answer shown", async () => {
    const received: { method: string; body: string; header: string | null }[] = [];
    const target = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => {
        received.push({ method: req.method, body: await req.text(), header: req.headers.get("x-edited") });
        return new Response('{"ok":true}', { status: 202, headers: { "content-type": "application/json", "x-answer": "yes" } });
      },
    });
    try {
      await page.goto(`${app.url}/ui/hooks/${ids.paid}`);
      await page.getByRole("button", { name: "Edit and send" }).click();
      const form = page.getByRole("form", { name: "Edit and send" });
      await form.getByLabel("Headers").fill("content-type: application/json\nx-edited: 1");
      await form.getByLabel("Body").fill('{"type":"invoice.paid","edited":true}');
      await form.getByLabel("URL", { exact: true }).fill(`http://127.0.0.1:${target.port}/hooks`);
      await form.getByRole("button", { name: "Send to the URL" }).click();
      const answer = page.getByRole("region", { name: "Answer body" });
      await answer.waitFor();
      expect(await answer.innerText()).toContain('"ok": true');
      expect(await page.getByRole("table", { name: "Answer headers" }).innerText()).toMatch(/x-answer\s+yes/);
      expect(received).toEqual([{ method: "POST", body: '{"type":"invoice.paid","edited":true}', header: "1" }]);

      await form.getByLabel("a channel (a new hook)").check();
      await form.getByLabel("Channel", { exact: true }).fill("staging");
      await form.getByRole("button", { name: "Send into the channel" }).click();
      await page.waitForURL((u) => /^\/ui\/hooks\/[0-9a-z]{26}$/.test(u.pathname) && !u.pathname.endsWith(ids.paid!));
      const made = page.locator("article");
      await made.getByRole("link", { name: ids.paid }).waitFor();
      expect(await made.locator("h1").innerText()).toContain("staging");
      await page.getByRole("button", { name: "Raw" }).click();
      expect(await page.getByRole("region", { name: "Body" }).innerText()).toContain('"edited": true');
    } finally {
      target.stop(true);
    }
    expect(seen.dialogs).toEqual([]);
  }, 30_000);
});
