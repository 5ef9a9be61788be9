import type { TranslateConfig } from "../config/translate";
import { sha256Hex } from "../lib/secrets";

export type Principal =
  | { role: "customer"; accountId: number; key: string }
  | { role: "translator"; name: string; key: string }
  | { role: "admin"; name: string; key: string }
  | { role: "anonymous"; key: string };

/**
 * The key presented in `Authorization`: Basic with the key as username and an empty (ignored)
 * password, or Bearer. Undefined when the header is absent; "" when it is malformed.
 *
 * @example presentedKey("Basic " + btoa("customer-key-1:")) === "customer-key-1"
 */
export function presentedKey(header: string | null): string | undefined {
  if (header === null) return undefined;
  const m = /^\s*(Basic|Bearer)\s+(\S+)\s*$/i.exec(header);
  if (!m) return "";
  if (m[1]!.toLowerCase() === "bearer") return m[2]!;
  const decoded = Buffer.from(m[2]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? decoded : decoded.slice(0, colon);
}

/** Finds whom a key belongs to: undefined for an unknown or empty key. Rejects when storage fails. */
export type Keyring = (key: string) => Promise<Principal | undefined>;

/**
 * Every configured key mapped to whom it belongs, then the keys stored by `stored` (accounts
 * created through the admin API). Keys are looked up by their SHA-256, so the lookup time says
 * nothing about how much of a key matched.
 */
export function createKeyring(c: TranslateConfig, stored: (keySha256: string) => Promise<number | undefined> = async () => undefined): Keyring {
  const byHash = new Map<string, Principal>();
  const add = (key: string | undefined, p: Principal) => {
    if (key !== undefined) byHash.set(sha256Hex(key), p);
  };
  for (const a of c.accounts) {
    for (const key of [...a.api_keys, ...(a.api_key === undefined ? [] : [a.api_key])]) {
      add(key, { role: "customer", accountId: a.id, key: `account:${a.id}:${sha256Hex(key).slice(0, 12)}` });
    }
  }
  for (const t of c.translators) add(t.api_key, { role: "translator", name: t.name, key: `translator:${t.name}` });
  c.admins.forEach((a, i) => add(a.api_key, { role: "admin", name: a.name, key: `admin:${i}` }));
  // Then the keys of accounts created through the admin API, kept in the database.
  return async (key) => {
    if (key === "") return undefined;
    const hash = sha256Hex(key);
    const configured = byHash.get(hash);
    if (configured) return configured;
    const accountId = await stored(hash);
    return accountId === undefined ? undefined : { role: "customer", accountId, key: `account:${accountId}:${hash.slice(0, 12)}` };
  };
}
