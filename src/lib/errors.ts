/**
 * The one error type services throw. It knows nothing of HTTP: each service maps `kind`
 * to its own wire format (gRPC-style body for the webhook API, the vendor's error object
 * for the translation API).
 */
export type ErrorKind =
  | "invalid_argument"
  | "unauthenticated"
  | "permission_denied"
  | "not_found"
  | "failed_precondition"
  | "method_not_allowed"
  | "payload_too_large"
  | "unsupported_media_type"
  | "not_acceptable"
  | "rate_limited"
  | "unavailable"
  | "internal";

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Service-specific extras: the translation API's error code and parameters, a Retry-After… */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const invalid = (message: string, extra?: Record<string, unknown>) => new AppError("invalid_argument", message, extra);
export const notFound = (message: string) => new AppError("not_found", message);
export const precondition = (message: string) => new AppError("failed_precondition", message);

/**
 * Elysia wraps what a parse hook throws (a 401 decided before reading, a 413, bad JSON) in its own
 * ParseError; this gives back our AppError when there is one inside.
 */
export function unwrapParseError(error: unknown, code: string | number): unknown {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return code === "PARSE" && cause instanceof AppError ? cause : error;
}
