import { GUARD_KINDS_BESIDES_PROVIDERS } from "./guards/config-checks";
import { GUARD_KINDS } from "./guards/kinds";
import { PRESETS } from "./guards/providers";
import { isAsymmetric } from "./guards/scheme/keys";
import { checkKinded, ConfigError, type Problem, unknownKind } from "../config/load";
import type { Config } from "../config/schema";
import type { Clock } from "../lib/clock";
import { invalid, notFound, precondition } from "../lib/errors";
import type { Log } from "../lib/log";
import { createGuards, type Guard } from "./guards";
import type { GuardRow, GuardStore } from "./guard-store";

/** The key of each kind's secret (write-only: never sent back); kinds without one are absent. */
export const SECRET_KEY: Record<string, string> = {
  // Every named provider: its shared secret, or the public key it signs against.
  ...Object.fromEntries([...PRESETS.values()].map((p) => [p.kind, isAsymmetric(p.scheme) ? "public_key" : "secret"])),
  scheme: "secret",
  hmac: "secret",
  token: "secret",
  "basic-auth": "password",
};

export type GuardInfo = {
  name: string;
  kind: string;
  /** The guard's config without name, kind and secret. */
  settings: Record<string, unknown>;
  has_secret: boolean;
  /** Declared in the config file: shown, not changed here. */
  read_only: boolean;
};

/**
 * Every guard by name, in one map the catching endpoint reads: the config file's (read-only,
 * winning on a name clash) and those an admin defines in the dashboard, stored in the database
 * with their secret (which no answer or log carries). A change replaces the entry in the map and
 * calls `changed`, which makes the catching endpoint build its per-channel plans again, so it
 * applies to the next request. The stored guards join the map in `load()`, which start-up awaits
 * before the first request.
 */
