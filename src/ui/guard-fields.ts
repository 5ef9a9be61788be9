/**
 * The settings of a guard kind as form fields. The server lists each kind's settings (GET /guards:
 * key, description, required, default), so every kind, presets included, gets its form; the table
 * below adds, for the kinds written by hand, better labels and the control (a list, a choice).
 * test/ui/guard-fields.test.ts holds the table to the config file's schemas (src/config/guards.ts).
 * The secret (or public key) is asked apart: it is write-only.
 */
export type ServerField = { key: string; description: string; required: boolean; default?: unknown };
export type GuardKind = { kind: string; secret: string | null; fields?: ServerField[] };

export type GuardField = {
  key: string;
  label: string;
  type: "text" | "list" | "select";
  options?: string[];
  required?: boolean;
  placeholder?: string;
  hint?: string;
};

const tolerance: GuardField = {
  key: "tolerance",
  label: "Tolerance",
  type: "text",
  placeholder: "300s",
  hint: 'How far the signed time may be from now; "0s" turns the check off.',
};

export const GUARD_FIELDS: Record<string, GuardField[]> = {
  github: [],
  stripe: [tolerance],
  "standard-webhooks": [tolerance],
  shopify: [],
  slack: [tolerance],
  hmac: [
    { key: "header", label: "Signature header", type: "text", required: true, placeholder: "x-signature" },
    { key: "prefix", label: "Prefix", type: "text", placeholder: "sha256=", hint: "Text before the signature in the header." },
    { key: "algorithm", label: "Algorithm", type: "select", options: ["sha256", "sha1", "sha512"] },
    { key: "encoding", label: "Signature encoding", type: "select", options: ["hex", "base64", "base64url"] },
    { key: "secret_encoding", label: "How the secret is written", type: "select", options: ["utf8", "base64", "hex"] },
    {
      key: "signed",
      label: "What is signed",
      type: "text",
      placeholder: "{body}",
      hint: "A template: {body} once, and {timestamp}, {method}, {query}, {header:NAME}.",
    },
    { key: "timestamp_header", label: "Timestamp header", type: "text", placeholder: "x-timestamp" },
    tolerance,
  ],
  "basic-auth": [
    { key: "username", label: "User name", type: "text", required: true },
    { key: "realm", label: "Realm", type: "text", placeholder: "mailroom" },
  ],
  token: [
    { key: "header", label: "Token header", type: "text", placeholder: "authorization" },
    { key: "scheme", label: "Scheme", type: "text", placeholder: "Bearer", hint: 'The word before the token; "Bearer" for Authorization, none elsewhere.' },
    { key: "query", label: "Query parameter", type: "text", hint: "Read the token from this query parameter instead of a header." },
  ],
  "ip-allow": [{ key: "allow", label: "Allowed senders", type: "list", required: true, placeholder: "192.30.252.0/22, 2606:50c0::/32" }],
  method: [{ key: "allow", label: "Allowed methods", type: "list", placeholder: "POST" }],
  "content-type": [{ key: "allow", label: "Allowed media types", type: "list", placeholder: "application/json, application/*+json" }],
  "max-body": [{ key: "max", label: "Largest body", type: "text", placeholder: "1MB" }],
};

const shown = (v: unknown) => (Array.isArray(v) ? v.join(", ") : v === undefined || v === "" ? undefined : String(v));

/** The form's fields of a kind: the server's list (every setting), with the table's labels and controls where it has them. */
export function formFields(kind: GuardKind): GuardField[] {
  const known = GUARD_FIELDS[kind.kind] ?? [];
  if (!kind.fields) return known;
  return kind.fields.map((f) => {
    const k = known.find((x) => x.key === f.key);
    return {
      key: f.key,
      label: k?.label ?? f.key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()),
      type: k?.type ?? (Array.isArray(f.default) ? "list" : "text"),
      options: k?.options,
      required: f.required,
      placeholder: k?.placeholder ?? shown(f.default),
      hint: f.description ? f.description.replace(/^./, (c) => c.toUpperCase()) : k?.hint,
    };
  });
}

/** The settings object of the form's values: blanks left out (the kind's default applies), lists split at commas. */
export function settingsOf(fields: GuardField[], values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = (values[f.key] ?? "").trim();
    if (!v) continue;
    out[f.key] =
      f.type === "list"
        ? v
            .split(/[,\n]/)
            .map((s) => s.trim())
            .filter(Boolean)
        : v;
  }
  return out;
}

/** Which of `keys` a server message names first ("invalid body: settings.header: must ..."), if any. */
export function fieldOf(message: string, keys: string[]): string | undefined {
  let best: [number, string] | undefined;
  for (const k of keys) {
    const at = message.search(new RegExp(`(^|[\\s.:/"])${k.replace(/[-_]/g, "[-_]")}($|[\\s.:"\\[])`));
    if (at >= 0 && (!best || at < best[0])) best = [at, k];
  }
  return best?.[1];
}
