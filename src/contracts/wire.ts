import type { ContractReader, HookContractWire } from "../hooks/service";
import type { ContractSubject } from "./check";
import type { ContractStore } from "./store";

/** The result of a hook no schema applies to, which is implied rather than kept (index.ts). */
const NONE: HookContractWire = Object.freeze({ result: "none", violations: [], new_type: false, new_field: false });

/**
 * The hook service's `contract` extension (HOOK_EXTENSIONS), read from the store. `applies` (when
 * checks are on) says whether a schema applies to a hook: a hook with no kept result and no schema
 * reads `none`; one a schema applies to but without a result was not checked (yet) and has none.
 */
export function contractReader(store: ContractStore, applies?: (hook: ContractSubject & { id: string }) => boolean): ContractReader {
  async function kept(ids: readonly string[]): Promise<Map<string, HookContractWire>> {
    const out = new Map<string, HookContractWire>();
    for (const [id, r] of await store.of(ids)) out.set(id, { result: r.result, violations: r.violations, new_type: r.newType, new_field: r.newField });
    return out;
  }
  return {
    kept,
    async of(hooks) {
      const out = await kept(hooks.map((h) => h.id));
      if (applies) for (const h of hooks) if (!out.has(h.id) && !applies(h)) out.set(h.id, NONE);
      return out;
    },
  };
}
