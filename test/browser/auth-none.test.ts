/** `[dashboard] auth = "none"` in a browser (issue 32): no sign-in, a banner saying so, the URL printed at start. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { buildBinary, removeTempDirs, startProcess, tempDir, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { axeViolations, watch } from "./sweep";

describe.skipIf(!browserAvailable())('the dashboard with auth = "none"', () => {
  let app: Running;
  let browser: Browser;

  beforeAll(async () => {
    const bin = await buildBinary();
    const dir = tempDir("mailroom-noauth-");
    await Bun.write(join(dir, "mailroom.toml"), `[server]\nport = 0\n[storage]\npath = "data/m.db"\n[dashboard]\nauth = "none"\n`);
    app = await startProcess([bin, "--config", "mailroom.toml"], dir);
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    app?.proc.kill();
    await app?.proc.exited;
    removeTempDirs();
  });

  test("start-up prints the dashboard's URL, not a setup link; the dashboard opens without signing in, with a banner", async () => {
    expect(app.output()).toContain(`dashboard: ${app.url}/ui/ (no sign-in: [dashboard] auth = "none", this machine only)`);
    expect(app.output()).not.toContain("/ui/setup#");
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(page);
    await page.goto(`${app.url}/ui/`);
    await page.getByRole("heading", { name: "Hooks", exact: true }).waitFor();
    const banner = page.getByRole("note");
    expect(await banner.textContent()).toBe(
      'No sign-in: [dashboard] auth = "none". Anyone who can reach this machine\'s loopback address uses this dashboard as an admin.',
    );
    expect(await page.getByText("local (admin)").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    expect(await page.getByLabel("E-mail").count()).toBe(0);
    expect([await axeViolations(page), seen.errors]).toEqual([[], []]);
    await page.close();
  }, 60_000);
});
