import type { DocumentDecoration } from "elysia";

/**
 * Routes that check their input themselves (not through Elysia's `body`/`query` options, see
 * translate/check.ts) name the models they check with in their `detail`, under this key, so the
 * OpenAPI documents describe exactly what is checked. Elysia validates nothing with it.
 */
export const ROUTE_INPUT = "x-input";

/** What a route checks: `body` and `query` models, each the one its checker compiled. */
export type RouteInput = { body?: unknown; query?: unknown };

/** Something that checks one part of a request with a model (a checker of translate/check.ts). */
export type Declared = { where: keyof RouteInput; schema: unknown };

/**
 * The route options that declare what these checkers check.
 *
 * @example .post("/translate", ({ body }) => place(translateBody(body)), declares(translateBody))
 */
export function declares(...checkers: Declared[]): { detail: DocumentDecoration } {
  const input: RouteInput = {};
  for (const c of checkers) input[c.where] = c.schema;
  return { detail: { [ROUTE_INPUT]: input } as DocumentDecoration };
}
