import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { providersDoc } from "../../scripts/providers-doc";

test("docs/providers.md is what the provider table says (bun scripts/providers-doc.ts writes it)", () => {
  expect(readFileSync(join(import.meta.dir, "../../docs/providers.md"), "utf8")).toBe(providersDoc());
});

test("docs/providers.md names every preset that does not sign the body, and says what to do", () => {
  const doc = providersDoc();
  const section = doc.slice(doc.indexOf("## Presets that do not sign the body"), doc.indexOf("## Senders that sign with a certificate"));
  const kinds = [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
  for (const kind of ["mailgun", "microsoft-graph", "gitlab", "okta", "telegram"]) expect(kinds).toContain(kind);
  for (const kind of ["github", "stripe", "slack", "x"]) expect(kinds).not.toContain(kind);
  expect(section).toContain("What to do with them");
});
