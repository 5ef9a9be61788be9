import type { ConfigChecks } from "./config/checks";
import { buildConfig as build, type Env, loadConfig as load, type Overrides } from "./config/load";
import type { Config } from "./config/schema";
import { resignConfigProblems } from "./delivery/config-checks";
import { GUARD_CHECKS } from "./hooks/guards/config-checks";
import { translateProblems } from "./translate/config-checks";

/**
 * The config loader with the services' own checks registered: the loader (config/) knows no
 * service, and this is where the guards' and the translation service's checks are handed to it.
 * The composition, the CLI and the tests load config through here.
 */
export const CONFIG_CHECKS: ConfigChecks = { guards: GUARD_CHECKS, translate: translateProblems, resign: resignConfigProblems };

/** config/load.ts's buildConfig with CONFIG_CHECKS. */
export function buildConfig(raw: unknown, env: Env = {}, overrides: Overrides = {}): Config {
  return build(raw, env, overrides, CONFIG_CHECKS);
}

/** config/load.ts's loadConfig with CONFIG_CHECKS. */
export function loadConfig(file: string | undefined, env: Env, overrides: Overrides = {}): Promise<{ config: Config; source: string }> {
  return load(file, env, overrides, CONFIG_CHECKS);
}

export { ConfigError, FORWARD_TO, parseToml } from "./config/load";
