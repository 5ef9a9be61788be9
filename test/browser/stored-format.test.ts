import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { sendHook, signIn, startInspectorApp, stop, TOKEN } from "./inspector-app";
import { bidiControls, watch } from "./sweep";

/**
 * Rows stored before the server dropped format characters (an event type, a refusal's reason
 * quoting a channel name) still hold them after an upgrade, and a body keeps them always: the
 * dashboard shows them as escapes wherever it shows their text. For the stored rows, the API's
 * answers are rewritten here as such a database would give them.
 */
const MARKER = "markerformatchars";
const STORED = `${MARKER}\u202e\u200bevil`;

describe.skipIf(!browserAvailable())("a sender's format characters on the hook and refusal screens", () => {
  let app: Running;
  let browser: Browser;

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-stored-");
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("an event type and a refusal's reason holding a right-to-left override are shown as escapes", async () => {
    const id = await sendHook(app, "channel=orders", "{}", { "content-type": "application/json", "x-github-event": MARKER });
    expect((await fetch(`${app.url}/?channel=Bad.${MARKER}`, { method: "POST", body: "{}" })).status).toBe(400);
    const [refusal] = (await (await fetch(`${app.url}/v1/refusals`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { id: string }[];

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const watched = watch(page);
    await page.route(
      (url) => url.pathname.startsWith("/ui/api/") && url.pathname !== "/ui/api/stream",
      async (route) => {
        const answer = await route.fetch();
        const text = await answer.text();
        await route.fulfill({ response: answer, body: text.replaceAll(MARKER, JSON.stringify(STORED).slice(1, -1)) });
      },
    );
    await signIn(app, page);
    const found: string[] = [];
    for (const [path, ready] of [
      ["/ui/hooks", "li[data-id]"],
      [`/ui/hooks/${id}`, "article"],
      ["/ui/refusals", "table"],
      [`/ui/refusals/${refusal!.id}`, "table"],
    ] as const) {
      await page.goto(`${app.url}${path}`);
      await page.locator(ready).first().waitFor();
      await page.getByText(MARKER).first().waitFor();
      for (const bidi of await bidiControls(page)) found.push(`${path}: ${bidi}`);
    }
    expect(found).toEqual([]);
    expect(watched.errors).toEqual([]);
    await page.close();
  }, 120_000);

  test("a text body, a JSON body shown raw and the curl command show a right-to-left override as an escape (what is copied is not changed)", async () => {
    const text = `amount: 100\u202e0001 USD\napproved`;
    const textId = await sendHook(app, "channel=orders", text, { "content-type": "text/plain" });
    const jsonId = await sendHook(app, "channel=orders", JSON.stringify({ note: "a\u202eb" }), { "content-type": "application/json" });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(app, page);
    const found: string[] = [];
    await page.goto(`${app.url}/ui/hooks/${textId}`);
    await page.getByText("approved").first().waitFor();
    await page.getByText("Copy as curl").click();
    for (const bidi of await bidiControls(page)) found.push(`text: ${bidi}`);
    await page.goto(`${app.url}/ui/hooks/${jsonId}`);
    await page.locator("article").waitFor();
    await page.getByRole("button", { name: "Raw" }).click();
    await page.locator("pre").first().waitFor();
    for (const bidi of await bidiControls(page)) found.push(`raw JSON: ${bidi}`);
    expect(found).toEqual([]);
    await page.close();
  }, 120_000);
});
