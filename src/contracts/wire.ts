import type { ContractReader, HookContractWire } from "../hooks/service";
import type { ContractStore } from "./store";

/** The hook service's `contract` extension (HOOK_EXTENSIONS), read from the store. */
export function contractReader(store: ContractStore): ContractReader {
  return {
    async of(ids) {
      const out = new Map<string, HookContractWire>();
      for (const [id, r] of await store.of(ids)) out.set(id, { result: r.result, violations: r.violations, new_type: r.newType, new_field: r.newField });
      return out;
    },
  };
}
