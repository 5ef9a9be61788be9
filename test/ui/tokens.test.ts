import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const CSS = readFileSync(join(import.meta.dir, "../../src/ui/app.css"), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");

test("each design token is declared once, every colour with its light and dark value side by side (light-dark)", () => {
  const declared = [...CSS.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map(([, name, value]) => ({ name: name!, value: value!.trim() }));
  const names = declared.map((d) => d.name);
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  const colours = declared.filter((d) => /#[0-9a-f]{3,8}\b|rgb\(/i.test(d.value));
  expect(colours.length).toBeGreaterThan(30);
  expect(colours.filter((d) => !d.value.includes("light-dark(")).map((d) => d.name)).toEqual([]);
  // Which value applies is the color-scheme's: the system's unless a theme was picked.
  expect(CSS).toMatch(/:root\[data-theme="dark"\]\s*\{\s*color-scheme:\s*dark;\s*\}/);
  expect(CSS).toMatch(/:root\[data-theme="light"\]\s*\{\s*color-scheme:\s*light;\s*\}/);
});
