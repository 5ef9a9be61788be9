import { CHANNEL_GLOB_PATTERN, KEY_SCOPES, NAME_PATTERN } from "../config/schema";
import { createKey } from "../hooks/api-keys";
import type { ApiKeyStore, KeyGrant } from "../hooks/api-key-store";
import { AppError } from "../lib/errors";
import { UsageError, noMore, parseFlags } from "../lib/args";
import type { Io } from "../lib/io";

/** Where `token create` stores the key: the configured database's key store, and how to let go of it. */
export type KeyStoreHandle = { store: ApiKeyStore; announce(): Promise<void>; close(): Promise<void> };

/**
 * `mailroom token create --label L [--scope relay --channel C ... | --channels P,... [--scope read]]`:
 * stores a new API key in the configured database (a running Mailroom accepts it at its next
 * request) and prints its token once on stdout; only its hash is stored. With `--scope relay` the
 * key relays the channels named by `--channel` and answers 403 everywhere else; with `--channels`
 * it reads and acts on the hooks of those channels only (`--scope read`: reads only); without
 * either it has full access.
 */
export async function tokenCreate(
  argv: string[],
  io: Io,
  open: (config?: string) => Promise<{ handle: KeyStoreHandle; configured: ReadonlySet<string> }>,
): Promise<number> {
  const p = parseFlags(argv, { config: "value", label: "value", scope: "multi", channel: "multi", channels: "multi" });
  noMore(p, 0);
  const label = p.values.label;
  if (!label) throw new UsageError("token create needs --label NAME");
  if (!new RegExp(NAME_PATTERN).test(label) || label.length > 64)
    throw new UsageError(`--label: must be lowercase letters and digits, words joined by - or _, at most 64 characters: ${label}`);
  const grant = grantOf(
    [...new Set(p.multi.scope ?? [])],
    [...new Set(p.multi.channel ?? [])],
    [...new Set((p.multi.channels ?? []).flatMap((c) => c.split(",")).map((c) => c.trim()))],
  );
  const { handle, configured } = await open(p.values.config);
  try {
    const { token } = await createKey(handle.store, configured, label, io.now(), grant);
    await handle.announce();
    const what = !grant
      ? "full access"
      : grant.scopes.includes("relay")
        ? `a relay key for ${grant.channels.join(", ")}`
        : `${grant.scopes.includes("act") ? "reads and acts on" : "reads"} channels ${grant.channels.join(", ")} only`;
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

/**
 * The grant of `--scope`, `--channel` (a relay key's channels) and `--channels` (patterns of a key
 * scoped to channels): `--channels` alone reads and acts on those channels, with `--scope read`
 * it only reads; `--scope relay` with `--channel` relays. None: full access.
 */
function grantOf(scopes: string[], channel: string[], channels: string[]): KeyGrant | undefined {
  for (const s of scopes)
    if (!(KEY_SCOPES as readonly string[]).includes(s))
      throw new UsageError(`--scope: one of ${KEY_SCOPES.join(", ")} (leave it out for full access), not ${s}`);
  for (const c of channel) if (!new RegExp(NAME_PATTERN).test(c) || c.length > 64) throw new UsageError(`--channel: not a channel name: ${c}`);
  for (const c of channels)
    if (!new RegExp(CHANNEL_GLOB_PATTERN).test(c) || c.length > 64) throw new UsageError(`--channels: not a channel name or pattern ("stripe-*"): ${c}`);
  if (channel.length > 0 && channels.length > 0) throw new UsageError("--channel names a relay key's channels, --channels a scoped key's: give one");
  if (scopes.includes("relay")) {
    if (scopes.length > 1) throw new UsageError("--scope relay goes alone");
    if (channel.length === 0) throw new UsageError("--scope relay needs the channels it may relay: --channel NAME (repeatable)");
    return { scopes, channels: channel };
  }
  if (channel.length > 0) throw new UsageError("--channel is only used with --scope relay (--channels scopes a key to channels)");
  if (channels.length === 0) {
    if (scopes.length > 0) throw new UsageError(`--scope ${scopes[0]} needs the channels it reaches: --channels PATTERN`);
    return undefined;
  }
  const reads = scopes.length === 0 ? ["read", "act"] : scopes.includes("read") ? scopes : ["read", ...scopes];
  return { scopes: KEY_SCOPES.filter((s) => reads.includes(s)), channels };
}
