import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { signIn, startInspectorApp, stop, TOKEN } from "./inspector-app";
import { axeViolations, scrollsSideways, watch } from "./sweep";

/** The Alert rules screen (admins): the file's rules read-only, a rule made, refused field by field, changed and deleted. */
describe.skipIf(!browserAvailable())("the dashboard's Alert rules screen", () => {
  let app: Running;
  let browser: Browser;

  beforeAll(async () => {
    const toml =
      `[[notifiers]]\nname = "ops"\nkind = "slack"\nurl = "https://hooks.example/services/T/B/x"\n` +
      `[[alerts]]\nname = "stripe-quiet"\nkind = "silence"\nchannels = ["signed"]\nfor = "30m"\nnotify = ["ops"]\n`;
    app = await startInspectorApp("mailroom-ui-alert-rules-", toml);
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });
  const rules = async () => (await (await fetch(`${app.url}/v1/alerts`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as any[];

  test("makes a rule with a form, shows the server's problems by field, changes and deletes it; axe-clean at two widths", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(page);
    await signIn(app, page);
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Alert rules" }).click();
    const table = page.getByRole("table", { name: "Alert rules" });
    const row = (name: string) => table.getByRole("row").filter({ hasText: name });
    await row("stripe-quiet").getByText("config file").waitFor();
    expect(await row("stripe-quiet").getByRole("button").count()).toBe(0);

    const form = page.getByRole("form", { name: "Make a rule" });
    await form.getByRole("textbox", { name: "Name", exact: true }).fill("storm");
    await form.getByRole("combobox", { name: "Kind" }).selectOption("rate");
    await form.getByRole("textbox", { name: /^Channels/ }).fill("signed");
    await form.getByRole("textbox", { name: /^Threshold/ }).fill("100");
    await form.getByRole("textbox", { name: /^Search query/ }).fill("invoice OR");
    await form.getByRole("textbox", { name: /^Notify/ }).fill("ops, pager");
    await form.getByRole("button", { name: "Make the rule" }).click();
    // The server's problems, each next to its field.
    await form.getByText("a rate rule needs window").waitFor();
    await form.getByText('unknown notifier "pager" (not in [[notifiers]])').waitFor();
    expect(await form.getByRole("textbox", { name: /^Window/ }).getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByRole("textbox", { name: /^Search query/ }).getAttribute("aria-invalid")).toBe("true");
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    }

    await form.getByRole("textbox", { name: /^Window/ }).fill("1m");
    await form.getByRole("textbox", { name: /^Search query/ }).fill("event:invoice.*");
    await form.getByRole("textbox", { name: /^Notify/ }).fill("ops");
    await form.getByRole("button", { name: "Make the rule" }).click();
    await page.getByRole("status").getByText("Rule storm was made.").waitFor();
    await row("storm").getByText("query event:invoice.*").waitFor();
    expect((await rules()).find((r) => r.name === "storm")).toMatchObject({
      kind: "rate",
      threshold: 100,
      window: "1m",
      query: "event:invoice.*",
      notify: ["ops"],
    });

    await page.getByRole("button", { name: "Change rule storm" }).click();
    const change = page.getByRole("form", { name: "Change rule storm" });
    expect(await change.getByRole("textbox", { name: /^Threshold/ }).inputValue()).toBe("100");
    await change.getByRole("textbox", { name: /^Threshold/ }).fill("5");
    await change.getByRole("textbox", { name: /^Search query/ }).fill("");
    await change.getByRole("button", { name: "Save the rule" }).click();
    await page.getByRole("status").getByText("Rule storm was changed.").waitFor();
    const changed = (await rules()).find((r) => r.name === "storm");
    expect(changed).toMatchObject({ threshold: 5, updated_by: "inspector@example.com" });
    expect(changed.query).toBeUndefined();

    await page.getByRole("button", { name: "Delete rule storm" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete the rule" }).click();
    await page.getByRole("status").getByText("Rule storm was deleted.").waitFor();
    expect((await rules()).map((r) => r.name)).toEqual(["stripe-quiet"]);
    expect(seen.dialogs).toEqual([]);
    // The one refused save is the browser's only complaint: a 400 it logs by itself.
    expect(seen.errors).toEqual([expect.stringContaining("status of 400 (Bad Request)")]);
  }, 90_000);
});
