/**
 * Every table of Mailroom on PostgreSQL, mirroring ../../schema (same names, columns, indexes and
 * foreign keys) with PostgreSQL types, plus what several instances need: channel_counts (striped
 * counters) and the lease columns of attempts. drizzle-kit reads this file (drizzle.pg.config.ts).
 */
export * from "./hooks";
export * from "./guards";
export * from "./runner";
export * from "./translate";
export * from "./dashboard";
export * from "./misbehave";
export * from "./relay";
export * from "./alerts";
export * from "./contracts";
export * from "./bulk";
export * from "./tags";
export * from "./share";
export * from "./marks";
export * from "./notify";
