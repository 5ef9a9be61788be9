/**
 * The SQL condition of ListQuery's `eventType` ("" when none): equal, or a prefix when it ends
 * with "*" (counted in characters, as SQL's substr and PostgreSQL's left do). `param` names the
 * next placeholder (`?` on SQLite, `$n` on PostgreSQL): both backends' hook and search stores use it.
 */
export function eventTypeCondition(eventType: string | undefined, param: () => string): { sql: string; args: (string | number)[] } {
  if (eventType === undefined) return { sql: "", args: [] };
  if (!eventType.endsWith("*")) return { sql: ` AND event_type = ${param()}`, args: [eventType] };
  const prefix = eventType.slice(0, -1);
  const n = param();
  return { sql: ` AND substr(event_type, 1, ${n}) = ${param()}`, args: [[...prefix].length, prefix] };
}
