import type { ErrorBody, TranslateErrorBody } from "./types";

/** A non-2xx answer of the management API; `body` is its error body `{code, message, details}`. */
export class MailroomApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    method: string,
    path: string,
  ) {
    super(`${method} ${path}: ${status} ${body.message ?? ""}`.trim());
    this.name = "MailroomApiError";
  }
}

/** A non-2xx answer of a translation API; `body` is its error body `{code, description, parameters}`. */
export class TranslateApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: TranslateErrorBody,
    readonly headers: Headers,
    method: string,
    path: string,
  ) {
    super(`${method} ${path}: ${status} ${body.code ?? ""} ${body.description ?? ""}`.trim());
    this.name = "TranslateApiError";
  }
}

export type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * A JSON caller for one API with one Authorization header. Resolves with the parsed body of a 2xx
 * answer (undefined for 204); throws `fail(status, body, headers)` for any other status.
 */
export function jsonCaller(
  base: string,
  authorization: string,
  fail: (status: number, body: unknown, headers: Headers, method: string, path: string) => Error,
): Call {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { authorization, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { message: text, description: text };
      }
    }
    if (!res.ok) throw fail(res.status, parsed ?? {}, res.headers, method, path);
    return parsed as T;
  };
}

/** `?a=1&b=2` of the defined values, or "". */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}
