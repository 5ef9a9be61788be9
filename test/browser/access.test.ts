import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { ATTACK, sendHook, signIn, startInspectorApp, stop, TOKEN } from "./inspector-app";
import { axeViolations, scrollsSideways, watch } from "./sweep";

const serious = (violations: { impact?: string | null }[]) => violations.filter((v) => v.impact === "serious" || v.impact === "critical");

/** Access by channel in the dashboard: the users screen limits a member, who then sees only those channels. */
describe.skipIf(!browserAvailable())("the dashboard's channel limits", () => {
  let app: Running;
  let browser: Browser;

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-access-");
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("an admin adds a member limited to stripe-*, changes the limit; the member sees only those channels; axe-clean", async () => {
    await sendHook(app, "channel=stripe-live", JSON.stringify({ note: "visible" }), { "content-type": "application/json" });
    await sendHook(app, "channel=orders", JSON.stringify({ note: ATTACK }), { "content-type": "application/json" });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(page);
    await signIn(app, page);
    await page.goto(`${app.url}/ui/users`);
    await page.getByLabel("E-mail").fill("sam@example.com");
    await page.getByLabel("Password").fill("limited member pass");
    await page.getByLabel(/^Channels/).fill("github, stripe-*");
    await page.getByRole("button", { name: "Add user" }).click();
    const row = page.getByRole("row").filter({ hasText: "sam@example.com" });
    await row.getByText("github, stripe-*").waitFor();
    await row.getByRole("button", { name: "Edit channels" }).click();
    await row.getByLabel("Channels of sam@example.com").fill("stripe-*");
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect(serious(await axeViolations(page))).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    }
    await row.getByRole("button", { name: "Save channels" }).click();
    await row.getByRole("cell", { name: /^stripe-\*/ }).waitFor();
    expect(seen.errors).toEqual([]);

    const other = await browser.newContext();
    const member = await other.newPage();
    await member.goto(`${app.url}/ui/`);
    await member.getByLabel("E-mail").fill("sam@example.com");
    await member.getByLabel("Password").fill("limited member pass");
    await member.getByRole("button", { name: "Sign in" }).click();
    await member.getByRole("button", { name: "Sign out" }).waitFor();
    await member.goto(`${app.url}/ui/hooks`);
    // The channel filter offers its channels only, the list shows its hook only.
    await member.getByRole("option", { name: "stripe-live" }).waitFor({ state: "attached" });
    await member
      .getByText(/visible/)
      .first()
      .waitFor();
    expect(await member.getByRole("option", { name: "orders" }).count()).toBe(0);
    expect(await member.content()).not.toContain("orders");
    await other.close();
  }, 120_000);

  test("Share on a hook and on a view makes a link that opens read-only without signing in, until revoked; axe-clean", async () => {
    const id = await sendHook(app, "channel=shared", JSON.stringify({ note: ATTACK }), { "content-type": "application/json", "x-evil": ATTACK });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(page);
    await signIn(app, page);
    await page.goto(`${app.url}/ui/hooks/${id}`);
    await page.getByRole("button", { name: "Share this hook (a read-only link)" }).click();
    const url = await page.getByRole("textbox", { name: "Share link" }).inputValue();
    expect(url).toMatch(new RegExp(`^${app.url}/ui/share/mrl_[\\w-]{43}$`));
    expect(serious(await axeViolations(page))).toEqual([]);

    const stranger = await browser.newContext();
    const shared = await stranger.newPage();
    const strangerSeen = watch(shared);
    await shared.goto(url);
    await shared.getByRole("heading", { name: "Shared hook" }).waitFor();
    await shared.getByText("shared", { exact: true }).first().waitFor();
    // The hostile header and body are shown as text, nothing runs; nothing of the dashboard is there.
    await shared.getByRole("table", { name: "Headers" }).getByText(ATTACK).waitFor();
    expect(await shared.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    expect(await shared.getByRole("navigation").count()).toBe(0);
    for (const width of [390, 1280]) {
      await shared.setViewportSize({ width, height: 800 });
      expect(serious(await axeViolations(shared))).toEqual([]);
      expect(await scrollsSideways(shared)).toBe(false);
    }

    // A saved view's link.
    const views = await fetch(`${app.url}/v1/views`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "shared-ones", query: "channel:shared", shared: true }),
    });
    expect(views.status).toBe(200);
    await page.goto(`${app.url}/ui/hooks?view=shared-ones`);
    await page.getByRole("button", { name: "Share the view shared-ones (a read-only link)" }).click();
    const viewUrl = await page.getByRole("textbox", { name: "Share link" }).inputValue();
    await shared.goto(viewUrl);
    await shared.getByRole("heading", { name: "Shared view shared-ones" }).waitFor();
    await shared.getByText(/1 newest hook/).waitFor();
    expect(serious(await axeViolations(shared))).toEqual([]);

    // Listed for the admin on the API keys screen; revoked there, the page says the link is gone.
    await page.goto(`${app.url}/ui/api-keys`);
    const table = page.getByRole("table", { name: "Share links" });
    await table.getByText(`hook ${id}`).waitFor();
    await table.getByText("view shared-ones").waitFor();
    expect(serious(await axeViolations(page))).toEqual([]);
    await table
      .getByRole("row")
      .filter({ hasText: `hook ${id}` })
      .getByRole("button", { name: "Revoke" })
      .click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke the link" }).click();
    await table.getByText(`hook ${id}`).waitFor({ state: "detached" });
    await shared.goto(url);
    await shared.getByRole("heading", { name: "Link not found" }).waitFor();
    // The view's link still opens until it is revoked too.
    await shared.goto(viewUrl);
    await shared.getByRole("heading", { name: "Shared view shared-ones" }).waitFor();
    expect(seen.errors).toEqual([]);
    expect(strangerSeen.errors.filter((e) => !/404|401/.test(e))).toEqual([]);
    await stranger.close();
  }, 120_000);
});
