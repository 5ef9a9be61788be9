import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

/** axe-core's browser script, evaluated in the page through the DevTools protocol (the page's CSP allows no inline script, rightly). */
const AXE = readFileSync(join(import.meta.dir, "../../node_modules/axe-core/axe.min.js"), "utf8");

export type Violation = { id: string; impact: string; help: string; targets: string[] };

/** Serious and critical accessibility violations of the page as it is now (axe-core, WCAG 2 A and AA rules and best practices). */
export async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(AXE);
  const found = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
  })))`)) as Violation[];
  return found.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Whether the page itself scrolls sideways (wide content must scroll inside its own box). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1") as Promise<boolean>;
}

/** Console errors and uncaught exceptions of a page, and browser dialogs it opened (alert, confirm, prompt). */
export function watch(page: Page): { errors: string[]; dialogs: string[] } {
  const seen = { errors: [] as string[], dialogs: [] as string[] };
  page.on("console", (m) => m.type() === "error" && seen.errors.push(`${m.text()} (${m.location().url})`));
  page.on("pageerror", (e) => seen.errors.push(e.message));
  page.on("dialog", (d) => (seen.dialogs.push(`${d.type()}: ${d.message()}`), void d.dismiss()));
  return seen;
}
