/**
 * A hook's statuses and its events' kinds, written out once. The TypeBox models (hooks/model.ts),
 * the stores, the metrics and the dashboard derive theirs from these lists. It imports only
 * schema/statuses.ts, which imports nothing, so the dashboard's bundle may import it too.
 */

import type { HookStatus } from "../schema/statuses";

// The lists themselves live with the tables that constrain their columns (schema/ sits below hooks/).
export { EVENT_KINDS, HOOK_STATUSES, type EventKind, type HookStatus } from "../schema/statuses";

/** The statuses each action on a hook starts from; from any other it answers 409. */
export const TRANSITION_FROM = {
  process: ["pending"],
  fail: ["pending"],
  discard: ["pending", "failed"],
  retry: ["failed", "discarded"],
} as const satisfies Record<string, readonly HookStatus[]>;
export type Transition = keyof typeof TRANSITION_FROM;

/** Whether `action` applies to a hook of this status (a status read from a URL may be any string). */
export function canTransition(action: Transition, status: string): boolean {
  return (TRANSITION_FROM[action] as readonly string[]).includes(status);
}

/** `a, b, c or d`: the statuses in an error message. */
export function listOr(values: readonly string[]): string {
  return values.length < 2 ? values.join("") : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
}
