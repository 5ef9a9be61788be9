import { createPublicKey, type KeyObject } from "node:crypto";
import { GuardConfigError } from "../config-error";
import type { Scheme } from "./types";

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows. */
const ED25519_SPKI = Buffer.from("302a300506032b6570032100", "hex");

/** The HMAC key a scheme's secret stands for. Throws GuardConfigError("secret") when it is not written as the scheme says. */
export function secretKey(scheme: Scheme, secret: string): string | Buffer {
  const strip = scheme.secret?.strip;
  const text = strip && secret.startsWith(strip) ? secret.slice(strip.length) : secret;
  const encoding = scheme.secret?.encoding ?? "utf8";
  // An empty key is one anyone can sign with.
  if (text === "") throw new GuardConfigError("secret", strip ? `must be "${strip}" followed by the key` : "must not be empty");
  if (encoding === "utf8") return text;
  const ok = encoding === "hex" ? HEX.test(text) : text !== "" && BASE64.test(text);
  if (!ok) throw new GuardConfigError("secret", strip ? `must be "${strip}" followed by ${encoding}` : `must be ${encoding}`);
  return Buffer.from(text, encoding);
}

/**
 * The public key of an asymmetric scheme: PEM (a public key or a certificate), base64 of the SPKI
 * DER, or the raw Ed25519 key in hex. Throws GuardConfigError("public_key") when it does not parse.
 */
export function publicKeyOf(scheme: Scheme, text: string): KeyObject {
  const form = scheme.publicKey ?? "pem";
  let key: KeyObject;
  try {
    if (form === "hex-raw") {
      if (!/^[0-9a-fA-F]{64}$/.test(text.trim())) throw new Error("not 64 hex digits");
      key = createPublicKey({ key: Buffer.concat([ED25519_SPKI, Buffer.from(text.trim(), "hex")]), format: "der", type: "spki" });
    } else if (form === "base64-raw") {
      const raw = Buffer.from(text.trim(), "base64");
      if (raw.length !== 32) throw new Error("not 32 bytes");
      key = createPublicKey({ key: Buffer.concat([ED25519_SPKI, raw]), format: "der", type: "spki" });
    } else if (form === "base64-spki") {
      const b64 = text.replace(/-----[^-]+-----|\s/g, "");
      if (!BASE64.test(b64)) throw new Error("not base64");
      key = createPublicKey({ key: Buffer.from(b64, "base64"), format: "der", type: "spki" });
    } else key = createPublicKey(text.replace(/\\n/g, "\n"));
  } catch {
    const how =
      form === "hex-raw"
        ? "the hex Ed25519 key"
        : form === "base64-raw"
          ? "the base64 Ed25519 key"
          : form === "base64-spki"
            ? "the base64 public key"
            : "a PEM public key or certificate";
    throw new GuardConfigError("public_key", `does not parse as ${how}`);
  }
  const want = scheme.algorithm === "ed25519" ? "ed25519" : scheme.algorithm === "ecdsa-p256" ? "ec" : "rsa";
  if (key.asymmetricKeyType !== want) throw new GuardConfigError("public_key", `is a ${key.asymmetricKeyType} key; ${scheme.algorithm} needs ${want}`);
  return key;
}

export const isAsymmetric = (scheme: Scheme): boolean => !scheme.algorithm.startsWith("hmac-") && scheme.algorithm !== "token";
