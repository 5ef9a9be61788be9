/**
 * The C library the index thread lowers its priority through (src/lib/thread-priority.ts) is the one
 * this process already runs on, by its absolute path, never a bare name that Bun would look for in
 * the working directory when the system has no such library (musl).
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute } from "node:path";
import { loadedLibc } from "../../src/lib/thread-priority";

test("the C library is found by the absolute path it is mapped from, on glibc and on musl; none, none", () => {
  const glibc = "7f37-7f38 r-xp 00026000 fe:00 339380   /usr/lib/x86_64-linux-gnu/libc.so.6\n";
  expect(loadedLibc(`55d0-55d1 r--p 00000000 fe:00 1   /usr/bin/mailroom\n${glibc}`)).toBe("/usr/lib/x86_64-linux-gnu/libc.so.6");
  expect(loadedLibc("7f00-7f01 r-xp 00014000 08:01 2   /lib/ld-musl-aarch64.so.1\n")).toBe("/lib/ld-musl-aarch64.so.1");
  // A statically linked process, or a libc.so.6 planted in a folder and not mapped: nothing.
  expect(loadedLibc("55d0-55d1 r--p 00000000 fe:00 1   /tmp/x/mailroom\n7ffd-7ffe rw-p 0 0 0   [stack]\n")).toBeUndefined();
  expect(loadedLibc("7f37-7f38 r-xp 0 fe:00 3   /usr/lib/libc.so.6 (deleted)\n")).toBeUndefined();
  if (process.platform === "linux") {
    const here = loadedLibc(readFileSync("/proc/self/maps", "utf8"))!;
    expect(isAbsolute(here) && existsSync(here)).toBe(true);
  }
});
