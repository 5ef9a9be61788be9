import { AppError, unwrapParseError, type ErrorKind } from "../lib/errors";
import type { Log } from "../lib/log";

/**
 * The webhook service's one error body, `{"code": <gRPC code>, "message": "...", "details": []}`,
 * and the table from error kinds to HTTP status and gRPC code.
 */
export const STATUS: Record<ErrorKind, { http: number; grpc: number }> = {
  invalid_argument: { http: 400, grpc: 3 },
  unauthenticated: { http: 401, grpc: 16 },
  permission_denied: { http: 403, grpc: 7 },
  not_found: { http: 404, grpc: 5 },
  method_not_allowed: { http: 405, grpc: 12 },
  not_acceptable: { http: 406, grpc: 3 },
  failed_precondition: { http: 409, grpc: 9 },
  payload_too_large: { http: 413, grpc: 8 },
  unsupported_media_type: { http: 415, grpc: 3 },
  rate_limited: { http: 429, grpc: 8 },
  internal: { http: 500, grpc: 13 },
  unavailable: { http: 503, grpc: 14 },
};

const JSON_TYPE = { "content-type": "application/json" };

export function errorResponse(kind: ErrorKind, message: string, headers: Record<string, string> = {}): Response {
  const { http, grpc } = STATUS[kind];
  return new Response(JSON.stringify({ code: grpc, message, details: [] }), {
    status: http,
    headers: { ...JSON_TYPE, ...headers },
  });
}

type ValidationIssue = { path: string; message: string; value?: unknown; schema?: { error?: unknown } };

/** Query and path values are echoed in what refuses them (cut short); bodies never are (they may hold secrets). */
const echoed = (where: string, value: unknown) =>
  (where === "query" || where === "params") && typeof value === "string"
    ? `: got ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value)}`
    : "";

/**
 * Names each bad field: "invalid query: limit: must be an integer from 1 to 100". Schemas whose
 * field path Elysia may lose (coerced query numbers) carry an `error` text that names the field.
 */
function describeValidation(error: unknown): string {
  const all = ((error as { all?: ValidationIssue[] }).all ?? []) as ValidationIssue[];
  const type = (error as { type?: string }).type;
  const where = type === "property" ? "query" : (type ?? "request");
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const issue of all) {
    const field = issue.path.replace(/^\//, "").replaceAll("/", ".");
    const custom = typeof issue.schema?.error === "string" ? issue.schema.error : undefined;
    const text =
      custom !== undefined
        ? custom + echoed(where, issue.value)
        : `${field || where}: ${issue.message === "Unexpected property" ? "unknown field" : issue.message.toLowerCase()}`;
    if (seen.has(text)) continue;
    seen.add(text);
    parts.push(text);
  }
  return parts.length ? `invalid ${where}: ${parts.join("; ")}` : `invalid ${where}`;
}

/**
 * Maps anything thrown on a webhook-service path to its response. Unexpected errors are logged
 * with a request id and answered with a generic 500 that reveals nothing.
 */
export function hooksErrorResponse(
  error: unknown,
  code: string | number,
  log: Log,
  request: Request,
  /** The methods the path has routes for: a path that has some, but not this method, is a 405. */
  methodsOf: (path: string) => string[] = () => [],
): Response {
  error = unwrapParseError(error, code);
  if (error instanceof AppError) {
    const headers: Record<string, string> = {};
    if (error.extra.retryAfter !== undefined) headers["retry-after"] = String(error.extra.retryAfter);
    if (error.extra.wwwAuthenticate !== undefined) headers["www-authenticate"] = String(error.extra.wwwAuthenticate);
    return errorResponse(error.kind, error.message, headers);
  }
  const responseInvalid = code === "VALIDATION" && (error as { type?: string }).type === "response";
  switch (responseInvalid ? "UNEXPECTED" : code) {
    case "VALIDATION":
      return errorResponse("invalid_argument", describeValidation(error));
    case "PARSE":
      return errorResponse("invalid_argument", "the request body is not valid JSON");
    case "NOT_FOUND": {
      const path = new URL(request.url).pathname;
      const allowed = methodsOf(path);
      if (allowed.length > 0) {
        const allow = allowed.join(", ");
        return errorResponse("method_not_allowed", `${request.method} is not allowed on ${path}; use ${allow}`, { allow });
      }
      return errorResponse("not_found", `no route for ${request.method} ${path}`);
    }
    case "INVALID_COOKIE_SIGNATURE":
      return errorResponse("invalid_argument", "invalid cookie");
  }
  const requestId = crypto.randomUUID();
  const path = new URL(request.url).pathname;
  if (responseInvalid) {
    // Elysia's message carries the whole response (a hook's body, megabytes): only where it failed.
    const at = (error as { valueError?: { path?: string; message?: string } }).valueError;
    log.error("a response does not match its schema", { requestId, path, at: at?.path ?? "", why: at?.message ?? "" });
  } else {
    log.error("unexpected error", { requestId, path, error: String((error as Error)?.stack ?? error) });
  }
  return errorResponse("internal", `internal error (request id ${requestId})`);
}

/**
 * The webhook service's error handler, for the onError of each of its APIs (catching, the
 * management API, its live streams, the dashboard's API): a route's errors, in this format.
 */
export function webhookErrors(log: Log) {
  return ({ error, code, request }: { error: unknown; code: string | number; request: Request }): Response => hooksErrorResponse(error, code, log, request);
}
