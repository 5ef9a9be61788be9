import { AppError, unwrapParseError, type ErrorKind } from "../lib/errors";
import type { Log } from "../lib/log";

/**
 * The translation API's one error body, `{"code", "description", "parameters"}`, for every error
 * status (the spec shows it for 400; the other statuses use the same shape so clients parse one
 * thing). 400 codes are listed in CODES_400; other statuses have one fixed code each.
 */
export const CODES_400 = {
  INVALID_JSON: "the request body is not JSON",
  INVALID_REQUEST: "a field, query parameter or path is missing, unknown, of the wrong type or out of range",
  TEXT_OR_RESOURCE: "revision B: give exactly one of text and resource; revision A: give at least one",
  UNSUPPORTED_RESOURCE_TYPE: "resource.type is not a type this revision supports",
  INVALID_RESOURCE: "resource.data cannot be read as its type (JSON, .strings)",
  NO_TRANSLATABLE_TEXT: "the text or resource holds no translatable characters",
  INVALID_ATTACHMENT: "an attachment is not base64 of a PNG, JPEG, GIF or SVG image of its type",
  LANGUAGE_NOT_FOUND: "a language code is not in the list, or a pair has no rate",
  INSUFFICIENT_FUNDS: "the account lacks funds to place the orders (and has no overdraft)",
  WRONG_ORDER_STATUS: "the order is not in a status that allows this",
  INVALID_AMOUNT: "an amount has more than two decimals",
} as const;
export type Code400 = keyof typeof CODES_400;

export const STATUS: Record<ErrorKind, [number, string]> = {
  invalid_argument: [400, "INVALID_REQUEST"],
  failed_precondition: [400, "WRONG_ORDER_STATUS"],
  unsupported_media_type: [400, "INVALID_REQUEST"],
  unauthenticated: [401, "UNAUTHORIZED"],
  permission_denied: [403, "FORBIDDEN"],
  not_found: [404, "NOT_FOUND"],
  method_not_allowed: [405, "METHOD_NOT_ALLOWED"],
  not_acceptable: [406, "NOT_ACCEPTABLE"],
  payload_too_large: [413, "REQUEST_TOO_LARGE"],
  rate_limited: [429, "TOO_MANY_REQUESTS"],
  internal: [500, "INTERNAL_ERROR"],
  unavailable: [503, "MAINTENANCE"],
};

/** A 400 with one of our codes; parameter values are written as strings, as the spec says. */
export const bad = (code: Code400, description: string, parameters: Record<string, string | number> = {}) =>
  new AppError("invalid_argument", description, { code, parameters });

export const translateError = (kind: ErrorKind, description: string, headers: Record<string, string> = {}) => new AppError(kind, description, { headers });

function body(status: number, code: string, description: string, parameters: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const params = Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, String(v)]));
  return new Response(JSON.stringify({ code, description, parameters: params }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

type Issue = { path?: string; message?: string; summary?: string; schema?: { field?: unknown } };

/** Names the first bad field in `parameters.field`, every bad field in the description. */
function validation(error: unknown): Response {
  const type = (error as { type?: string }).type;
  const where = type === "property" ? "query" : (type ?? "request");
  const issues = ((error as { all?: Issue[] }).all ?? []) as Issue[];
  const fields = new Map<string, string>();
  for (const issue of issues) {
    const named = typeof issue.schema?.field === "string" ? issue.schema.field : undefined;
    const field = (issue.path ?? "").replace(/^\//, "").replaceAll("/", ".") || named || where;
    const message = issue.message === "Unexpected property" ? "unknown field" : (issue.message ?? "invalid").toLowerCase();
    if (!fields.has(field)) fields.set(field, message);
  }
  const [first] = fields;
  const description = `invalid ${where}: ${[...fields].map(([f, m]) => `${f}: ${m}`).join("; ") || "invalid"}`;
  return body(400, "INVALID_REQUEST", description, first ? { field: first[0], reason: first[1] } : {});
}

/** Maps anything thrown on a translation path to its response; unexpected errors reveal nothing. */
export function createErrorResponse(log: Log) {
  return function errorResponse(error: unknown, code: string | number): Response {
    // Our 413 and INVALID_JSON are thrown by a parser, inside Elysia's ParseError.
    error = unwrapParseError(error, code);
    if (error instanceof AppError) {
      const [status, fixed] = STATUS[error.kind];
      const extra = error.extra as { code?: string; parameters?: Record<string, unknown>; headers?: Record<string, string> };
      return body(status, extra.code ?? fixed, error.message, extra.parameters, extra.headers);
    }
    if (code === "VALIDATION") return validation(error);
    if (code === "PARSE") return body(400, "INVALID_JSON", CODES_400.INVALID_JSON);
    if (code === "NOT_FOUND") return body(404, "NOT_FOUND", "no such resource");
    const requestId = crypto.randomUUID();
    log.error("translate: unexpected error", { requestId, error: String((error as Error)?.stack ?? error) });
    return body(500, "INTERNAL_ERROR", `internal error; try again later (request id ${requestId})`);
  };
}
