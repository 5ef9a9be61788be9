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

/** Whether the document, or an open dialog, scrolls sideways: wider than its box (scrollWidth > clientWidth). */
export function documentScrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(
    "[document.documentElement, ...document.querySelectorAll('dialog[open]')].some((e) => e.scrollWidth > e.clientWidth)",
  ) as Promise<boolean>;
}

/**
 * Where shown text containing one of `needles` (names: channels, guards, keys, e-mails, event
 * types) is cut off sideways: out of the window, or out of a box that hides or scrolls its
 * overflow (an ellipsis, a table scrolled off to the side). Text in a box made to scroll on its
 * own (a body or command in a scroller, a <pre>), a hook's one-line body preview, a <select> and
 * text hidden for screen readers only are not judged.
 */
export async function clippedNames(page: Page, needles: string[]): Promise<string[]> {
  const script = `((needles) => {
    const found = [];
    const width = document.documentElement.clientWidth;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const needle = needles.find((x) => n.nodeValue.includes(x));
      const el = n.parentElement;
      if (!needle || !el || el.closest("select, pre, .scroller, .preview, .sr-only, [hidden]") || !el.checkVisibility({ visibilityProperty: true })) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      if (rects.length === 0) continue;
      const left = Math.min(...rects.map((r) => r.left));
      const right = Math.max(...rects.map((r) => r.right));
      const boxes = [[0, width, "the window"]];
      for (let a = el; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX === "visible") continue;
        const r = a.getBoundingClientRect();
        boxes.push([r.left + a.clientLeft, r.left + a.clientLeft + a.clientWidth, a.tagName.toLowerCase() + (a.className ? "." + String(a.className).trim().replace(/\\s+/g, ".") : "")]);
      }
      // A box of 1 px is the visually hidden pattern (text for screen readers only, as .sr-only).
      if (boxes.some(([l, r]) => r - l <= 1)) continue;
      const cut = boxes.find(([l, r]) => left < l - 1 || right > r + 1);
      if (cut) found.push(needle.slice(0, 24) + "… in <" + el.tagName.toLowerCase() + "> cut by " + cut[2] + " (" + Math.round(left) + " to " + Math.round(right) + " of " + Math.round(cut[0]) + " to " + Math.round(cut[1]) + ")");
    }
    return found;
  })(${JSON.stringify(needles)})`;
  return (await page.evaluate(script)) as string[];
}

/**
 * Shown text that holds a bidirectional control (U+202A to U+202E, U+2066 to U+2069): a sender's
 * right-to-left override would turn the text after it around. The dashboard shows them as escapes.
 */
export async function bidiControls(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (/[\\u202a-\\u202e\\u2066-\\u2069]/.test(n.nodeValue) && n.parentElement?.checkVisibility()) found.push(n.parentElement.tagName.toLowerCase() + ": " + JSON.stringify(n.nodeValue.slice(0, 40)));
    }
    return found;
  })()`)) as string[];
}
