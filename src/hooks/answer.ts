/**
 * A custom answer to a sender (a channel's response setting, one step of its sequence), as the
 * catching endpoint sends it: responses/ compiles the settings and keeps each channel's place in
 * its sequence; catching asks it through CustomResponses, which the composition hands in.
 */
export type Answer = { status: number; headers: Record<string, string>; body?: string; delayMs: number; store: boolean };

/** What catching needs of custom responses (responses/index.ts createResponses). */
export interface CustomResponses {
  /** Hot path: the answer for this request (taking its step of a sequence), or undefined for the default one. */
  next(channel: string): Answer | undefined;
}

const CORS = { "access-control-allow-origin": "*" };
/** Statuses whose responses have no body. */
const NO_BODY = new Set([204, 205, 304]);

/**
 * The response for an answer: `{{id}}` in the body becomes the hook id ("" when not stored);
 * without a body, `{"id"}` (or `{}` when not stored) as JSON. A custom body is text/plain unless
 * the headers say otherwise.
 */
export function answerResponse(a: Answer, id: string | undefined): Response {
  const headers = new Headers(CORS);
  let body: string | null;
  if (a.body === undefined) {
    body = id === undefined ? "{}" : `{"id":"${id}"}`;
    headers.set("content-type", "application/json");
  } else {
    body = a.body.replaceAll("{{id}}", id ?? "");
    headers.set("content-type", "text/plain; charset=utf-8");
  }
  for (const [name, value] of Object.entries(a.headers)) headers.set(name, value);
  // The catching endpoint shares the dashboard's origin, and anyone with an API key sets this body:
  // a browser must never run it, whatever content type it says it is.
  headers.set("content-security-policy", "sandbox; default-src 'none'; frame-ancestors 'none'");
  headers.set("x-content-type-options", "nosniff");
  if (NO_BODY.has(a.status)) body = null;
  return new Response(body, { status: a.status, headers });
}
