import { randomBytes } from "node:crypto";
import { parse, stringify } from "smol-toml";

/**
 * The TOML file's shape, as an object (see mailroom.example.toml for every key). Sections the
 * helper fills in when they are absent: server.port (0), storage.path (a temp file), one API
 * key, one translation admin and one translator.
 */
export type MailroomConfig = {
  server?: { host?: string; port?: number; public_url?: string; trust_proxy?: boolean };
  storage?: { path?: string; durability?: "full" | "normal"; batch_max?: number };
  api_keys?: { label: string; token?: string; token_env?: string; token_sha256?: string }[];
  hooks?: Record<string, unknown>;
  channels?: { name: string; guards?: string[]; handlers?: string[] }[];
  guards?: ({ name: string; kind: string } & Record<string, unknown>)[];
  handlers?: ({ name: string; kind: string } & Record<string, unknown>)[];
  translate?: Record<string, unknown>;
  metrics?: Record<string, unknown>;
  [section: string]: unknown;
};

/** The names under which the helper adds its own credentials; a config may not use them. */
export const HELPER_LABEL = "mailroom-testing";
export const HELPER_TRANSLATOR = "Testing translator";

export type Credentials = { token: string; translateAdminKey: string; translatorKey: string };

/** 32 random bytes, URL-safe, with a prefix saying what the token is for. */
export const randomKey = (prefix: string) => prefix + randomBytes(32).toString("base64url");

type Table = Record<string, unknown>;
const table = (parent: Table, key: string): Table => {
  const value = parent[key];
  if (value === undefined) return (parent[key] = {}) as Table;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`mailroom-webhooks/testing: config: ${key} must be a table`);
  return value as Table;
};
const list = (parent: Table, key: string): unknown[] => {
  const value = parent[key] ?? (parent[key] = []);
  if (!Array.isArray(value)) throw new Error(`mailroom-webhooks/testing: config: ${key} must be an array`);
  return value;
};

/**
 * The TOML text Mailroom is started with: the user's config (TOML text or object, never
 * changed in place) plus port 0 on 127.0.0.1 and the data file unless given, durability
 * "normal" unless given (a test needs no fsync per hook), the simulator on unless set, and
 * the helper's API key, translation admin and translator. Throws on a config that is not TOML.
 */
export function buildConfig(config: string | MailroomConfig | undefined, dataPath: string, creds: Credentials): string {
  const c: Table = typeof config === "string" ? (parse(config) as Table) : structuredClone(config ?? {});
  const server = table(c, "server");
  server.host ??= "127.0.0.1";
  server.port ??= 0;
  const storage = table(c, "storage");
  storage.path ??= dataPath;
  storage.durability ??= "normal";
  list(c, "api_keys").push({ label: HELPER_LABEL, token: creds.token });
  const translate = table(c, "translate");
  list(translate, "admins").push({ name: HELPER_LABEL, api_key: creds.translateAdminKey });
  list(translate, "translators").push({ name: HELPER_TRANSLATOR, api_key: creds.translatorKey });
  const simulator = table(translate, "simulator");
  simulator.enabled ??= true;
  return stringify(c);
}
