import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch, SHOTS } from "./browser";
import { ATTACK, sendHook, signIn, startInspectorApp, stop, TOKEN } from "./inspector-app";
import { axeViolations, bidiControls, clippedNames, documentScrollsSideways, watch } from "./sweep";

// Names at their longest, with nothing to break a line at: 64 characters, the most a name may have.
const CHANNEL = "notificationsfromthewarehouseintegrationandtherefundsqueueofshop";
const GUARD = "signaturecheckofthewarehouseintegrationforeverywebhookitsendsusx";
const HANDLER = "forwardtothebillingserviceofthewarehouseintegrationinproductionx";
const KEY = "relaykeyofthelaptopthatlistensforthewarehouseintegrationchannels";
const EMAIL = `${"averyveryverylongname".repeat(3)}@${"subdomainofacompany".repeat(4)}.example.com`;
const EVENT = "installation_repositories.added_by_the_organisation_owner_on_behalf_of_someone_else";
// Hostile text a sender controls: right-to-left override, zero-width characters, markup.
const RTL = `\u202e\u200b<b>refused</b>\u200d${"channelnamefromasender".repeat(5)}`;
// The screens' links: each in sight, none scrolled off the side.
const NAV = ["Hooks", "Channels", "Refusals", "Translation", "Guards", "API keys", "Users"];
const NAMES = [CHANNEL, GUARD, HANDLER, KEY, EMAIL, EVENT, "channelnamefromasenderchannelname", ...NAV];

