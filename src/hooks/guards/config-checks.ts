import type { GuardChecks } from "../../config/checks";
import { systemClock } from "../../lib/clock";
import { CERTIFICATE_PROVIDERS } from "./certificates/table";
import { guardProblems } from "./index";
import { GUARD_KINDS } from "./kinds";
import { PRESETS } from "./providers";

/** The kinds besides those `mailroom providers` lists (the named providers and the certificate kinds). */
export const GUARD_KINDS_BESIDES_PROVIDERS: readonly string[] = Object.keys(GUARD_KINDS).filter(
  (k) => !PRESETS.has(k) && !CERTIFICATE_PROVIDERS.some((c) => c.kind === k),
);

/** The guards' part of the loader's checks (config/checks.ts): their kinds, and what a kind's schema cannot say. */
export const GUARD_CHECKS: GuardChecks = {
  kinds: GUARD_KINDS,
  others: GUARD_KINDS_BESIDES_PROVIDERS,
  problems: (entry) =>
    guardProblems([entry as never], { clock: systemClock }).map((p) => ({ path: p.path.replace(/^guards\[0\]\.?/, ""), message: p.message })),
};
