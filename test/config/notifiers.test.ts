/** `[[notifiers]]`: checked once at load, every problem named with its key path. */
import { describe, expect, test } from "bun:test";
import { buildConfig, ConfigError } from "../../src/load-config";

function problems(raw: Record<string, unknown>): string[] {
  try {
    buildConfig(raw);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.map((p) => `${p.path}: ${p.message}`);
    throw e;
  }
  return [];
}

describe("[[notifiers]]", () => {
  test("each kind with its keys loads, and alerts may name them", () => {
    const c = buildConfig(
      {
        notifiers: [
          { name: "ops", kind: "slack", url: "https://hooks.slack.com/services/T/B/x" },
          { name: "hook", kind: "webhook", url: "https://example.com/in", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" },
          {
            name: "mail",
            kind: "email",
            host: "smtp.example.com",
            port: 587,
            tls: "starttls",
            user: "u",
            password_env: "SMTP_PW",
            from: "m@example.com",
            to: ["a@example.com"],
          },
        ],
        alerts: [{ name: "quiet", kind: "silence", for: "30m", notify: ["ops", "mail"] }],
      },
      { SMTP_PW: "pw" },
    );
    expect(c.notifiers.map((n) => n.name)).toEqual(["ops", "hook", "mail"]);
    expect(c.notifiers[2]?.password).toBe("pw");
  });

  test("an unknown kind, missing and foreign keys, a secret missing, a bad tls, a duplicate name", () => {
    expect(
      problems({
        notifiers: [
          { name: "a", kind: "pager" },
          { name: "b", kind: "discord" },
          { name: "c", kind: "teams", url: "https://x.example", host: "smtp" },
          { name: "d", kind: "webhook", url: "https://x.example" },
          { name: "d", kind: "email", host: "h", from: "f@x.example", to: ["t@x.example"], tls: "ssl" },
        ],
      }),
    ).toEqual([
      'notifiers[0].kind: unknown kind "pager" (one of slack, discord, teams, webhook, email)',
      "notifiers[1].url: a discord notifier needs url",
      "notifiers[2].host: a teams notifier has no host",
      "notifiers[3].secret: a webhook notifier needs secret or secret_env (one of them)",
      'notifiers[4].name: duplicate name "d"',
      'notifiers[4].tls: unknown tls "ssl" (one of starttls, tls, none)',
    ]);
  });
});