export function createGuardRegistry(deps: { config: Config; store: GuardStore; clock: Clock; log: Log; guards: Map<string, Guard>; changed: () => void }) {
  const { config, store, clock, log, guards } = deps;
  const configured = new Map(config.guards.map((g) => [g.name, g]));

  /** The guard an entry builds; throws invalid_argument naming the setting at fault. */
  function build(entry: Record<string, unknown>): Guard {
    const problems: Problem[] = checkKinded([entry], GUARD_KINDS, "guard", {}, GUARD_KINDS_BESIDES_PROVIDERS);
    if (problems.length === 0) {
      try {
        return createGuards([entry as Config["guards"][number]], { clock, log, publicUrl: config.server.public_url?.base }).get(entry.name as string)!;
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        problems.push(...error.problems);
      }
    }
    // Paths read guard[0].key (the loader's) or guards[0].key (the factory's): the key alone is what the form shows.
    // Every problem at once, so that the form says all that is wrong in one answer.
    throw invalid(problems.map((p) => `${p.path.replace(/^guards?\[0\]\.?/, "") || "guard"}: ${p.message}`).join("; "));
  }

  function entryOf(row: Pick<GuardRow, "name" | "kind" | "settings" | "secret">): Record<string, unknown> {
    const entry: Record<string, unknown> = { ...JSON.parse(row.settings), name: row.name, kind: row.kind };
    const key = SECRET_KEY[row.kind];
    if (key && row.secret !== null) entry[key] = row.secret;
    return entry;
  }

  /**
   * Reads the stored guards into the map (at start-up, and again when another instance changed
   * them); one that no longer builds is logged (without its settings) and left out.
   */
  /** Names of the stored guards in the map, so that a reload drops those deleted elsewhere. */
  let stored = new Set<string>();

  async function load(): Promise<void> {
    const rows = await store.list();
    const now = new Set(rows.map((r) => r.name));
    for (const name of stored) if (!now.has(name) && !configured.has(name)) guards.delete(name);
    stored = now;
    for (const row of rows) {
      if (configured.has(row.name)) continue;
      try {
        guards.set(row.name, build(entryOf(row)));
      } catch (error) {
        log.error("a guard defined in the dashboard does not build; channels naming it refuse hooks", { guard: row.name, error: (error as Error).message });
      }
    }
    deps.changed();
  }

  /** Throws not_found for an unknown guard. */
  async function info(name: string): Promise<GuardInfo> {
    const fromConfig = configured.get(name);
    if (fromConfig) {
      const { name: _n, kind, ...rest } = fromConfig as Record<string, unknown>;
      const key = SECRET_KEY[kind as string];
      const settings = Object.fromEntries(Object.entries(rest).filter(([k]) => k !== key && !k.endsWith("_env")));
      return { name, kind: kind as string, settings, has_secret: key !== undefined && rest[key] !== undefined, read_only: true };
    }
    const row = await store.get(name);
    if (!row) throw notFound(`guard "${name}" not found`);
    return { name, kind: row.kind, settings: JSON.parse(row.settings), has_secret: row.secret !== null, read_only: false };
  }

  /** Checks settings: no secret or environment variable in them (the secret has its own field). */
  function cleanSettings(kind: string, settings: Record<string, unknown>): Record<string, unknown> {
    if (!GUARD_KINDS[kind]) throw invalid(`kind: ${unknownKind(kind, Object.keys(GUARD_KINDS), "guards", GUARD_KINDS_BESIDES_PROVIDERS)}`);
    for (const key of Object.keys(settings)) {
      if (key === "name" || key === "kind") throw invalid(`settings.${key}: give it beside settings, not inside`);
      if (key === SECRET_KEY[kind]) throw invalid(`settings.${key}: send it as "secret"`);
      if (key.endsWith("_env")) throw invalid(`settings.${key}: environment variables are for the config file only`);
    }
    return settings;
  }

  return {
    load,
    async list(): Promise<GuardInfo[]> {
      const names = new Set([...configured.keys(), ...(await store.list()).map((r) => r.name)]);
      return Promise.all([...names].sort().map(info));
    },
    get: info,
    /** Defines a guard; throws invalid_argument for bad settings, failed_precondition when the name is taken. */
    async create(name: string, kind: string, settings: Record<string, unknown>, secret: string | undefined): Promise<GuardInfo> {
      const taken = () => precondition(`guard "${name}" exists already`);
      if (configured.has(name) || guards.has(name) || (await store.get(name))) throw taken();
      const clean = cleanSettings(kind, settings);
      if (secret === undefined && SECRET_KEY[kind]) throw invalid(`secret: a ${kind} guard needs its ${SECRET_KEY[kind]}`);
      if (secret !== undefined && !SECRET_KEY[kind]) throw invalid(`secret: a ${kind} guard has no secret`);
      const row = { name, kind, settings: JSON.stringify(clean), secret: secret ?? null };
      const guard = build(entryOf(row));
      const now = clock.now();
      if (!(await store.insert({ ...row, createdAt: now, updatedAt: now }))) throw taken();
      guards.set(name, guard);
      deps.changed();
      return info(name);
    },
    /** Replaces a stored guard's settings; the secret is kept unless a new one is given. */
    async update(name: string, settings: Record<string, unknown>, secret: string | undefined): Promise<GuardInfo> {
      if (configured.has(name)) throw precondition(`guard "${name}" is declared in the config file: change it there`);
      const old = await store.get(name);
      if (!old) throw notFound(`guard "${name}" not found`);
      const clean = cleanSettings(old.kind, settings);
      if (secret !== undefined && !SECRET_KEY[old.kind]) throw invalid(`secret: a ${old.kind} guard has no secret`);
      const row = { name, kind: old.kind, settings: JSON.stringify(clean), secret: secret ?? old.secret };
      const guard = build(entryOf(row));
      if (!(await store.update(name, row.settings, row.secret, clock.now()))) throw notFound(`guard "${name}" not found`);
      guards.set(name, guard);
      deps.changed();
      return info(name);
    },
    /** Removes a stored guard; throws failed_precondition while `usedBy` names a channel or the defaults. */
    async remove(name: string, usedBy: string[]): Promise<void> {
      if (configured.has(name)) throw precondition(`guard "${name}" is declared in the config file: remove it there`);
      if (!(await store.get(name))) throw notFound(`guard "${name}" not found`);
      if (usedBy.length > 0) throw precondition(`guard "${name}" is in use by ${usedBy.join(", ")}: take it off first`);
      if (!(await store.remove(name))) throw notFound(`guard "${name}" not found`);
      guards.delete(name);
      deps.changed();
    },
    /** Whether a guard of this name is in the map (memory only). */
    exists: (name: string) => guards.has(name),
  };
}

export type GuardRegistry = ReturnType<typeof createGuardRegistry>;
