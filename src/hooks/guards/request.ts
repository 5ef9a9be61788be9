import { kindAuthenticates } from "./kinds";
import type { ContentTypeGuardConfig, MaxBodyGuardConfig, MethodGuardConfig } from "./kinds";
import type { Guard } from "./types";
import { PASS, refuse } from "./verdict";

/** Guards on the request's shape rather than its sender: method, media type, size. */

/** Only the `allow` methods; others get 405 with an Allow header. */
export function createMethodGuard(config: MethodGuardConfig): Guard {
  const allowed = new Set(config.allow.map((m) => m.toUpperCase()));
  const list = [...allowed].join(", ");
  return {
    name: config.name,
    kind: config.kind,
    authenticates: kindAuthenticates(config.kind),
    beforeBody: true,
    check({ method }) {
      if (allowed.has(method.toUpperCase())) return PASS;
      return refuse(405, `method ${method.slice(0, 32)} is not allowed (allowed: ${list})`, { allow: list });
    },
  };
}

/** Only bodies of the `allow` media types ("type/*" for a whole type, "type/*+suffix"); others get 415. */
export function createContentTypeGuard(config: ContentTypeGuardConfig): Guard {
  const allowed = config.allow.map((m) => m.toLowerCase());
  const list = allowed.join(", ");
  // "text/*" matches any text type; "application/*+json" any JSON-based application type.
  const matches = (type: string) =>
    allowed.some((a) => {
      const star = a.indexOf("/*");
      if (star < 0) return a === type;
      const suffix = a.slice(star + 2);
      return type.startsWith(a.slice(0, star + 1)) && type.length > star + 1 + suffix.length && type.endsWith(suffix);
    });
  return {
    name: config.name,
    kind: config.kind,
    authenticates: kindAuthenticates(config.kind),
    beforeBody: true,
    check({ headers }) {
      const type = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (type === "") return refuse(415, `no Content-Type was sent (allowed: ${list})`);
      if (matches(type)) return PASS;
      return refuse(415, `content type ${type.slice(0, 100)} is not allowed (allowed: ${list})`);
    },
  };
}

/**
 * A size limit below [hooks] max_body. The catching endpoint enforces `maxBody` while reading, so
 * a larger body is never buffered; check() says the same for a body that reached it anyway.
 */
export function createMaxBodyGuard(config: MaxBodyGuardConfig): Guard {
  const maxBody = config.max;
  return {
    name: config.name,
    kind: config.kind,
    authenticates: kindAuthenticates(config.kind),
    maxBody,
    check({ body }) {
      return body.byteLength > maxBody ? refuse(413, `body larger than ${maxBody} bytes`) : PASS;
    },
  };
}
