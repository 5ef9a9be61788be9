import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { axeViolations } from "./sweep";
import { ATTACK, sendHook, signIn, startInspectorApp, stop, TOKEN } from "./inspector-app";

/** A hook's contract check on its page: the badge, and the violations with their JSON path (docs/contracts.md). */
describe.skipIf(!browserAvailable())("contract checks in the dashboard", () => {
  let app: Running;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-contracts-");
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await signIn(app, page);
  }, 120_000);
  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("an invalid GitHub event shows its badge and its violations, the path highlighted; hostile text stays text", async () => {
    const body = JSON.stringify({ action: "opened", issue: { number: ATTACK }, repository: {}, sender: {} });
    const id = await sendHook(app, "channel=gh", body, { "content-type": "application/json", "x-github-event": "issues" });
    // The check runs after the answer: the page is opened once it is kept.
    for (;;) {
      const hook = (await (await fetch(`${app.url}/v1/hooks/${id}?include=extensions`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
        contract?: unknown;
      };
      if (hook.contract) break;
      await Bun.sleep(20);
    }
    await page.goto(`${app.url}/ui/hooks/${id}`);
    const violations = page.getByRole("region", { name: "Schema violations" });
    await violations.waitFor();
    expect(await page.locator(".hook-head").innerText()).toContain("schema invalid");
    expect(await page.locator(".hook-head").innerText()).toContain("new type");
    expect(await violations.locator(".json-path").first().innerText()).toMatch(/^\/issue\//);
    expect(await page.evaluate('document.querySelectorAll("img[src=x]").length')).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // The list's row carries the same badge (its summary asks for the extensions); a hook of a channel without schemas shows none.
    await sendHook(app, "channel=plain", '{"type":"x"}', { "content-type": "application/json" });
    await page.goto(`${app.url}/ui/hooks`);
    const rows = page.getByRole("list", { name: "Hooks" });
    await rows.locator(`li[data-id="${id}"]`).getByText("schema invalid").waitFor();
    expect(await rows.locator(`li[data-id="${id}"]`).innerText()).toContain("new type");
    expect(await rows.locator("li").filter({ hasText: "plain" }).first().innerText()).not.toContain("schema");
    expect(await axeViolations(page)).toEqual([]);
  }, 60_000);
});
