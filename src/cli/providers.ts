import { didYouMean } from "../lib/suggest";
import { CERTIFICATE_PROVIDERS } from "../hooks/guards/certificates/table";
import { PRESETS } from "../hooks/guards/providers";
import { configExample, describeHandshake, describeScheme } from "../hooks/guards/scheme/describe";
import { UsageError, noMore, parseFlags } from "../lib/args";
import type { Io } from "../lib/io";

/**
 * `mailroom providers [KIND] [--json]`: every named provider with its scheme (one line each), or
 * one provider in full: what it signs, its handshake, a [[guards]] entry and the source.
 */
export function providersCommand(argv: string[], io: Io): number {
  const p = parseFlags(argv, { json: "bool" });
  noMore(p, 1);
  const kind = p.positional[0];
  const every = [
    ...[...PRESETS.values()].map((x) => ({ ...x, scheme: describeScheme(x.scheme), handshake: describeHandshake(x), config: configExample(x) })),
    ...CERTIFICATE_PROVIDERS,
  ].sort((a, b) => a.kind.localeCompare(b.kind));
  const all = every.filter((x) => kind === undefined || x.kind === kind);
  if (kind !== undefined && all.length === 0) {
    const near = didYouMean(
      kind,
      every.map((x) => x.kind),
    );
    throw new UsageError(`providers: unknown provider ${kind}${near || "; mailroom providers lists them"}`);
  }
  if (p.bools.has("json")) {
    const rows = all.map((x) => ({
      kind: x.kind,
      title: x.title,
      scheme: x.scheme,
      handshake: x.handshake || null,
      config: x.config,
      source: x.source,
    }));
    io.out(`${JSON.stringify(kind ? rows[0] : rows, null, 2)}\n`);
    return 0;
  }
  if (kind !== undefined) {
    const x = all[0]!;
    io.out(`${x.kind}: ${x.title}\n  signs:     ${x.scheme}\n`);
    if (x.handshake) io.out(`  handshake: ${x.handshake}\n`);
    io.out(`  key:       ${x.key}\n  config:    [[guards]] ${x.config}\n  source:    ${x.source}\n`);
    return 0;
  }
  const width = Math.max(...all.map((x) => x.kind.length));
  for (const x of all) io.out(`${x.kind.padEnd(width)}  ${x.scheme}${x.handshake ? `; handshake: ${x.handshake}` : ""}\n`);
  io.out(`\n${all.length} providers. mailroom providers KIND shows one with its [[guards]] entry (docs/providers.md).\n`);
  return 0;
}
