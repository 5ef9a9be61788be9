import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM, UNDER_CI } from "../helpers/ci";

export { CHROMIUM };

/**
 * Whether the browser tests run: always under CI (a missing Chromium then fails them, see launch),
 * else only when Chromium is installed (.ci/chromium.sh installs it), with a notice when it is not.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM) || UNDER_CI) return true;
  console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (run .ci/chromium.sh, or set CHROMIUM_PATH)`);
  return false;
}

/** Starts headless Chromium; throws, naming the path, when it is not installed. */
export function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: the browser tests cannot run (run .ci/chromium.sh, or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    // launch() gives Chromium a fresh --user-data-dir of its own (it refuses one in args).
  });
}

/**
 * Where the browser tests put their screenshots: docs/screenshots (the README's) when
 * MAILROOM_SCREENSHOTS=1, else a temporary folder, so an ordinary run leaves the work tree as it was.
 * Refresh the README's with: MAILROOM_SCREENSHOTS=1 npx bun test test/browser
 */
export const SHOTS =
  process.env.MAILROOM_SCREENSHOTS === "1" ? join(import.meta.dir, "../../docs/screenshots") : mkdtempSync(join(tmpdir(), "mailroom-shots-"));
