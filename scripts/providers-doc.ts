/**
 * Writes docs/providers.md from the provider table (src/hooks/guards/providers), so the document
 * cannot drift from what Mailroom checks: `bun scripts/providers-doc.ts` (test/guards/docs.test.ts
 * fails when the file is not what this writes).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CERTIFICATE_PROVIDERS } from "../src/hooks/guards/certificates/table";
import { PRESETS } from "../src/hooks/guards/providers";
import { configExample, describeHandshake, describeScheme } from "../src/hooks/guards/scheme/describe";

const cell = (text: string) => text.replaceAll("|", "\\|");

export function providersDoc(): string {
  const all = [
    ...[...PRESETS.values()].map((p) => ({ ...p, scheme: describeScheme(p.scheme), handshake: describeHandshake(p), config: configExample(p) })),
    ...CERTIFICATE_PROVIDERS,
  ].sort((a, b) => a.kind.localeCompare(b.kind));
  const unsigned = [...PRESETS.values()]
    .filter((p) => p.scheme.algorithm === "token" || !/\{(body|form)\}/.test(p.scheme.signed))
    .sort((a, b) => a.kind.localeCompare(b.kind))
    .map((p) => `| \`${p.kind}\` | ${cell(describeScheme(p.scheme))} |`);
  const rows = all.map(
    (p) => `| \`${p.kind}\` | ${cell(p.title)} | ${cell(p.scheme)} | \`${cell(p.config)}\` | ${cell(p.handshake || "none")} | [source](${p.source}) |`,
  );
  return `# Providers

Every sender below is a guard kind: \`kind = "<provider>"\` with \`secret\` or \`secret_env\` (shared
secrets) or \`public_key\` or \`public_key_env\` (senders that sign with a key pair), plus \`tolerance\`
where the provider signs a timestamp, and whatever else the provider needs (\`verify_token\` for
Meta's challenge). \`mailroom providers\` prints the same list; \`mailroom providers KIND\` one of them.
This file is written by \`bun scripts/providers-doc.ts\` from the table Mailroom checks with.

Each provider is one row of a declarative scheme: what is signed (literal text, the body, the
timestamp, a header, the method, the full URL, sorted form fields, a field of the JSON body), how the
signature is written (hex, base64, base64url; a prefix; a key-value header such as \`t=...,v1=...\`;
several signatures, any of which may match; numbered headers), where the timestamp is and how it is
written (Unix seconds or milliseconds, RFC 3339; checked both ways against \`tolerance\`, \`"0s"\`
turns the check off), and the algorithm (HMAC SHA-1/256/512, Ed25519, ECDSA P-256, RSA SHA-256, or a
shared token compared as it is). Signatures and tokens are compared in constant time; a refusal says
what was wrong (a missing header, a signature that does not match: a changed body or another secret,
a timestamp beyond the tolerance) and never the expected value.

Schemes that sign the URL (Twilio, Square, HubSpot, Trello, Mandrill) sign it as the sender sees it:
set \`[server] public_url\` to the address the provider posts to (\`https://hooks.example.com\`), and
Mailroom puts the request's path and query after it. Without it, the URL the request arrived at is
used, which is right only when nothing (a proxy, a tunnel) stands in between.

## A scheme of your own

\`kind = "scheme"\` writes one for a sender no preset knows:

\`\`\`toml
[[guards]]
name = "acme"
kind = "scheme"
secret_env = "ACME_SECRET"
algorithm = "hmac-sha256"          # hmac-sha1 | hmac-sha256 | hmac-sha512 | ed25519 | ecdsa-p256 | rsa-sha256 | token
signed = "{timestamp}.{body}"      # {body} {timestamp} {method} {url} {path} {query} {form} {header:NAME} {json:PATH}
header = "Acme-Signature"          # or field = "signature.value" (JSON body), or query = "sig"; "X-Sig-{n}" for numbered headers
key = "v1"                         # a key-value header "t=...,v1=...": the signatures' key ...
timestamp_key = "t"                # ... and the timestamp's (or timestamp_header, timestamp_field)
timestamp_format = "unix"          # unix | unix-ms | rfc3339
encoding = "hex"                   # hex | base64 | base64url; prefix = "sha256=" when there is one
tolerance = "5m"
event_type_field = "type"          # or event_type_header = "Acme-Event"
\`\`\`

Every key is in \`mailroom check-config\`'s vocabulary; \`signed\` must cover \`{body}\` or \`{form}\`
(a signature that does not cover the body proves nothing about it). A scheme that signs \`{form}\`
refuses a non-empty body that is not \`application/x-www-form-urlencoded\` (its fields would be
unsigned), unless a preset's URL carries the body's hash (Twilio's \`bodySHA256\` for JSON).

## Handshakes

Some senders first check that the endpoint is theirs. On a channel with such a guard, the catching
endpoint answers as the provider's documentation shows; a handshake is verified where the provider
signs it (Discord, Slack, Zoom, Twitch: a bad signature is 401), is kept with the refusals as a
\`kind: "handshake"\` entry (\`GET /v1/refusals?kind=handshake\`, status 200), and is never stored
as a hook, so no handler sees it. See the Handshake column; docs/guards.md has the details.

## Presets that do not sign the body

A guard proves what its scheme covers, and no more. These ${unsigned.length} presets check a token the
provider sends as it is (in a header, a query parameter or a body field), or, as Mailgun does,
sign a timestamp and a random token but not the event. Whoever has seen one of their requests (a
proxy's log, a tunnel's inspector, a copied curl command) can send any body with the same token and
pass, for as long as the token is valid (Mailgun's: within \`tolerance\` of its timestamp).

| Kind | What is checked |
|---|---|
${unsigned.join("\n")}

\`paypal\` (below) signs a CRC32 of the body: a checksum, not a signature, so a body changed to
keep the CRC32 passes too.

What to do with them:

- Serve the catching endpoint over HTTPS only, and treat the token as a password: rotate it at the
  provider if a request carrying it was ever shown. (Mailroom stores a token sent in a header or
  a query parameter redacted; one in the body is stored with the body.)
- Narrow who may send: add an \`ip-allow\` guard with the provider's published address ranges to
  the channel's guards (every guard must pass).
- Take the body as a notice, not as the truth: before acting on an event, fetch what it names from
  the provider's API (Microsoft Graph's notifications carry only resource ids for that reason;
  Mailgun's events API, GitLab's and Okta's APIs answer the same). For Mailgun also keep
  \`tolerance\` short (\`"60s"\`), and for PayPal set one (off by default) and confirm the event
  with PayPal's verify-webhook-signature API.

## Senders that sign with a certificate

\`aws-sns\` and \`paypal\` sign with the private key of a certificate. Give it as \`certificate\` or
\`certificate_env\` (PEM), or set \`fetch_certificate = true\`: Mailroom then fetches the certificate
the message names, only over https from the provider's documented hosts (\`sns.<region>.amazonaws.com\`,
\`sns.<region>.amazonaws.com.cn\`; \`api.paypal.com\`, \`api-m.paypal.com\` and their \`sandbox\` forms),
with a 5 s timeout and a 64 KiB limit, at most 20 a minute, and keeps it in memory by URL; a URL
elsewhere is refused without being fetched. \`tolerance\` (default \`"0s"\`, off) checks SNS's \`Timestamp\` or PayPal's
transmission time. \`aws-sns\` also needs \`topic_arn\`: any AWS account can have SNS sign a message,
so only the topic's are accepted. With \`confirm_subscription = true\`, a signed
\`SubscriptionConfirmation\` is confirmed by a GET of its \`SubscribeURL\` (SNS's hosts only) and kept
with the refusals as a handshake; without it, the confirmation is caught as an ordinary hook (event
type \`SubscriptionConfirmation\`), and you confirm by opening its \`SubscribeURL\`.

\`\`\`toml
[[guards]]
name = "orders-topic"
kind = "aws-sns"
topic_arn = "arn:aws:sns:us-west-2:123456789012:orders"
fetch_certificate = true               # or: certificate_env = "SNS_CERT"
confirm_subscription = true

[[guards]]
name = "paypal"
kind = "paypal"
webhook_id = "4JH86294D6297924G"       # the webhook's id in the PayPal app: it is signed
certificate_env = "PAYPAL_CERT"        # or: fetch_certificate = true
\`\`\`

## The providers (${all.length})

| Kind | Provider | What is signed | \`[[guards]]\` entry | Handshake | Scheme source |
|---|---|---|---|---|---|
${rows.join("\n")}
`;
}

if (import.meta.main) writeFileSync(join(import.meta.dir, "..", "docs", "providers.md"), providersDoc());
