import { hostname } from "node:os";
import { resolve } from "node:path";
import type { Config } from "../config/schema";
import type { Clock } from "../lib/clock";
import { notFound, precondition } from "../lib/errors";
import { randomToken, sha256Hex } from "../lib/secrets";
import type { ApiKeyStore, KeyGrant } from "./api-key-store";
import type { ApiKeyInfo } from "./api-key-info";
import { configuredApiKeys, LOCAL_KEY, type ApiKey, type KeySource } from "./auth";

/** Last use is written to the database at most this often per key (it is kept in memory meanwhile). */
export const LAST_USE_WRITE_MS = 60_000;

export type { ApiKeyInfo };

/**
 * The label of this instance's local key (the CLI's, saved in the credentials file beside the data
 * path): "local" on SQLite, whose data file one process owns. On PostgreSQL, where instances on
 * several machines share one table of keys, "local@<host>:<absolute data path>": each instance's
 * CLI has a key of its own, so starting an instance, or `mailroom token reset` on one, never
 * revokes another's. Instances started from one folder of one machine share its credentials file,
 * and so its key.
 *
 * @example localKeyLabel({ path: "data/mailroom.db", url: "postgres://..." }, "web-1") // "local@web-1:/srv/mailroom/data/mailroom.db"
 */
export function localKeyLabel(storage: { path: string; url?: string }, host: string = hostname()): string {
  return storage.url ? `${LOCAL_KEY}@${host}:${resolve(storage.path)}` : LOCAL_KEY;
}

/** Whether a stored key is the local key of an instance (this one or another). */
export const isLocalKey = (label: string): boolean => label === LOCAL_KEY || label.startsWith(`${LOCAL_KEY}@`);

/**
 * Makes a new local token for `label`, replacing the stored one (which stops working at once);
 * resolves to the token, whose hash alone is stored. Rejects with the database's error.
 */
export async function issueLocalToken(store: ApiKeyStore, label: string, now: number): Promise<string> {
  const token = randomToken("mr_");
  await store.replace(label, sha256Hex(token), now);
  return token;
}

/** The scopes and channels of a scoped key's info, nothing for a key with full access. */
const grantInfo = (grant: KeyGrant | undefined) => (grant ? { scopes: grant.scopes, channels: grant.channels } : {});

/**
 * Stores a new key (the dashboard's, or `mailroom token create`'s) and resolves to its token, of
 * which only the hash is stored. Throws failed_precondition when the label is the config file's
 * (`configured`), a local key's or taken; rejects with the database's error.
 */
export async function createKey(store: ApiKeyStore, configured: ReadonlySet<string>, label: string, now: number, grant?: KeyGrant) {
  if (configured.has(label) || isLocalKey(label)) throw precondition(`API key "${label}" exists already (in the config file, or the local one)`);
  const token = randomToken("mr_");
  if (!(await store.insert(label, sha256Hex(token), now, grant))) throw precondition(`API key "${label}" exists already`);
  return { token, createdAt: now };
}

/**
 * The management API's keys as one live source: the config file's, the generated local one and
 * those an admin creates in the dashboard (only SHA-256 hashes are stored; the token is returned
 * once). A key created or revoked here works, or stops working, on the next request. Each use is
 * noted for the dashboard's "last use", written to the database at most once a minute per key.
 */
export function createApiKeys(deps: { config: Config; store: ApiKeyStore; clock: Clock; host?: string }) {
  const { config, store, clock } = deps;
  const localLabel = localKeyLabel(config.storage, deps.host);
  const configured = new Set(config.api_keys.map((k) => k.label));
  const configuredKeys = configuredApiKeys(config);
  const lastUse = new Map<string, number>();
  const written = new Map<string, number>();
  let generated: { label: string; token: string } | undefined;

  const reload = async (): Promise<ApiKey[]> => [
    ...configuredKeys,
    ...(await store.list()).filter((k) => !configured.has(k.label)).map((k) => ({ label: k.label, sha256: k.sha256, ...(k.grant ? { grant: k.grant } : {}) })),
  ];

  /** A reading of the keys after another process changed them: every request waits for the same one. */
  let reloading: Promise<void> | undefined;

  // Until load() resolves, only the config file's keys open requests.
  const source: KeySource = {
    keys: configuredKeys,
    reload,
    async fresh() {
      if (await store.changedElsewhere()) {
        const current: Promise<void> = reload()
          .then((keys) => void (source.keys = keys))
          .finally(() => {
            if (reloading === current) reloading = undefined;
          });
        reloading = current;
      }
      await reloading;
    },
    async used(key) {
      const now = clock.now();
      lastUse.set(key.label, now);
      if (configured.has(key.label) || now - (written.get(key.label) ?? -Infinity) < LAST_USE_WRITE_MS) return;
      written.set(key.label, now);
      await store.touch(key.label, now);
    },
  };

  const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null);

  return {
    source,
    /** This instance's local key (see localKeyLabel). */
    localLabel,
    /**
     * Start-up, before the first request: reads the stored keys, generating this instance's local
     * one when it has none (kept across restarts; an instance starting at the same moment from the
     * same folder may store it first, and then that one is kept). Rejects with the database's error.
     */
    async load(): Promise<void> {
      if (!(await store.list()).some((k) => k.label === localLabel)) {
        const token = randomToken("mr_");
        if (await store.insert(localLabel, sha256Hex(token), clock.now())) generated = { label: localLabel, token };
      }
      source.keys = await reload();
    },
    /** The local token load() generated (to be shown once and saved), if it made one. */
    generated: () => generated,
    async list(): Promise<ApiKeyInfo[]> {
      const rows = (await store.list()).filter((r) => !configured.has(r.label));
      const fromConfig: ApiKeyInfo[] = configuredKeys.map((k) => ({
        label: k.label,
        source: "config",
        created_at: null,
        last_used_at: iso(lastUse.get(k.label)),
        ...grantInfo(k.grant),
      }));
      const stored: ApiKeyInfo[] = rows.map((r) => ({
        label: r.label,
        source: isLocalKey(r.label) ? "local" : "dashboard",
        created_at: iso(r.createdAt),
        last_used_at: iso(Math.max(lastUse.get(r.label) ?? 0, r.lastUsedAt ?? 0)),
        ...grantInfo(r.grant),
      }));
      return [...fromConfig, ...stored].sort((a, b) => a.label.localeCompare(b.label));
    },
    /**
     * A new key, restricted to `grant` when given (a relay key); resolves to its token, shown once.
     * Throws failed_precondition when the label is taken.
     */
    async create(label: string, grant?: KeyGrant): Promise<{ info: ApiKeyInfo; token: string }> {
      const { token, createdAt } = await createKey(store, configured, label, clock.now(), grant);
      source.keys = await reload();
      return { info: { label, source: "dashboard", created_at: iso(createdAt), last_used_at: null, ...grantInfo(grant) }, token };
    },
    /**
     * Revokes a key created in the dashboard, or another instance's local key: its token stops
     * working at once. Throws failed_precondition (the config file's, this instance's local one), not_found.
     */
    async revoke(label: string): Promise<void> {
      if (configured.has(label)) throw precondition(`API key "${label}" is declared in the config file: remove it there`);
      // Another instance's local key may go (a machine taken out of service); this one's is replaced by `token reset`.
      if (label === localLabel) throw precondition(`the local key is this machine's CLI token: \`mailroom token reset\` replaces it`);
      if (!(await store.remove(label))) throw notFound(`API key "${label}" not found`);
      lastUse.delete(label);
      written.delete(label);
      source.keys = source.keys.filter((k) => k.label !== label);
      source.keys = await reload();
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
