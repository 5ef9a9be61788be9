import type { ConfigChecks } from "./config/checks";
import { buildConfig as build, type Env, loadConfig as load, type Overrides } from "./config/load";
import type { Config } from "./config/schema";
import { WHEN_CHECKS } from "./delivery/when";
import { resignConfigProblems } from "./delivery/config-checks";
import { GUARD_CHECKS } from "./hooks/guards/config-checks";
import { translateProblems } from "./translate/config-checks";
import { loadSchemaFile } from "./contracts/check";

/**
 * The config loader with the services' own checks registered: the loader (config/) knows no
 * service, and this is where the guards', the translation service's and the handlers' `when` checks are handed to it.
 * The composition, the CLI and the tests load config through here.
 */
export const CONFIG_CHECKS: ConfigChecks = {
  guards: GUARD_CHECKS,
  translate: translateProblems,
  when: WHEN_CHECKS,
  resign: resignConfigProblems,
  schema: loadSchemaFile,
};

/** config/load.ts's buildConfig with CONFIG_CHECKS. */
export function buildConfig(raw: unknown, env: Env = {}, overrides: Overrides = {}): Config {
  return build(raw, env, overrides, CONFIG_CHECKS);
}

/** config/load.ts's loadConfig with CONFIG_CHECKS. */
export function loadConfig(file: string | undefined, env: Env, overrides: Overrides = {}): Promise<{ config: Config; source: string }> {
  return load(file, env, overrides, CONFIG_CHECKS);
}

export { ConfigError, FORWARD_TO, forwardRouteName, parseToml } from "./config/load";
