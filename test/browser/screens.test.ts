import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch, SHOTS } from "./browser";
import { ATTACK, sendHook, signIn, startInspectorApp, stop, TOKEN } from "./inspector-app";
import { axeViolations, scrollsSideways, watch } from "./sweep";

const LONG = "orders-created-production-eu-west-1-primary-replica-blue-green-x"; // 64 characters, the most a name may have

/** Every screen in both themes and at a phone's and a laptop's width, with hostile content; the README's screenshots. */
describe.skipIf(!browserAvailable())("every screen of the dashboard", () => {
  let app: Running;
  let browser: Browser;
  const ids: Record<string, string> = {};
  const send = (query: string, body: string | Uint8Array, headers: Record<string, string> = {}) => sendHook(app, query, body, headers);

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-screens-");
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("every screen, light and dark, at 390 and 1440 px, with hostile content: no serious or critical axe violation, no sideways page, no console error", async () => {
    // What providers send (their event types recognised), then hostile content: script in the body, a
    // header, the query, a long channel name; binary; a form; a refusal.
    ids.github = await send(
      "channel=github",
      JSON.stringify({ ref: "refs/heads/main", commits: [{ id: "9f3c2e1", message: "Fix the invoice total" }], repository: { full_name: "acme/shop" } }),
      {
        "content-type": "application/json",
        "x-github-event": "push",
        "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
      },
    );
    ids.stripe = await send(
      "channel=stripe",
      JSON.stringify({
        id: "evt_1Q2w3E",
        type: "invoice.paid",
        data: { object: { id: "in_1Q2w", amount_paid: 1990, currency: "eur", customer: "cus_Ada" } },
        livemode: false,
      }),
      { "content-type": "application/json", "stripe-signature": "t=1732611234,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd" },
    );
    ids.a = await send("channel=shop", '{"order":42,"items":["a","b"],"customer":{"name":"Ada"}}', { "content-type": "application/json" });
    const items = JSON.stringify({ items: Array.from({ length: 10_000 }, (_, i) => ({ i, sku: `SKU-${i}`, note: "x".repeat(60) })) });
    ids.big = await send("channel=files", items, { "content-type": "application/json" });
    ids.evil = await send(`channel=evil&note=${encodeURIComponent(ATTACK)}`, JSON.stringify({ [ATTACK]: ATTACK, nested: { html: ATTACK } }), {
      "content-type": "application/json",
      "x-evil": ATTACK,
    });
    ids.html = await send("channel=evil", ATTACK, { "content-type": "text/html" });
    ids.long = await send(`channel=${LONG}`, "x".repeat(3000), { "content-type": "text/plain" });
    ids.bin = await send(
      "channel=files",
      new Uint8Array(4096).map((_, i) => (i * 131 + 7) % 256),
      { "content-type": "application/octet-stream" },
    );
    ids.form = await send("channel=shop", "name=Ada&item=42&note=%3Cscript%3E", { "content-type": "application/x-www-form-urlencoded" });
    expect((await fetch(`${app.url}/?channel=signed`, { method: "POST", body: "{}", headers: { "x-sig": "forged" } })).status).toBe(401);
    const refusal = (
      (await (await fetch(`${app.url}/v1/refusals?channel=signed`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { id: string }[]
    )[0]!;
    const screens: [string, string, string][] = [
      ["hooks", "/ui/hooks", "li[data-id]"],
      ["hook", `/ui/hooks/${ids.stripe}`, "article"],
      ["hook-hostile", `/ui/hooks/${ids.evil}`, "article"],
      ["hook-html", `/ui/hooks/${ids.html}`, "article"],
      ["hook-long-channel", `/ui/hooks/${ids.long}`, "article"],
      ["hook-binary", `/ui/hooks/${ids.bin}`, "article"],
      ["hook-form", `/ui/hooks/${ids.form}`, "article"],
      ["hook-1mb", `/ui/hooks/${ids.big}`, "article"],
      ["compare", `/ui/compare?a=${ids.a}&b=${ids.evil}`, "table.diff"],
      ["channels", "/ui/channels", "table"],
      ["handlers", `/ui/channels/shop/handlers`, "form"],
      ["refusals", "/ui/refusals", "table"],
      ["refusal", `/ui/refusals/${refusal.id}`, "table"],
      ["guards", "/ui/guards", "table"],
      ["api-keys", "/ui/api-keys", "table"],
      ["users", "/ui/users", "table"],
      ["translation", "/ui/translation", "h1"],
    ];
    const problems: unknown[] = [];
    for (const theme of ["light", "dark"] as const)
      for (const width of [390, 1440]) {
        const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: theme });
        const p = await ctx.newPage();
        const watched = watch(p);
        // The sign-in screen first: its "who am I" is answered 204, which logs nothing.
        await p.goto(`${app.url}/ui/`);
        await p.getByRole("button", { name: "Sign in" }).waitFor();
        problems.push(...(await axeViolations(p)).map((v) => ({ screen: "sign-in", theme, width, ...v })));
        await signIn(app, p);
        for (const [name, path, ready] of screens) {
          await p.goto(`${app.url}${path}`);
          await p.locator(ready).first().waitFor();
          await p
            .locator("body[data-live=open]")
            .waitFor({ timeout: 2000 })
            .catch(() => undefined);
          for (const v of await axeViolations(p)) problems.push({ screen: name, theme, width, ...v });
          if (await scrollsSideways(p)) problems.push({ screen: name, theme, width, id: "page scrolls sideways" });
          if (width === 1440)
            for (const word of await brokenWords(p)) problems.push({ screen: name, theme, width, id: "a short word broken across lines", word });
          if (["hooks", "hook", "hook-hostile", "compare", "refusal"].includes(name))
            await p.screenshot({ path: join(SHOTS, `${name}-${width === 390 ? "phone" : "laptop"}-${theme}.png`), fullPage: name !== "hooks" });
        }
        expect(await p.locator("main script, main img, main iframe").count()).toBe(0);
        problems.push(...watched.errors.map((e) => ({ theme, width, console: e })), ...watched.dialogs.map((d) => ({ theme, width, dialog: d })));
        await ctx.close();
      }
    expect(problems).toEqual([]);
  }, 240_000);
});

/**
 * Short one-word cells of tables ("Method", "127.0.0.1", "Details") laid out on more than one line:
 * on a wide window a table must not shrink a column below its words to widen another.
 */
async function brokenWords(p: Page): Promise<string[]> {
  // A string: this file is typed without the DOM. Each text node's own boxes, so a badge's padding
  // box beside its text is not taken for a second line.
  return p.evaluate(`(() => {
    const broken = [];
    for (const cell of document.querySelectorAll("table:not(.kv) th, table:not(.kv) td")) {
      const text = (cell.textContent || "").trim();
      if (text === "" || /\\s/.test(text) || text.length > 16 || cell.offsetParent === null) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(text);
      }
    }
    return broken;
  })()`) as Promise<string[]>;
}
