import { eq } from "drizzle-orm";
import type { Config } from "../config/schema";
import type { Db } from "../db/open";
import { apiKeys } from "../db/schema";
import type { Clock } from "../lib/clock";
import { notFound, precondition } from "../lib/errors";
import { randomToken, sha256Hex } from "../lib/secrets";
import { LOCAL_KEY, storedApiKeys, type ApiKey, type KeySource } from "./auth";

/** Last use is written to the database at most this often per key (it is kept in memory meanwhile). */
export const LAST_USE_WRITE_MS = 60_000;

export type ApiKeyInfo = {
  label: string;
  /** config: the TOML file's (read-only); local: the one generated for this machine's CLI; dashboard: created by an admin. */
  source: "config" | "local" | "dashboard";
  created_at: string | null;
  last_used_at: string | null;
};

/**
 * The management API's keys as one live source: the config file's, the generated local one and
 * those an admin creates in the dashboard (only SHA-256 hashes are stored; the token is returned
 * once). A key created or revoked here works, or stops working, on the next request. Each use is
 * noted for the dashboard's "last use", written to the database at most once a minute per key.
 */
export function createApiKeys(deps: { config: Config; db: Db; clock: Clock; initial: readonly ApiKey[] }) {
  const { config, db, clock } = deps;
  const configured = new Set(config.api_keys.map((k) => k.label));
  const lastUse = new Map<string, number>();
  const written = new Map<string, number>();

  const reload = (): ApiKey[] => [
    ...deps.initial.filter((k) => configured.has(k.label)),
    ...storedApiKeys(db).filter((k) => !configured.has(k.label)),
  ];

  // Another process (`mailroom token reset`, a second CLI) changed the stored keys when SQLite's
  // data_version moved: it counts other connections' commits only, so this process's own writes of
  // hooks never make it read the keys again.
  const dataVersion = db.$client.query("PRAGMA data_version");
  const versionNow = () => (dataVersion.get() as { data_version: number }).data_version;
  let version = versionNow();

  const source: KeySource = {
    keys: deps.initial,
    reload,
    fresh() {
      const v = versionNow();
      if (v === version) return;
      version = v;
      source.keys = reload();
    },
    used(key) {
      const now = clock.now();
      lastUse.set(key.label, now);
      if (configured.has(key.label) || now - (written.get(key.label) ?? -Infinity) < LAST_USE_WRITE_MS) return;
      written.set(key.label, now);
      db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.label, key.label)).run();
    },
  };

  const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null);

  return {
    source,
    list(): ApiKeyInfo[] {
      const rows = db.select().from(apiKeys).all().filter((r) => !configured.has(r.label));
      const fromConfig: ApiKeyInfo[] = [...configured].map((label) => ({ label, source: "config", created_at: null, last_used_at: iso(lastUse.get(label)) }));
      const stored: ApiKeyInfo[] = rows.map((r) => ({
        label: r.label,
        source: r.label === LOCAL_KEY ? "local" : "dashboard",
        created_at: iso(r.createdAt),
        last_used_at: iso(Math.max(lastUse.get(r.label) ?? 0, r.lastUsedAt ?? 0)),
      }));
      return [...fromConfig, ...stored].sort((a, b) => a.label.localeCompare(b.label));
    },
    /** A new key; returns its token, shown once. Throws failed_precondition when the label is taken. */
    create(label: string): { info: ApiKeyInfo; token: string } {
      if (configured.has(label) || label === LOCAL_KEY) throw precondition(`API key "${label}" exists already (in the config file, or the local one)`);
      const token = randomToken("mr_");
      const now = clock.now();
      const inserted = db.insert(apiKeys).values({ label, tokenSha256: sha256Hex(token), createdAt: now }).onConflictDoNothing().returning({ label: apiKeys.label }).all();
      if (inserted.length === 0) throw precondition(`API key "${label}" exists already`);
      source.keys = reload();
      return { info: { label, source: "dashboard", created_at: iso(now), last_used_at: null }, token };
    },
    /** Revokes a key created in the dashboard: its token stops working at once. */
    revoke(label: string): void {
      if (configured.has(label)) throw precondition(`API key "${label}" is declared in the config file: remove it there`);
      if (label === LOCAL_KEY) throw precondition(`the local key is this machine's CLI token: \`mailroom token reset\` replaces it`);
      const removed = db.delete(apiKeys).where(eq(apiKeys.label, label)).returning({ label: apiKeys.label }).all();
      if (removed.length === 0) throw notFound(`API key "${label}" not found`);
      lastUse.delete(label);
      written.delete(label);
      source.keys = reload();
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
