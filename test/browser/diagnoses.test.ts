import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { ADMIN, signIn, startInspectorApp, stop, TOKEN } from "./inspector-app";
import { axeViolations } from "./sweep";

const GUARDS =
  `[[guards]]\nname = "gh-main"\nkind = "github"\nsecret = "right-secret-8f2a"\n` +
  `[[guards]]\nname = "gh-old"\nkind = "github"\nsecret = "other-secret-77c1"\n` +
  `[[channels]]\nname = "gh"\nguards = ["gh-main"]\n[[channels]]\nname = "old"\nguards = ["gh-old"]\n` +
  `[[users]]\nemail = "member@example.com"\nrole = "member"\npassword_env = "ADMIN_PASSWORD"\n`;
const BODY = '{"action":"opened","issue":{"title":"<img src=x onerror=alert(1)>"}}';
const SIGNATURE = `sha256=${createHmac("sha256", "other-secret-77c1").update(BODY).digest("hex")}`;

/** The refusals screen with a signature's diagnosis, and "Diagnose again" (docs/diagnoses.md). */
describe.skipIf(!browserAvailable())("diagnoses in the dashboard", () => {
  let app: Running;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-diagnoses-", GUARDS);
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await signIn(app, page);
  }, 120_000);
  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("a refusal by another guard's secret says so in the list and on its page; Diagnose again answers the same", async () => {
    const headers = { "content-type": "application/json", "x-github-event": "issues", "x-hub-signature-256": SIGNATURE };
    expect((await fetch(`${app.url}/?channel=gh`, { method: "POST", body: BODY, headers })).status).toBe(401);
    const [refusal] = (await (await fetch(`${app.url}/v1/refusals?channel=gh`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
      id: string;
    }[];

    await page.goto(`${app.url}/ui/refusals`);
    const table = page.getByRole("table", { name: "Refusals" });
    await table.getByText('Why: The signature was made with the secret of guard "gh-old"').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("link", { name: `Details of the refusal ${refusal!.id}` }).click();
    await page.getByRole("heading", { name: "Why the signature failed" }).waitFor();
    const why = page.locator("h2:text('Why the signature failed') + p");
    expect(await why.innerText()).toContain('guard "gh-old"');
    expect(await why.innerText()).toContain("wrong_secret");
    // The signature shows [redacted]: the diagnosis says what is wrong with it.
    expect(await page.content()).not.toContain(SIGNATURE.slice(7));
    expect(await page.getByRole("table", { name: "Headers" }).innerText()).toContain("[redacted]");
    expect(await axeViolations(page)).toEqual([]);

    const again = page.waitForResponse((r) => r.url().endsWith(`/ui/api/refusals/${refusal!.id}/diagnose`) && r.request().method() === "POST");
    await page.getByRole("button", { name: "Diagnose again" }).click();
    expect((await again).status()).toBe(200);
    await page.getByRole("button", { name: "Diagnose again" }).and(page.locator(":enabled")).waitFor();
    expect(await why.innerText()).toContain('guard "gh-old"');
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // A member reads the diagnosis but is not offered what the server would refuse them.
    const member = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await member.goto(`${app.url}/ui/`);
    await member.getByLabel("E-mail").fill("member@example.com");
    await member.getByLabel("Password").fill(ADMIN.password);
    await member.getByRole("button", { name: "Sign in" }).click();
    await member.getByRole("button", { name: "Sign out" }).waitFor();
    await member.goto(`${app.url}/ui/refusals/${refusal!.id}`);
    await member.getByRole("heading", { name: "Why the signature failed" }).waitFor();
    expect(await member.getByRole("button", { name: "Diagnose again" }).count()).toBe(0);
    expect(await axeViolations(member)).toEqual([]);
  }, 60_000);
});
