/**
 * Whether the tests run under CI (CI set, and not "false" or "0"). There a missing Chromium or
 * PostgreSQL fails the run; elsewhere their suites are left out with a printed notice.
 */
export const UNDER_CI = !!process.env.CI && !["false", "0"].includes(process.env.CI.toLowerCase());

/** The Chromium the browser tests drive: Debian's package (.ci/chromium.sh), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
