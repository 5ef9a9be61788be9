/** A channel's JSON Schema as compiled when the config loaded (contracts/check.ts reads its errors). */
export type CompiledSchema = ((body: unknown) => boolean) & { errors?: unknown };
