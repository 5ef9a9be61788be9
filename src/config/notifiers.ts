import { Type as t } from "@sinclair/typebox";
import type { Problem } from "./problems";
import { Name } from "./values";

/**
 * `[[notifiers]]`: where alerts' issue notices go (docs/notifiers.md). The schema takes every key
 * as optional; what each kind requires (and refuses) is checked by `notifierProblems`, which the
 * loader runs. alerts' `notify = [...]` names these.
 */
const strict = { additionalProperties: false } as const;
export const NOTIFIER_KINDS = ["slack", "discord", "teams", "webhook", "email"] as const;
export const TLS_MODES = ["starttls", "tls", "none"] as const;

export const Notifier = t.Object(
  {
    name: Name("the notifier's name, as alerts' notify = [...] says it"),
    kind: t.String({ description: `where notices go: ${NOTIFIER_KINDS.join(", ")}` }),
    url: t.Optional(t.String({ pattern: "^https?://", description: "the incoming webhook's URL (slack, discord, teams, webhook)" })),
    secret: t.Optional(t.String({ pattern: "^whsec_[A-Za-z0-9+/=]+$", description: "webhook: the Standard Webhooks signing secret (whsec_...)" })),
    secret_env: t.Optional(t.String({ minLength: 1, description: "webhook: the environment variable holding the secret" })),
    host: t.Optional(t.String({ minLength: 1, description: "email: the SMTP server" })),
    port: t.Optional(t.Integer({ minimum: 1, maximum: 65535, description: "email: the SMTP port (587 for starttls, 465 for tls, 25 for none)" })),
    tls: t.Optional(t.String({ description: `email: ${TLS_MODES.join(", ")} (starttls by default)` })),
    user: t.Optional(t.String({ minLength: 1, description: "email: the SMTP user" })),
    password_env: t.Optional(t.String({ minLength: 1, description: "email: the environment variable holding the SMTP password" })),
    password: t.Optional(t.String({ description: "email: the SMTP password, filled from password_env (better than writing it here)" })),
    from: t.Optional(t.String({ minLength: 3, description: "email: the sender address" })),
    to: t.Optional(t.Array(t.String({ minLength: 3 }), { minItems: 1, description: "email: the recipients" })),
  },
  strict,
);

const KEYS: Record<(typeof NOTIFIER_KINDS)[number], { needs: string[]; allows: string[] }> = {
  slack: { needs: ["url"], allows: [] },
  discord: { needs: ["url"], allows: [] },
  teams: { needs: ["url"], allows: [] },
  webhook: { needs: ["url"], allows: ["secret", "secret_env"] },
  email: { needs: ["host", "from", "to"], allows: ["port", "tls", "user", "password", "password_env"] },
};

/** A known kind, its required keys and no keys of another kind, unique names, one secret source. */
export function notifierProblems(notifiers: readonly Record<string, unknown>[]): Problem[] {
  const problems: Problem[] = [];
  const names = new Set<string>();
  notifiers.forEach((n, i) => {
    const at = `notifiers[${i}]`;
    if (typeof n.name === "string") {
      if (names.has(n.name)) problems.push({ path: `${at}.name`, message: `duplicate name "${n.name}"` });
      names.add(n.name);
    }
    const kind = n.kind as (typeof NOTIFIER_KINDS)[number];
    if (!NOTIFIER_KINDS.includes(kind)) {
      problems.push({ path: `${at}.kind`, message: `unknown kind "${String(n.kind)}" (one of ${NOTIFIER_KINDS.join(", ")})` });
      return;
    }
    const { needs, allows } = KEYS[kind];
    for (const key of needs) if (n[key] === undefined) problems.push({ path: `${at}.${key}`, message: `a ${kind} notifier needs ${key}` });
    for (const key of Object.keys(n))
      if (!["name", "kind", ...needs, ...allows].includes(key)) problems.push({ path: `${at}.${key}`, message: `a ${kind} notifier has no ${key}` });
    if (kind === "webhook" && n.secret === undefined && n.secret_env === undefined)
      problems.push({ path: `${at}.secret`, message: "a webhook notifier needs secret or secret_env (one of them)" });
    if (kind === "email" && n.tls !== undefined && !TLS_MODES.includes(n.tls as (typeof TLS_MODES)[number]))
      problems.push({ path: `${at}.tls`, message: `unknown tls "${String(n.tls)}" (one of ${TLS_MODES.join(", ")})` });
    if (kind === "email" && (n.user === undefined) !== (n.password === undefined && n.password_env === undefined))
      problems.push({ path: `${at}.password_env`, message: "user and password_env go together" });
  });
  return problems;
}
