import { Elysia } from "elysia";
import { notFound } from "../../lib/errors";
import { translateError } from "../errors";
import type { Gate } from "../gate";

/** What an id in a path looks like: a positive integer in decimal, no sign or leading zero. */
export const ID_PATTERN = "^[1-9][0-9]{0,14}$";
const ID = new RegExp(ID_PATTERN);

/** `/orders/{ID}`: a positive integer, or the order does not exist (404). */
export function orderId(param: string): number {
  if (!ID.test(param)) throw notFound(`order ${param} not found`);
  return Number(param);
}

/** Account ids are positive integers too. */
export function accountId(param: string): number {
  if (!ID.test(param)) throw notFound(`account ${param} not found`);
  return Number(param);
}

export const noContent = () => new Response(null, { status: 204 });

/**
 * An Elysia instance under `prefix` whose JSON bodies are read by the gate (size-limited,
 * counted while streaming) and only for the routes in `bodyRoutes`; other routes never read theirs.
 */
export function jsonInstance(prefix: string, gate: Gate, bodyRoutes: string[]) {
  const takesBody = new Set(bodyRoutes.map((r) => prefix + r));
  return new Elysia({ normalize: false, prefix }).onParse(({ request, route }) => (takesBody.has(route) ? gate.json(request) : null));
}

/** Fallbacks are no operations of the API: the OpenAPI documents leave them out. */
const hidden = { detail: { hide: true } };

/**
 * 405 with `Allow` for a wrong method on a known path, and 404 in our format for any other path
 * under `prefix/*` (revision A shares /v1 with the webhook API, so it passes its own roots).
 */
export function fallbacks(prefix: string, known: Record<string, string[]>, roots: string[] = ["/*"]) {
  let app = new Elysia({ normalize: false, prefix }).onParse(() => null);
  for (const [path, methods] of Object.entries(known)) {
    const allow = methods.join(", ");
    app = app.all(
      path,
      ({ request }) => {
        throw translateError("method_not_allowed", `${request.method} is not allowed on ${prefix}${path}; use ${allow}`, { allow });
      },
      hidden,
    );
  }
  for (const root of roots) {
    app = app.all(
      root,
      ({ request }) => {
        throw notFound(`no such resource: ${new URL(request.url).pathname}`);
      },
      hidden,
    );
  }
  return app;
}
