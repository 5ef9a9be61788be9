import { existsSync, readFileSync } from "node:fs";
import { parseToml } from "../lib/toml";
import { credentialsPath, readCredentials } from "../lib/credentials";
import type { Target } from "./client";

export const DEFAULT_URL = "http://127.0.0.1:8080";
const DEFAULT_DB = "data/mailroom.db";

/**
 * The data file of the local Mailroom as `serve` would find it (--config, $MAILROOM_CONFIG or
 * ./mailroom.toml, then $MAILROOM_DB), read without validating the rest of the config.
 */
export function localDbPath(configFlag: string | undefined, env: Record<string, string | undefined>): string {
  if (env.MAILROOM_DB) return env.MAILROOM_DB;
  const file = configFlag ?? env.MAILROOM_CONFIG ?? "mailroom.toml";
  if (!existsSync(file)) return DEFAULT_DB;
  try {
    const parsed = parseToml(readFileSync(file, "utf8"), file) as { storage?: { path?: unknown } };
    return typeof parsed.storage?.path === "string" ? parsed.storage.path : DEFAULT_DB;
  } catch {
    return DEFAULT_DB;
  }
}

/**
 * Where the CLI calls and with which token: --url / --token, else $MAILROOM_URL / $MAILROOM_TOKEN,
 * else the credentials file `serve` wrote next to its data file, else http://127.0.0.1:8080 without a token.
 */
export function resolveTarget(flags: { url?: string; token?: string; config?: string }, env: Record<string, string | undefined>): Target & { from: string } {
  const saved = readCredentials(credentialsPath(localDbPath(flags.config, env)));
  // An empty variable (`MAILROOM_URL= mailroom ...`) counts as unset.
  const url = flags.url ?? (env.MAILROOM_URL || saved?.url || DEFAULT_URL);
  const token = flags.token ?? (env.MAILROOM_TOKEN || saved?.token);
  const from = flags.url ? "--url" : env.MAILROOM_URL ? "MAILROOM_URL" : saved ? "credentials file" : "default";
  return { url, token, from };
}
