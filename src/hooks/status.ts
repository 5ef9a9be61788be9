/**
 * A hook's statuses and its events' kinds, written out once. The TypeBox models (hooks/model.ts),
 * the stores, the metrics and the dashboard derive theirs from these lists. This module imports
 * nothing, so anything may import it, the dashboard's bundle included.
 */

/** In the order lists, channel stats and metrics show them. */
export const HOOK_STATUSES = ["pending", "handled", "failed", "discarded"] as const;
export type HookStatus = (typeof HOOK_STATUSES)[number];

export const EVENT_KINDS = ["handled", "discarded", "retried", "failed"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

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
