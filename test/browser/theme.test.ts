import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { removeTempDirs, type Running } from "../helpers/binary";
import { browserAvailable, launch } from "./browser";
import { startInspectorApp, stop } from "./inspector-app";

/** The executable's stylesheet: the light or dark colours follow the system, unless a theme was picked. */
describe.skipIf(!browserAvailable())("colour themes", () => {
  let app: Running;
  let browser: Browser;

  beforeAll(async () => {
    app = await startInspectorApp("mailroom-ui-theme-");
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await stop(app, browser);
    removeTempDirs();
  });

  test("the page's background and text are the theme's: system light, system dark, and a picked theme over the system", async () => {
    const LIGHT = { bg: "rgb(245, 246, 248)", fg: "rgb(24, 32, 46)" };
    const DARK = { bg: "rgb(14, 17, 22)", fg: "rgb(228, 232, 238)" };
    const seen: Record<string, unknown> = {};
    for (const system of ["light", "dark"] as const) {
      const page = await browser.newPage({ colorScheme: system });
      await page.goto(`${app.url}/ui/`);
      await page.locator("h1").first().waitFor();
      const colours = () => page.evaluate("(() => { const s = getComputedStyle(document.documentElement); return { bg: s.backgroundColor, fg: s.color }; })()");
      seen[system] = await colours();
      for (const picked of ["light", "dark"]) {
        await page.evaluate(`document.documentElement.dataset.theme = ${JSON.stringify(picked)}`);
        seen[`${system}, ${picked} picked`] = await colours();
      }
      await page.close();
    }
    expect(seen).toEqual({
      light: LIGHT,
      "light, light picked": LIGHT,
      "light, dark picked": DARK,
      dark: DARK,
      "dark, light picked": LIGHT,
      "dark, dark picked": DARK,
    });
  }, 60_000);
});
