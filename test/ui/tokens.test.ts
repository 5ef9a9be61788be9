import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const CSS = readFileSync(join(import.meta.dir, "../../src/ui/app.css"), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");

test("each design token is declared once, every colour with its light and dark value side by side", () => {
  const declared = [...CSS.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map(([, name, value]) => ({ name: name!, value: value!.trim() }));
  const names = declared.map((d) => d.name).filter((n) => n !== "--light" && n !== "--dark");
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  const colours = declared.filter((d) => /#[0-9a-f]{3,8}\b|rgb\(/i.test(d.value));
  expect(colours.length).toBeGreaterThan(30);
  expect(colours.filter((d) => !/var\(--light, [^)]+\)* var\(--dark, /.test(d.value)).map((d) => d.name)).toEqual([]);
  // Which value applies: the system's unless a theme was picked (the browser test checks the colours).
  expect(CSS).toMatch(/:root\[data-theme="dark"\]\s*\{[^}]*color-scheme:\s*dark;/);
  expect(CSS).toMatch(/:root\[data-theme="light"\]\s*\{[^}]*color-scheme:\s*light;/);
});

test("no colour needs light-dark(): the executable serves the stylesheet as written, and light-dark() would leave Safari before 17.5, Chrome before 123 and Firefox before 120 (which the <dialog>-based dashboard otherwise supports from Safari 15.4) without any colour or focus ring", () => {
  expect(CSS).not.toContain("light-dark(");
});
