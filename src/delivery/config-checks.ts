import type { Problem } from "../config/problems";
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
