import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { eventually } from "../helpers/target";
import { browserAvailable, launch } from "./browser";
import { ADMIN, ATTACK, sendHook, signIn, startInspectorApp, stop, TOKEN } from "./inspector-app";
import { axeViolations, scrollsSideways, watch } from "./sweep";

const RULES =
  `[[alerts]]\nname = "failing"\nkind = "handler"\nchannels = ["jobs"]\n` + `[[alerts]]\nname = "new-types"\nkind = "new_event_type"\nchannels = ["evil"]\n`;

/** The Issues screen: the badge, the issues the rules opened (hostile event types shown as text), acknowledge, resolve, retry the failed hooks. */
describe.skipIf(!browserAvailable())("the dashboard's Issues screen", () => {
  let app: Running;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-issues-", RULES);
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("a badge counts the open issues; the screen acknowledges, resolves and retries the failed hooks; axe-clean at two widths", async () => {
    const failed = await sendHook(app, "channel=jobs", '{"job":1}', { "content-type": "application/json" });
    const res = await fetch(`${app.url}/v1/hooks/${failed}/fail`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ message: "the job crashed" }),
    });
    expect(res.status).toBe(200);
    await sendHook(app, "channel=evil", JSON.stringify({ type: ATTACK }), { "content-type": "application/json" });

    // The rules run every second: both issues are open before the page is.
    await eventually("two issues", async () => {
      const list = (await (await fetch(`${app.url}/v1/issues`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as unknown[];
      return list.length === 2 || undefined;
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(page);
    await signIn(app, page);
    const nav = page.getByRole("navigation", { name: "Screens" });
    await nav.getByRole("link", { name: /Issues\W+2 open/ }).waitFor();
    await nav.getByRole("link", { name: /Issues/ }).click();
    const list = page.getByRole("list", { name: "Issues" });
    await list.getByText("1 hooks on jobs failed in a row").waitFor();
    await list.getByText(`first hook of event type ${ATTACK} on evil`).waitFor();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    }

    const failing = list.getByRole("listitem").filter({ hasText: "on jobs failed" });
    await failing.getByRole("button", { name: "Retry all failed" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Retry them" }).click();
    await failing.getByText("Retried 1 hook(s).").waitFor();
    const hook = (await (await fetch(`${app.url}/v1/hooks/${failed}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { status: string };
    expect(hook.status).toBe("pending");

    const fresh = list.getByRole("listitem").filter({ hasText: "first hook of event type" });
    await fresh.getByRole("button", { name: "Acknowledge" }).click();
    await fresh.getByText(`acknowledged by ${ADMIN.email}`).waitFor();
    await nav.getByRole("link", { name: /Issues\W+1 open/ }).waitFor();
    await failing.getByRole("button", { name: "Resolve" }).click();
    await failing.getByText(`resolved by ${ADMIN.email}`).waitFor();
    await nav.getByRole("link", { name: "Issues", exact: true }).waitFor();
    expect(seen.dialogs).toEqual([]);
    expect(seen.errors).toEqual([]);
  }, 90_000);
});
