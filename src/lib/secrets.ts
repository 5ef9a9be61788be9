import { timingSafeEqual } from "node:crypto";

/** Hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

/**
 * Compares two strings in time that depends only on their lengths' maximum, never on where
 * they differ. Hash both sides first when the lengths themselves are secret.
 */
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const x = typeof a === "string" ? Buffer.from(a) : Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const y = typeof b === "string" ? Buffer.from(b) : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (x.length !== y.length) {
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

/** Checks a presented token against a stored SHA-256 hex digest in constant time. */
export function tokenMatchesHash(token: string, hashHex: string): boolean {
  return constantTimeEqual(sha256Hex(token), hashHex.toLowerCase());
}

/** A random URL-safe token with the given prefix, 32 bytes of entropy. */
export function randomToken(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return prefix + Buffer.from(bytes).toString("base64url");
}
