import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { sendHook, signIn, startInspectorApp, stop, TOKEN } from "./inspector-app";
import { axeViolations, scrollsSideways, watch } from "./sweep";

const api = (app: Running, method: string, path: string, body?: unknown) =>
  fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const tagsOf = async (app: Running, id: string) =>
  ((await (await api(app, "GET", `/v1/hooks/${id}?include=extensions`)).json()) as { tags?: string[] }).tags ?? [];

/** Tags in the dashboard (docs/tags.md): chips on rows and on the hook, added and removed there, a chip filters the list. */
describe.skipIf(!browserAvailable())("the dashboard's tags", () => {
  let app: Running;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-tags-");
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("chips on rows and the hook; add, refuse, remove on the hook; a chip filters the list; axe-clean", async () => {
    const billed = await sendHook(app, "channel=shop", JSON.stringify({ invoice: 1 }), { "content-type": "application/json" });
    const plain = await sendHook(app, "channel=shop", JSON.stringify({ order: 2 }), { "content-type": "application/json" });
    expect((await api(app, "POST", `/v1/hooks/${billed}/tags`, { tags: ["billing", "big"] })).status).toBe(200);

    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(page);
    await signIn(app, page);
    await page.goto(`${app.url}/ui/hooks?channel=shop`);
    const rows = page.getByRole("list", { name: "Hooks" });
    const billedRow = rows.locator(`li[data-id="${billed}"]`);
    await billedRow.getByRole("link", { name: "Filter by tag billing" }).waitFor();
    expect(await billedRow.getByRole("list", { name: "Tags" }).getByRole("listitem").allInnerTexts()).toEqual(["big", "billing"]);
    expect(await rows.locator(`li[data-id="${plain}"]`).getByRole("list", { name: "Tags" }).count()).toBe(0);

    // On the hook's screen: a tag out of the pattern is refused before it is sent; good ones are added.
    await rows.locator(`li[data-id="${plain}"] a.row`).click();
    const hook = page.getByRole("region", { name: "Hook", exact: true });
    const input = hook.getByRole("textbox", { name: "Add tags" });
    await input.fill("a:b");
    await hook.getByRole("button", { name: "Add tag" }).click();
    await hook.getByRole("alert").getByText('"a:b" is not a tag').waitFor();
    expect(await tagsOf(app, plain)).toEqual([]);
    await input.fill("Urgent, later");
    await hook.getByRole("button", { name: "Add tag" }).click();
    await hook.getByRole("link", { name: "Filter by tag urgent" }).waitFor();
    expect(await input.inputValue()).toBe("");
    expect(await tagsOf(app, plain)).toEqual(["later", "urgent"]);
    // The row follows on the stream (the hook is sent again with its tags).
    await rows.locator(`li[data-id="${plain}"]`).getByRole("link", { name: "Filter by tag urgent" }).waitFor();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    }
    await hook.getByRole("button", { name: "Remove tag later" }).click();
    await hook.getByRole("link", { name: "Filter by tag later" }).waitFor({ state: "detached" });
    expect(await tagsOf(app, plain)).toEqual(["urgent"]);

    // A row's chip filters the list by its tag: into the search box and the URL.
    await page.goto(`${app.url}/ui/hooks?channel=shop`);
    await billedRow.getByRole("link", { name: "Filter by tag billing" }).click();
    await page.waitForURL(/q=tag%3Abilling/);
    // The box takes the URL's query on the render after (an effect): wait for it, then read it.
    await page.waitForFunction(`document.getElementById("hook-search")?.value === "tag:billing"`);
    expect(await page.getByRole("searchbox", { name: "Search hooks" }).inputValue()).toBe("tag:billing");
    await rows.locator(`li[data-id="${plain}"]`).waitFor({ state: "detached" });
    expect(
      await rows
        .getByRole("listitem")
        .filter({ has: page.locator("a.row") })
        .count(),
    ).toBe(1);
    expect(new URL(page.url()).searchParams.get("channel")).toBe("shop");
    expect(seen.errors).toEqual([]);
  }, 120_000);
});