/** Every screen at a phone's width (390 px), light and dark, with hostile content: nothing scrolls the page sideways or cuts a name off. */
describe.skipIf(!browserAvailable())("every screen on a phone", () => {
  let app: Running;
  let browser: Browser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startInspectorApp(
      "mailroom-ui-narrow-",
      `[[translate.accounts]]\nid = 7\nbalance = 100\napi_keys = ["customer-key-0123456789"]\n` +
        `[[guards]]\nname = "meta"\nkind = "meta"\nsecret = "meta-app-secret"\nverify_token = "my-verify-token"\n` +
        `[[channels]]\nname = "meta"\nguards = ["meta"]\n`,
    );
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  /** Sets up, through the dashboard's own API, what the admin screens list: all of it named at the longest. */
  async function seed(page: Page) {
    const calls: [string, string, unknown][] = [
      ["POST", "/guards", { name: GUARD, kind: "hmac", settings: { header: "x-warehouse-signature-of-the-whole-body" }, secret: "s3cret-s3cret" }],
      ["PUT", "/channels/guarded/guards", { guards: [GUARD] }],
      [
        "POST",
        `/channels/${CHANNEL}/handlers`,
        {
          name: HANDLER,
          url: `https://billing.example.com/${"hooks".repeat(60)}`,
          headers: { "x-a-rather-long-header-name-for-a-token": "t" },
          when: `type:invoice.payment_succeeded payload.data.object.${"nested".repeat(20)}:false`,
          rate: "600/m",
          breaker: { failures: 5, cool_down: "30s" },
        },
      ],
      ["PUT", `/channels/${CHANNEL}/response`, { status: 202, headers: { "x-from-mailroom-with-a-long-name": "v".repeat(300) }, body: ATTACK }],
      ["POST", "/api-keys", { label: KEY, scopes: ["relay"], channels: [CHANNEL] }],
      ["POST", "/users", { email: EMAIL, role: "member", password: "a long member password" }],
    ];
    for (const [method, path, body] of calls) {
      const status = await page.evaluate(
        ([m, p, b]) => fetch(`/ui/api${p}`, { method: m, headers: { "content-type": "application/json" }, body: JSON.stringify(b) }).then((r) => r.status),
        [method, path, body] as const,
      );
      expect([path, status]).toEqual([path, 200]);
    }
  }

  test("390 px, light and dark: no sideways page, no name cut off, no serious axe violation, no console error", async () => {
    ids.event = await sendHook(app, `channel=${CHANNEL}&note=${encodeURIComponent(ATTACK)}`, JSON.stringify({ order: 1 }), {
      "content-type": "application/json",
      "x-github-event": EVENT,
      "x-long-header-value": "v".repeat(1500),
      [`x-${"long-header-name-".repeat(6)}end`]: "1",
    });
    ids.rtl = await sendHook(
      app,
      `channel=${CHANNEL}`,
      JSON.stringify({ type: RTL, [ATTACK]: RTL, nested: { deeper: { html: ATTACK, long: "w".repeat(2000) } } }),
      {
        "content-type": "application/json",
      },
    );
    await sendHook(app, "channel=guarded", "{}", { "content-type": "application/json" });
    expect((await fetch(`${app.url}/?channel=${encodeURIComponent(RTL)}`, { method: "POST", body: "{}" })).status).toBe(400);
    expect((await fetch(`${app.url}/?channel=meta&hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=my-verify-token`)).status).toBe(200);
    expect(
      (await fetch(`${app.url}/?channel=signed`, { method: "POST", body: "{}", headers: { "x-sig": "forged", "x-long-header-value": "v".repeat(1500) } }))
        .status,
    ).toBe(401);
    const refusals = (await (await fetch(`${app.url}/v1/refusals`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
      id: string;
      status: number;
    }[];
    const order = await fetch(`${app.url}/v1/translate`, {
      method: "POST",
      headers: { authorization: "Bearer customer-key-0123456789", "content-type": "application/json" },
      body: JSON.stringify({ source_language: "en", target_languages: ["de"], text: `${RTL} ${ATTACK} ${"untranslatable".repeat(20)}` }),
    });
    const orderId = ((await order.json()) as { orders: { id: number }[] }).orders[0]!.id;

    /** Each screen: its path, what shows it is ready, and what to do there first (open a form or dialog). */
    const screens: [string, string, string, ((p: Page) => Promise<void>)?][] = [
      ["hooks", "/ui/hooks", "li[data-id]"],
      ["hooks-filtered", `/ui/hooks?channel=${CHANNEL}`, "li[data-id]"],
      [
        "hooks-two-selected",
        "/ui/hooks",
        "li[data-id]",
        (p) =>
          p
            .locator("li[data-id] input[type=checkbox]")
            .first()
            .check()
            .then(() => p.locator("li[data-id] input[type=checkbox]").nth(1).check()),
      ],
      ["hook", `/ui/hooks/${ids.event}`, "article"],
      ["hook-edit-send", `/ui/hooks/${ids.event}`, "article", (p) => p.getByRole("button", { name: "Edit and send" }).click()],
      ["hook-fail-dialog", `/ui/hooks/${ids.event}`, "article", (p) => p.getByRole("button", { name: "Fail", exact: true }).click()],
      ["hook-delete-dialog", `/ui/hooks/${ids.rtl}`, "article", (p) => p.getByRole("button", { name: "Delete", exact: true }).click()],
      ["hook-rtl", `/ui/hooks/${ids.rtl}`, "article"],
      ["compare", `/ui/compare?a=${ids.event}&b=${ids.rtl}`, "table.diff"],
      ["channels", "/ui/channels", "h1"],
      ["channel-response-form", "/ui/channels", "h1", (p) => p.getByRole("button", { name: `Edit response of ${CHANNEL}` }).click()],
      ["channel-delete", "/ui/channels", "h1", (p) => p.getByRole("button", { name: `Delete ${CHANNEL}` }).click()],
      ["handlers", `/ui/channels/${CHANNEL}/handlers`, "form", (p) => p.getByRole("button", { name: "Add handler" }).click()],
      ["refusals", "/ui/refusals", "h1"],
      ...refusals.map((r): [string, string, string] => [`refusal-${r.status}`, `/ui/refusals/${r.id}`, "table"]),
      ["guards", "/ui/guards", "table"],
      ["guard-form-errors", "/ui/guards", "table", (p) => p.getByRole("button", { name: "Create guard" }).click()],
      ["api-keys", "/ui/api-keys", "table"],
      ["users", "/ui/users", "table"],
      ["translation", "/ui/translation", "h1"],
      ["translation-account", "/ui/translation/accounts/7", "h1"],
      ["translation-order", `/ui/translation/orders/${orderId}`, "h1"],
      ["translation-queue", "/ui/translation/queue", "h1"],
    ];
    const problems: unknown[] = [];
    for (const theme of ["light", "dark"] as const) {
      const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: theme });
      const p = await ctx.newPage();
      const watched = watch(p);
      const check = async (screen: string) => {
        for (const v of await axeViolations(p)) problems.push({ screen, theme, ...v });
        if (await documentScrollsSideways(p)) problems.push({ screen, theme, problem: "the page scrolls sideways" });
        for (const cut of await clippedNames(p, NAMES)) problems.push({ screen, theme, cut });
        for (const bidi of await bidiControls(p)) problems.push({ screen, theme, bidi });
      };
      for (const [screen, path] of [
        ["sign-in", "/ui/"],
        ["setup", "/ui/setup"],
      ]) {
        await p.goto(`${app.url}${path}`);
        await p.locator("h1").first().waitFor();
        await check(screen!);
      }
      await signIn(app, p);
      if (theme === "light") await seed(p);
      for (const [screen, path, ready, act] of screens) {
        await p.goto(`${app.url}${path}`);
        await p.locator(ready).first().waitFor();
        await act?.(p);
        await check(screen);
        if (screen === "channels") await p.screenshot({ path: join(SHOTS, `channels-phone-${theme}.png`), fullPage: true });
      }
      problems.push(...watched.errors.map((e) => ({ theme, console: e })), ...watched.dialogs.map((d) => ({ theme, dialog: d })));
      await ctx.close();
    }
    expect(problems).toEqual([]);
  }, 240_000);

  test("the header is one row on a phone: the screens behind Menu, every one in sight once opened, closed by a move", async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const p = await ctx.newPage();
    const watched = watch(p);
    await signIn(app, p);
    const menu = p.getByRole("button", { name: /^Menu/ });
    const signOut = p.getByRole("button", { name: "Sign out" });
    const brand = p.locator("header.top .brand");
    const top = async (l: typeof menu) => Math.round((await l.boundingBox())!.y + (await l.boundingBox())!.height / 2);
    expect(await top(menu)).toBe(await top(brand));
    expect(await top(signOut)).toBe(await top(brand));
    const screens = p.getByRole("navigation", { name: "Screens" });
    expect(await screens.isVisible()).toBe(false);
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect((await p.locator("header.top").boundingBox())!.height).toBeLessThan(70);

    await menu.click();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    for (const name of [...NAV, "Issues", "Alert rules", "Notifiers"])
      expect([name, await screens.getByRole("link", { name: new RegExp(`^${name}\\b`) }).isVisible()]).toEqual([name, true]);
    expect(await clippedNames(p, NAV)).toEqual([]);
    expect(await p.getByLabel("Theme").isVisible()).toBe(true);
    expect(await axeViolations(p)).toEqual([]);
    await screens.getByRole("link", { name: "Users", exact: true }).click();
    await p.waitForURL(/\/ui\/users$/);
    expect(await screens.isVisible()).toBe(false);
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    // Focus goes back to the Menu button, not to a hidden link; the current screen's link closes it too.
    expect(await menu.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await menu.click();
    await screens.getByRole("link", { name: "Users", exact: true }).click();
    expect(await screens.isVisible()).toBe(false);
    await p.screenshot({ path: join(SHOTS, "header-phone.png") });
    expect(watched.errors).toEqual([]);
    await ctx.close();
  }, 60_000);

  test("a provider's handshake answered is told apart from the refusals, with a filter, in the list and its details", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p = await ctx.newPage();
    const watched = watch(p);
    await signIn(app, p);
    // A refusal and a handshake answered on the same channel: Meta's hub.challenge, with a wrong and the right verify_token.
    expect((await fetch(`${app.url}/?channel=meta&hub.mode=subscribe&hub.challenge=42&hub.verify_token=guess`)).status).toBe(403);
    expect((await fetch(`${app.url}/?channel=meta&hub.mode=subscribe&hub.challenge=43&hub.verify_token=my-verify-token`)).status).toBe(200);
    await p.goto(`${app.url}/ui/refusals`);
    await p.getByText("200 handshake answered").first().waitFor();
    await p.screenshot({ path: join(SHOTS, "refusals-kinds.png") });
    await p.goto(`${app.url}/ui/refusals?channel=meta`);
    const rows = p.getByRole("table", { name: "Refusals" }).locator("tbody tr");
    await rows.nth(1).waitFor();
    expect(await rows.nth(0).getByText("handshake answered").count()).toBe(1);
    expect(await rows.nth(0).locator(".status").innerText()).toBe("200 handshake answered");
    expect(await rows.filter({ hasText: "wrong verify_token" }).locator(".status").innerText()).toBe("403");
    await p.getByLabel("Kind").selectOption("handshake");
    await p.waitForURL(/kind=handshake/);
    await rows.filter({ hasText: "wrong verify_token" }).waitFor({ state: "detached" });
    expect(await rows.locator(".status").allInnerTexts()).toEqual(expect.arrayContaining(["200 handshake answered"]));
    await p.getByLabel("Kind").selectOption("refused");
    await rows.filter({ hasText: "wrong verify_token" }).waitFor();
    expect(await rows.filter({ hasText: "handshake answered" }).count()).toBe(0);
    await p.getByLabel("Kind").selectOption("handshake");
    await rows
      .first()
      .getByRole("link", { name: /Details/ })
      .click();
    await p.getByRole("heading", { name: "GET handshake answered on meta" }).waitFor();
    expect(watched.errors).toEqual([]);
    await ctx.close();
  }, 60_000);

  test("deleting a channel asks in the page first, saying how many hooks go; Cancel keeps it", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p = await ctx.newPage();
    const watched = watch(p);
    await signIn(app, p);
    await sendHook(app, "channel=doomed", "{}", { "content-type": "application/json" });
    await p.goto(`${app.url}/ui/channels`);
    await p.getByRole("button", { name: "Delete doomed" }).click();
    expect(await p.getByRole("dialog", { name: "Delete channel doomed?" }).innerText()).toContain("Its 1 hook(s) and their events go for good.");
    await p.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await p.getByRole("dialog").waitFor({ state: "detached" });
    expect((await fetch(`${app.url}/v1/channels/doomed`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    await p.getByRole("button", { name: "Delete doomed" }).click();
    await p.getByRole("dialog").getByRole("button", { name: "Delete the channel" }).click();
    await p.getByRole("link", { name: "doomed", exact: true }).waitFor({ state: "detached" });
    expect((await fetch(`${app.url}/v1/channels/doomed`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect([watched.errors, watched.dialogs]).toEqual([[], []]);
    await ctx.close();
  }, 60_000);
});
