import type { Preset } from "../providers/types";
import type { Scheme } from "./types";

const ALGORITHMS: Record<Scheme["algorithm"], string> = {
  "hmac-sha1": "HMAC-SHA1",
  "hmac-sha256": "HMAC-SHA256",
  "hmac-sha512": "HMAC-SHA512",
  ed25519: "Ed25519",
  "ecdsa-p256": "ECDSA P-256 (SHA-256)",
  "rsa-sha256": "RSA SHA-256",
  token: "shared token",
};

/** Where the signature is, in words: `X-Hub-Signature-256` header, body field `signature.signature`... */
function place(s: Scheme): string {
  if (s.field !== undefined) return `body field \`${s.field}\``;
  if (s.query !== undefined) return `query parameter \`${s.query}\``;
  const h = `\`${s.header!.replace("{n}", "1")}\`${s.header!.includes("{n}") ? " (and -2, -3...: any may match)" : ""}`;
  if (s.key !== undefined) {
    const pairs = s.pairs ?? ",";
    const t = s.timestamp?.key ? `${s.timestamp.key}=...${pairs}` : "";
    return `${h} as \`${t}${s.key}=...\` (several allowed)`;
  }
  if (s.timestamp?.first) return `${h} as \`<timestamp>${s.separator},<sig>${s.separator}<sig>...\``;
  if (s.separator !== undefined) return `${h} as \`${s.prefix ?? ""}<sig>\`, several separated by "${s.separator}"`;
  return s.prefix ? `${h} as \`${s.prefix}<sig>\`` : h;
}

const FORMATS = { unix: "Unix seconds", "unix-ms": "Unix milliseconds", rfc3339: "RFC 3339" };

/** One line saying what a scheme signs and how: for `mailroom providers` and docs/providers.md. */
export function describeScheme(s: Scheme): string {
  if (s.algorithm === "token") return `${ALGORITHMS.token} in ${place(s)}, compared with the secret (nothing is signed)`;
  const key = s.publicKey
    ? ` with the sender's public key`
    : s.secret?.encoding && s.secret.encoding !== "utf8"
      ? ` (key: ${s.secret.strip ? `after "${s.secret.strip}", ` : ""}${s.secret.encoding})`
      : "";
  const ts = s.timestamp
    ? `; timestamp (${FORMATS[s.timestamp.format]}) in ${s.timestamp.header ? `\`${s.timestamp.header}\`` : s.timestamp.field ? `body field \`${s.timestamp.field}\`` : "the signature header"}, tolerance ${s.tolerance ?? "300s"}`
    : "";
  return `${ALGORITHMS[s.algorithm]}${key} of \`${s.signed}\`, ${s.encoding} in ${place(s)}${ts}`;
}

const HANDSHAKES: Record<string, string> = {
  slack: "`url_verification`: answers the challenge",
  zoom: "`endpoint.url_validation`: answers plainToken with its HMAC",
  meta: "GET `hub.challenge` with `verify_token`",
  "x-crc": "GET `crc_token` of up to 256 base64 or URL-safe characters: answers `sha256=` HMAC; a body not a JSON object is refused (415)",
  discord: "PING (type 1): answers PONG; bad signature 401",
  twitch: "`webhook_callback_verification`: answers the challenge",
  "microsoft-graph": "`validationToken`: echoes it",
  dropbox: "GET `challenge`: echoes it",
  okta: "GET `x-okta-verification-challenge`: answers `verification`",
};

export const describeHandshake = (p: Preset): string => (p.handshake ? HANDSHAKES[p.handshake]! : "");

/** The [[guards]] entry a user writes for this provider. */
export function configExample(p: Preset): string {
  const asym = p.scheme.publicKey !== undefined;
  const env = `${p.kind.replace(/[^a-z0-9]/g, "_").toUpperCase()}_${asym ? "PUBLIC_KEY" : "SECRET"}`;
  const extra = Object.keys(p.extra ?? {})
    .map((k) => `; ${k} = "..."`)
    .join("");
  return `name = "${p.kind}", kind = "${p.kind}", ${asym ? "public_key_env" : "secret_env"} = "${env}"${extra}`;
}
