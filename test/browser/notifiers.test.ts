import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { signIn, startInspectorApp, stop } from "./inspector-app";
import { axeViolations, scrollsSideways, watch } from "./sweep";

/** The Notifiers screen (admins): where each sends without its secret, "Send a test" reaching a local receiver, a failure said. */
describe.skipIf(!browserAvailable())("the dashboard's Notifiers screen", () => {
  let app: Running;
  let browser: Browser;
  const got: string[] = [];
  const receiver = Bun.serve({
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname.startsWith("/down")) return new Response("no", { status: 502 });
      got.push(await req.text());
      return new Response("ok");
    },
  });
  const base = `http://127.0.0.1:${receiver.port}`;

  beforeAll(async () => {
    const toml =
      `[[notifiers]]\nname = "ops-slack"\nkind = "slack"\nurl = "${base}/services/T1/B1/sEcReTtOkEn"\n` +
      `[[notifiers]]\nname = "pager"\nkind = "teams"\nurl = "${base}/down/another-secret"\n`;
    app = await startInspectorApp("mailroom-ui-notifiers-", toml);
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await stop(app, browser);
    receiver.stop(true);
    removeTempDirs();
  });

  test("lists the notifiers without secrets, sends a test, says why one failed; axe-clean at two widths", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(page);
    await signIn(app, page);
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Notifiers" }).click();
    const table = page.getByRole("table", { name: "Notifiers" });
    await table.getByText("ops-slack").waitFor();
    expect(await table.getByText(`${base}/…`).count()).toBe(2);
    expect(await page.content()).not.toContain("sEcReTtOkEn");
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    }

    await page.getByRole("button", { name: "Send a test through ops-slack" }).click();
    await page.getByRole("status").getByText("A test notice was sent through ops-slack.").waitFor();
    expect(JSON.parse(got[0]!).text).toContain('A test from Mailroom\'s notifier "ops-slack"');
    await page.getByRole("button", { name: "Send a test through pager" }).click();
    await page.getByRole("status").getByText("pager could not send the test: HTTP 502").waitFor();
    await table.getByRole("row").filter({ hasText: "pager" }).getByText("HTTP 502").waitFor();
    expect(seen.dialogs).toEqual([]);
    expect(seen.errors).toEqual([]);
  }, 90_000);
});
