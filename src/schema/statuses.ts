/**
 * A hook's statuses and its events' kinds, written out once: the tables below constrain their
 * columns to them, and hooks/status.ts (the TypeBox models, the stores, the metrics and the
 * dashboard) takes them from here. This module imports nothing, so anything may import it.
 */

/** In the order lists, channel stats and metrics show them. */
export const HOOK_STATUSES = ["pending", "handled", "failed", "discarded"] as const;
export type HookStatus = (typeof HOOK_STATUSES)[number];

export const EVENT_KINDS = ["handled", "discarded", "retried", "failed"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
