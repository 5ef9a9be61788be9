/** @jsxImportSource preact */
import type { HookExtended } from "../api";

export type Contract = NonNullable<HookExtended["contract"]>;

/**
 * A hook's contract check (docs/contracts.md): its result, and whether it brought a new event type
 * or field. `compact` (a list row) leaves out "no schema", which most hooks have.
 */
export function ContractBadge({ contract, compact = false }: { contract: Contract; compact?: boolean }) {
  const tone = contract.result === "valid" ? "status-handled" : contract.result === "invalid" ? "status-failed" : "";
  const label = contract.result === "none" ? "no schema" : contract.result === "unknown" ? "schema: unknown type" : `schema ${contract.result}`;
  return (
    <>
      {!(compact && contract.result === "none") && (
        <span class={`status ${tone}`} title="Checked against the provider's or the channel's JSON Schema">
          {label}
        </span>
      )}
      {contract.new_type && <span class="status status-pending">new type</span>}
      {contract.new_field && <span class="status status-pending">new field</span>}
    </>
  );
}
