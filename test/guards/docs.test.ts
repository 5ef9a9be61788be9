import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { providersDoc } from "../../scripts/providers-doc";

test("docs/providers.md is what the provider table says (bun scripts/providers-doc.ts writes it)", () => {
  expect(readFileSync(join(import.meta.dir, "../../docs/providers.md"), "utf8")).toBe(providersDoc());
});
