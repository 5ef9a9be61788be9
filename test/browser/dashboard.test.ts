import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildBinary, removeTempDirs, startProcess, tempDir, type Running } from "../helpers/binary";
import { storageToml } from "../helpers/target";
import { browserAvailable, launch, SHOTS } from "./browser";
import { axeViolations, documentScrollsSideways, watch } from "./sweep";

const ADMIN = { email: "ada@example.com", password: "correct horse battery" };
const MEMBER = { email: "max@example.com", password: "another good one" };

describe.skipIf(!browserAvailable())("the dashboard in a browser", () => {
  let app: Running;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  /** Content-Encoding of each live stream the page opened. */
  const streamEncodings: string[] = [];

  beforeAll(async () => {
    const bin = await buildBinary();
    const dir = tempDir("mailroom-ui-");
    await Bun.write(
      join(dir, "mailroom.toml"),
      `[server]\nport = 0\n[dashboard]\nauth = "password"\n${await storageToml("data/m.db")}[[api_keys]]\nlabel = "ci"\ntoken = "ci-token-0123456789"\n`,
    );
    app = await startProcess([bin, "--config", "mailroom.toml"], dir);
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("response", (r) => {
      if (new URL(r.url()).pathname === "/ui/api/stream") streamEncodings.push(r.headers()["content-encoding"] ?? "identity");
    });
    page.on("dialog", (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void (d.type() === "alert" ? d.dismiss() : d.accept());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    app?.proc.kill();
    await app?.proc.exited;
    removeTempDirs();
  });

  const send = (channel: string, body: string, type = "application/json") =>
    fetch(`${app.url}/?channel=${channel}&source=test`, { method: "POST", body, headers: { "content-type": type, "x-test": "yes" } }).then(
      (r) => r.json() as Promise<{ id: string }>,
    );

  test("a void setup link says so at once, before any form", async () => {
    // A page of its own: the link below differs from this one only in its fragment, which would not load the page again.
    const other = await browser.newPage();
    try {
      await other.goto(`${app.url}/ui/setup#setup_not-the-one`);
      await other.getByRole("alert").getByText("this setup link is void").waitFor();
      expect(await other.getByLabel("E-mail").count()).toBe(0);
    } finally {
      await other.close();
    }
  }, 30_000);

  test("the first admin is created with the setup link printed at start-up", async () => {
    const link = /(http:\/\/\S+\/ui\/setup#setup_\S+)/.exec(app.output())![1]!;
    // On a phone first, in both themes (the link stays good until it is used): nothing sideways, nothing for axe, nothing in the console.
    for (const colorScheme of ["light", "dark"] as const) {
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme });
      const p = await phone.newPage();
      const seen = watch(p);
      await p.goto(link);
      await p.getByRole("button", { name: "Create admin" }).waitFor();
      expect([colorScheme, await documentScrollsSideways(p), await axeViolations(p), seen.errors]).toEqual([colorScheme, false, [], []]);
      await phone.close();
    }
    const res = await page.goto(link);
    const headers = res!.headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).toContain("script-src 'self'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("no-referrer");
    // The password rule is stated before anything is typed, as the field's description.
    const password = page.getByLabel("Password");
    const rule = await password.evaluate((el) => el.ownerDocument.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent);
    expect(rule).toBe("At least 8 characters.");
    expect(await page.getByText("At least 8 characters.").isVisible()).toBe(true);
    await page.getByLabel("E-mail").fill(ADMIN.email);
    await password.fill(ADMIN.password);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.getByRole("heading", { name: "Hooks", exact: true }).waitFor();
    expect(await page.getByText(`${ADMIN.email} (admin)`).isVisible()).toBe(true);
  }, 30_000);

  test("a hook sent appears live in the open list, and opens with its headers and exact body", async () => {
    const body = '{"order":42,"items":["a","b"]}';
    const started = performance.now();
    const { id } = await send("orders", body);
    const row = page.locator(`li[data-id="${id}"]`);
    await row.waitFor();
    const appearedMs = performance.now() - started;
    console.log(`hook visible in the open list ${appearedMs.toFixed(0)} ms after it was sent`);
    // Chromium takes the stream deflated (compressed once for every dashboard) and decodes it as it comes.
    expect(streamEncodings).toContain("deflate");
    await page.screenshot({ path: join(SHOTS, "hooks.png") });
    await row.click();
    await page.locator(`article[data-hook="${id}"]`).waitFor();
    const headers = page.getByRole("table", { name: "Headers" });
    expect(await headers.getByRole("row", { name: /x-test/ }).innerText()).toContain("yes");
    // JSON shows once, as a tree; its raw text is a click away.
    expect(await page.getByRole("region", { name: "Body" }).innerText()).toContain('"order": 42');
    expect(await page.getByLabel("Payload").count()).toBe(0);
    await page.getByRole("button", { name: "Raw" }).click();
    expect(await page.getByRole("region", { name: "Body" }).innerText()).toBe(JSON.stringify(JSON.parse(body), null, 2));
    await page.evaluate("scrollTo(0, 0)"); // the header is sticky: a full page shot taken further down shows it mid-page
    await page.screenshot({ path: join(SHOTS, "hook.png"), fullPage: true });
  }, 30_000);

  test("mark handled, discard and retry record the user's e-mail as the actor", async () => {
    await page.getByRole("button", { name: "Mark handled" }).click();
    const events = page.getByRole("table", { name: "Events" });
    await events.getByRole("row", { name: new RegExp(`handled ${ADMIN.email}`) }).waitFor();
    const { id } = await send("orders", "second");
    await page.goto(`${app.url}/ui/hooks/${id}`);
    await page.getByRole("button", { name: "Discard" }).click();
    await events.getByRole("row", { name: new RegExp(`discarded ${ADMIN.email}`) }).waitFor();
    await page.getByRole("button", { name: "Retry" }).click();
    await events.getByRole("row", { name: new RegExp(`retried ${ADMIN.email}`) }).waitFor();
    expect(await page.locator("article .status").first().innerText()).toBe("pending");
    await page.getByRole("region", { name: "Body" }).getByText("second").waitFor();
  }, 30_000);

  test("hostile bodies are shown as text and run no script", async () => {
    const attack = `<script>alert(1)</script><img src=x onerror=alert(1)>`;
    const { id } = await send("evil-channel", attack, "text/html");
    await page.goto(`${app.url}/ui/hooks/${id}`);
    expect(await page.getByRole("region", { name: "Body" }).innerText()).toBe(attack);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.locator("main script").count()).toBe(0);
    await page.goto(`${app.url}/ui/hooks`);
    await page.locator(`li[data-id="${id}"]`).waitFor();
    expect(dialogs.filter((d) => d.startsWith("alert"))).toEqual([]);
  }, 30_000);

  test("channels show their stats and URL", async () => {
    await page.goto(`${app.url}/ui/channels`);
    const row = page.getByRole("row", { name: /orders/ });
    await row.waitFor();
    expect(await row.innerText()).toContain("?channel=orders");
    expect(await row.locator("code").getAttribute("title")).toBe(`${app.url}/?channel=orders`);
    expect(await page.getByText("Senders post to").innerText()).toContain(`${app.url}/?channel=NAME`);
    await page.screenshot({ path: join(SHOTS, "channels.png") });
  }, 30_000);

  test("at a narrow and a wide window, a long channel list, a binary body and a 1 MB body stay usable", async () => {
    const names = Array.from({ length: 40 }, (_, i) => `shop-${String(i).padStart(2, "0")}-orders-created-production-eu-west-1-primary`);
    for (const name of names) await send(name, `{"n":1}`);
    const binary = new Uint8Array(4096).map((_, i) => (i * 131 + 7) % 256);
    const bin = (await (
      await fetch(`${app.url}/?channel=files`, { method: "POST", body: binary, headers: { "content-type": "application/octet-stream" } })
    ).json()) as { id: string };
    const large = JSON.stringify({ items: Array.from({ length: 12_000 }, (_, i) => ({ i, sku: `SKU-${i}`, note: "x".repeat(60) })) });
    expect(large.length).toBeGreaterThan(1_000_000);
    const big = await send("files", large);
    for (const [label, width] of [
      ["narrow", 390],
      ["wide", 1600],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      // The page itself never scrolls sideways (wide tables scroll inside their own box).
      const fits = () => page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1");
      await page.goto(`${app.url}/ui/channels`);
      await page.getByRole("row", { name: new RegExp(names[39]!) }).waitFor();
      expect([label, "channels", await fits()]).toEqual([label, "channels", true]);
      await page.screenshot({ path: join(SHOTS, `channels-${label}.png`) });
      await page.goto(`${app.url}/ui/hooks`);
      await page.locator(`li[data-id="${big.id}"]`).waitFor();
      expect([label, "hooks", await fits()]).toEqual([label, "hooks", true]);
      // Id, channel, status and time are all in view, without scrolling the table either.
      const when = (await page.locator(`li[data-id="${big.id}"] .when`).boundingBox())!;
      expect([label, "time in view", when.x + when.width <= width]).toEqual([label, "time in view", true]);
      await page.screenshot({ path: join(SHOTS, `hooks-${label}.png`) });
      await page.goto(`${app.url}/ui/hooks/${bin.id}`);
      await page.locator(`article[data-hook="${bin.id}"]`).waitFor();
      // Binary shows as hex, starting with the first bytes sent.
      expect(await page.getByRole("region", { name: "Body" }).innerText()).toContain("07 8a");
      expect([label, "binary", await fits()]).toEqual([label, "binary", true]);
      await page.screenshot({ path: join(SHOTS, `hook-binary-${label}.png`) });
      await page.goto(`${app.url}/ui/hooks/${big.id}`);
      await page.locator(`article[data-hook="${big.id}"]`).waitFor();
      // A large document opens folded below its first level; a node opens on request.
      await page.getByRole("region", { name: "Body" }).getByText("12000 items").waitFor();
      await page.getByRole("button", { name: "Expand items" }).click();
      await page.getByRole("region", { name: "Body" }).getByText('"SKU-0"').first().waitFor();
      expect([label, "1 MB", await fits()]).toEqual([label, "1 MB", true]);
      await page.screenshot({ path: join(SHOTS, `hook-1mb-${label}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 90_000);

  test("an admin adds a member, who cannot reach the admin screens; sign-out and sign-in", async () => {
    await page.goto(`${app.url}/ui/users`);
    await page.getByLabel("E-mail").fill(MEMBER.email);
    await page.getByLabel("Role").selectOption("member");
    await page.getByLabel("Password").fill(MEMBER.password);
    await page.getByRole("button", { name: "Add user" }).click();
    await page.getByRole("cell", { name: MEMBER.email }).waitFor();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await page.getByLabel("E-mail").fill(MEMBER.email);
    await page.getByLabel("Password").fill(MEMBER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText(`${MEMBER.email} (member)`).waitFor();
    expect(await page.getByRole("link", { name: "Users" }).count()).toBe(0);
    await page.goto(`${app.url}/ui/users`);
    await page.getByRole("alert").getByText("Only an admin").waitFor();
    const status = await page.evaluate(() => fetch("/ui/api/users").then((r) => r.status));
    expect(status).toBe(403);
  }, 30_000);
});
