import type { Problem } from "../config/problems";
import type { Config } from "../config/schema";
import { verifiedChannels } from "./index";
import { keyOf, resignKeyProblem, resignProblem } from "./resign";

/**
 * What a `resign` table's schema cannot say, registered with the config loader (src/load-config.ts):
 * a provider kind that can be re-signed, and the key it signs with (a secret for HMAC and token
 * schemes, a private key for asymmetric ones). Paths are relative to the table.
 */
export function resignConfigProblems(entry: { kind: string; secret?: string; private_key?: string }): Problem[] {
  const problem = resignProblem(entry.kind);
  if (problem) return [{ path: "kind", message: problem }];
  const key = keyOf(entry.kind);
  const other = key === "secret" ? "private_key" : "secret";
  if (entry[key] === undefined)
    return [{ path: "", message: `${entry.kind} signs with ${key === "secret" ? "a shared secret" : "a private key (PEM)"}: give ${key} or ${key}_env` }];
  if (entry[other] !== undefined)
    return [{ path: other, message: `${entry.kind} does not sign with a ${other === "secret" ? "shared secret" : "private key"}: give ${key}` }];
  const bad = resignKeyProblem(entry);
  return bad ? [{ path: bad.key, message: bad.message }] : [];
}

/**
 * check-config's warnings about re-signing: a re-signing channel, or a channel of a re-signing
 * handler, without a guard that verifies the sender. Its hooks are delivered without re-signing
 * (anyone can post to the catching endpoint: re-signing them would forge events with the app's secret).
 */
export function resignWarnings(config: Pick<Config, "channels" | "handlers" | "guards">): string[] {
  const verified = verifiedChannels(config);
  const warnings: string[] = [];
  const why = (channel: string) => `channel "${channel}" has no guard that verifies the sender: its hooks are delivered without re-signing`;
  config.channels.forEach((c, i) => {
    if (c.resign && !verified.has(c.name)) warnings.push(`channels[${i}].resign: ${why(c.name)}`);
  });
  config.handlers.forEach((h, i) => {
    if (!(h as { resign?: unknown }).resign) return;
    for (const c of config.channels) if (c.handlers.includes(h.name) && !verified.has(c.name)) warnings.push(`handlers[${i}].resign: ${why(c.name)}`);
  });
  return warnings;
}
