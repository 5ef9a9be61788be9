import { NAME_PATTERN } from "../config/schema";
import { createKey } from "../hooks/api-keys";
import type { ApiKeyStore, KeyGrant } from "../hooks/api-key-store";
import { AppError } from "../lib/errors";
import { UsageError, noMore, parseFlags } from "../lib/args";
import type { Io } from "../lib/io";

/** Where `token create` stores the key: the configured database's key store, and how to let go of it. */
export type KeyStoreHandle = { store: ApiKeyStore; announce(): Promise<void>; close(): Promise<void> };

/**
 * `mailroom token create --label L [--scope relay --channel C ...]`: stores a new API key in the
 * configured database (a running Mailroom accepts it at its next request) and prints its token
 * once on stdout; only its hash is stored. With `--scope relay` the key relays the channels named
 * by `--channel` and answers 403 everywhere else; without a scope it has full access.
 */
export async function tokenCreate(
  argv: string[],
  io: Io,
  open: (config?: string) => Promise<{ handle: KeyStoreHandle; configured: ReadonlySet<string> }>,
): Promise<number> {
  const p = parseFlags(argv, { config: "value", label: "value", scope: "multi", channel: "multi" });
  noMore(p, 0);
  const label = p.values.label;
  if (!label) throw new UsageError("token create needs --label NAME");
  if (!new RegExp(NAME_PATTERN).test(label) || label.length > 64)
    throw new UsageError(`--label: must be lowercase letters and digits, words joined by - or _, at most 64 characters: ${label}`);
  const scopes = [...new Set(p.multi.scope ?? [])];
  const channels = [...new Set(p.multi.channel ?? [])];
  for (const s of scopes) if (s !== "relay") throw new UsageError(`--scope: the only scope is relay (leave it out for full access), not ${s}`);
  for (const c of channels) {
    if (!new RegExp(NAME_PATTERN).test(c) || c.length > 64) throw new UsageError(`--channel: not a channel name: ${c}`);
  }
  if (scopes.length > 0 && channels.length === 0) throw new UsageError("--scope relay needs the channels it may relay: --channel NAME (repeatable)");
  if (channels.length > 0 && scopes.length === 0)
    throw new UsageError("--channel is only used with --scope relay (a key without scopes reaches every channel)");
  const grant: KeyGrant | undefined = scopes.length > 0 ? { scopes, channels } : undefined;
  const { handle, configured } = await open(p.values.config);
  try {
    const { token } = await createKey(handle.store, configured, label, io.now(), grant);
    await handle.announce();
    const what = grant ? `a relay key for ${channels.join(", ")}` : "full access";
    io.err(`created API key "${label}" (${what}); the token below is shown once, only its hash is stored\n`);
    io.out(token + "\n");
    return 0;
  } catch (error) {
    if (error instanceof AppError) return (io.err(`mailroom: token create: ${error.message}\n`), 1);
    throw error;
  } finally {
    await handle.close();
  }
}
