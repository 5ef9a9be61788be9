import type { Config } from "../../config/schema";
import type * as Kinds from "./kinds";
import { GUARD_KINDS } from "./kinds";
import { Value } from "@sinclair/typebox/value";
import type { SchemeGuardConfig } from "./scheme-kind";
import { ConfigError, type Problem } from "../../config/problems";
import type { Clock } from "../../lib/clock";
import type { Log } from "../../lib/log";
import type { CertificateFetcher } from "./certificates/fetcher";
import { createPaypalGuard, type PaypalGuardConfig } from "./certificates/paypal";
import { createSnsGuard, type SnsGuardConfig } from "./certificates/sns";
import { createBasicAuthGuard, createTokenGuard } from "./credentials";
import { createHmacGuard } from "./hmac";
import { createIpAllowGuard } from "./ip-allow";
import { createPresetGuard, createSchemeGuard } from "./preset";
import { PRESETS } from "./providers";
import { createContentTypeGuard, createMaxBodyGuard, createMethodGuard } from "./request";
import type { Guard } from "./types";
import { GuardConfigError, unauthenticated } from "./verdict";

export type { Guard, GuardInput, GuardVerdict, Refusal, RefusalInput } from "./types";
export { createRefusals, DIAGNOSIS_BATCH_MS, REFUSALS_KEPT, type Refusals, type RefusalQuery } from "./refusals";
export type { RefusalStore } from "./refusal-store";
export { DIAGNOSIS_CAUSES, type Diagnosis, type DiagnosisCause } from "./diagnosis";
export { signingOf, type Signing } from "./preset";
export { compileScheme } from "./scheme/engine";
export { kindAuthenticates } from "./kinds";

/**
 * `log` receives the errors of checks that threw (the app passes it; config checks need none);
 * `publicUrl` is `[server] public_url` without its trailing slash (PublicUrl.base), what schemes that sign the URL (Twilio, Square) put in front of the path;
 * `certificates` fetches SNS's and PayPal's certificates (the process's shared one when absent).
 */
type Deps = { clock: Clock; log?: Log; publicUrl?: string; certificates?: CertificateFetcher };

/** One factory per kind of GUARD_KINDS; each may throw GuardConfigError. */
const FACTORIES: Record<string, (config: any, deps: Deps) => Guard> = {
  ...Object.fromEntries([...PRESETS.values()].map((p) => [p.kind, (c: Kinds.PresetGuardConfig, d: Deps) => createPresetGuard(p, c, d)])),
  scheme: (c: SchemeGuardConfig, d) => createSchemeGuard(c, d),
  "aws-sns": (c: SnsGuardConfig, d) => createSnsGuard(c, d),
  paypal: (c: PaypalGuardConfig, d) => createPaypalGuard(c, d),
  hmac: (c: Kinds.HmacGuardConfig, d) => createHmacGuard(c, d),
  "basic-auth": (c: Kinds.BasicAuthGuardConfig) => createBasicAuthGuard(c),
  token: (c: Kinds.TokenGuardConfig) => createTokenGuard(c),
  "ip-allow": (c: Kinds.IpAllowGuardConfig) => createIpAllowGuard(c),
  method: (c: Kinds.MethodGuardConfig) => createMethodGuard(c),
  "content-type": (c: Kinds.ContentTypeGuardConfig) => createContentTypeGuard(c),
  "max-body": (c: Kinds.MaxBodyGuardConfig) => createMaxBodyGuard(c),
};

/**
 * A guard whose check cannot throw: a bug in a check refuses the request (401) instead of
 * answering 500, says nothing about why to the sender, and is logged for the operator.
 */
export function contained(guard: Guard, log?: Log): Guard {
  const failed = (error: unknown) => {
    log?.error("a guard's check failed; the request is refused", { guard: guard.name, error: String(error) });
    return unauthenticated("the request could not be checked");
  };
  const check: Guard["check"] = (input) => {
    try {
      const verdict = guard.check(input);
      return verdict instanceof Promise ? verdict.catch(failed) : verdict;
    } catch (error) {
      return failed(error);
    }
  };
  return { ...guard, check };
}

function build(configs: Config["guards"], deps: Deps): { guards: Map<string, Guard>; problems: Problem[] } {
  const guards = new Map<string, Guard>();
  const problems: Problem[] = [];
  configs.forEach((config, i) => {
    const kind = config.kind;
    const factory = FACTORIES[kind];
    const schema = GUARD_KINDS[kind];
    if (!factory || !schema) return problems.push({ path: `guards[${i}].kind`, message: `unknown kind "${config.kind}"` });
    // The loader or the registry checked the entry against its kind's schema; it is converted here
    // by that schema (durations to milliseconds, sizes to bytes), as the loader converts the rest.
    const entry = Value.Default(schema, structuredClone(config));
    if (!Value.Check(schema, entry)) return problems.push({ path: `guards[${i}]`, message: `not a valid ${kind} guard entry` });
    try {
      guards.set(config.name, contained(factory(Value.Decode(schema, entry), deps), deps.log));
    } catch (error) {
      if (!(error instanceof GuardConfigError)) throw error;
      problems.push({ path: `guards[${i}].${error.key}`, message: error.message });
      for (const more of error.more) problems.push({ path: `guards[${i}].${more.key}`, message: more.message });
    }
  });
  return { guards, problems };
}

/**
 * Builds every configured guard by name; the configs were validated by the loader against their
 * kind's schema. Throws ConfigError, with key paths, for what a schema cannot say: a missing
 * secret, a CIDR block or a template that does not parse.
 */
export function createGuards(configs: Config["guards"], deps: Deps): Map<string, Guard> {
  const { guards, problems } = build(configs, deps);
  if (problems.length > 0) throw new ConfigError(problems);
  return guards;
}

/** The problems createGuards would throw, as a list: for the loader, so that check-config sees them. */
export function guardProblems(configs: Config["guards"], deps: Deps): Problem[] {
  return build(configs, deps).problems;
}
