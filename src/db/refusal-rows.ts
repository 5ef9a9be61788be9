import type { Refusal } from "../hooks/guards/types";

/** A refusals row as both backends read it (created_at is a string on PostgreSQL). */
export type RefusalRecord = Omit<Refusal, "createdAt" | "headers" | "id"> & { ref: string; headers: string; created_at: number | string };
export const REFUSAL_COLUMNS = "ref, kind, channel, guard, status, reason, ip, method, query, headers, created_at";

/** A stored row as a Refusal. */
export function toRefusal({ ref, headers, created_at, ...r }: RefusalRecord): Refusal {
  return { id: ref, ...r, headers: JSON.parse(headers), createdAt: Number(created_at) };
}
