/**
 * The threads' modules (src/run.ts threadModule): inside the executable, on every system, the
 * embedded entry point by a relative specifier (the executable's paths are `/$bunfs/...` on Linux
 * and macOS, `B:\~BUN\...` on Windows); run from the sources, the source file.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { threadModule } from "../src/run";

test("inside the executable a thread is the embedded entry point, whatever the system's paths; from the sources, the file", () => {
  expect(threadModule("db/sqlite/search-thread.ts", true)).toBe("./db/sqlite/search-thread.ts");
  expect(threadModule("db/sqlite/checkpoint-thread.ts", true)).toBe("./db/sqlite/checkpoint-thread.ts");
  const url = threadModule("db/sqlite/search-thread.ts");
  expect(Bun.isStandaloneExecutable).toBe(false);
  expect(existsSync(fileURLToPath(url))).toBe(true);
});
