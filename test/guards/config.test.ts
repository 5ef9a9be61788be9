import { describe, expect, test } from "bun:test";
import type { TObject, TSchema } from "@sinclair/typebox";
import { GUARD_KINDS } from "../../src/hooks/guards/kinds";
import { PRESETS } from "../../src/hooks/guards/providers";
import { buildConfig, ConfigError } from "../../src/load-config";
import { createGuards, guardProblems } from "../../src/hooks/guards";
import { createFakeClock } from "../helpers/clock";

const problemsOf = (raw: Record<string, unknown>, env: Record<string, string> = {}) => {
  try {
    const config = buildConfig(raw, env);
    return guardProblems(config.guards, { clock: createFakeClock() }).map((p) => `${p.path}: ${p.message}`);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((p) => `${p.path}: ${p.message}`);
  }
};

describe("[[guards]] config", () => {
  test("every kind the issue asks for exists, and every key of every kind is described", () => {
    const kinds = [...PRESETS.keys(), "aws-sns", "paypal", "scheme", "hmac", "basic-auth", "token", "ip-allow", "method", "content-type", "max-body"];
    expect(Object.keys(GUARD_KINDS).sort()).toEqual(kinds.sort());
    // Today's five signing kinds keep their names, and at least 120 providers are named.
    for (const kind of ["github", "stripe", "standard-webhooks", "shopify", "slack"]) expect(PRESETS.has(kind)).toBe(true);
    expect(PRESETS.size).toBeGreaterThanOrEqual(120);
    for (const [kind, schema] of Object.entries(GUARD_KINDS)) {
      expect((schema as TObject).additionalProperties).toBe(false);
      for (const [key, prop] of Object.entries((schema as TObject).properties)) {
        expect({ kind, key, described: typeof (prop as TSchema).description === "string" }).toEqual({ kind, key, described: true });
      }
    }
  });

  test("aws-sns and paypal: every missing key and every bad value of the config file is reported in one run", () => {
    expect(
      problemsOf({
        guards: [
          { name: "s", kind: "aws-sns" },
          { name: "p", kind: "paypal", fetch_certificate: true },
        ],
      }),
    ).toEqual([
      "guards[0].certificate: give certificate or certificate_env (PEM), or fetch_certificate = true to fetch it from the provider",
      "guards[0].topic_arn: give the ARN of the topic whose messages are accepted (any AWS account can make SNS sign a message)",
      "guards[1].webhook_id: give the webhook's id (from the app's Webhooks page): PayPal signs it",
    ]);
    const bad = problemsOf({ guards: [{ name: "s", kind: "aws-sns", topic_arn: "arn", fetch_certificate: "yes", confirm_subscription: 1, certficate: "x" }] });
    expect(bad.some((p) => p.startsWith("guards[0].fetch_certificate"))).toBe(true);
    expect(bad.some((p) => p.startsWith("guards[0].confirm_subscription"))).toBe(true);
    expect(bad.some((p) => p.includes("certficate"))).toBe(true);
  });

  test("a guard with a secret-less kind builds from a minimal entry", () => {
    for (const kind of ["method", "content-type", "max-body"]) expect(problemsOf({ guards: [{ name: "g", kind }] })).toEqual([]);
  });

  test("each signing kind without secret or secret_env is a problem at guards[i].secret", () => {
    for (const kind of ["github", "stripe", "standard-webhooks", "shopify", "slack", "token"]) {
      expect(
        problemsOf({
          guards: [
            { name: "ok", kind: "method" },
            { name: "g", kind },
          ],
        }),
      ).toEqual(["guards[1].secret: give secret or secret_env"]);
    }
    expect(problemsOf({ guards: [{ name: "g", kind: "hmac", header: "x-sig" }] })).toEqual(["guards[0].secret: give secret or secret_env"]);
  });

  test("an unset secret_env variable is named", () => {
    expect(problemsOf({ guards: [{ name: "g", kind: "github", secret_env: "NOPE" }] })).toEqual(["guards[0].secret_env: environment variable NOPE is not set"]);
  });

  test("unknown keys, bad durations and bad enum values are reported with their key paths", () => {
    const problems = problemsOf({
      guards: [
        { name: "a", kind: "github", secret: "s", secrte: "typo" },
        { name: "b", kind: "stripe", secret: "s", tolerance: "5 minutes" },
        { name: "c", kind: "hmac", secret: "s", header: "x", algorithm: "md5" },
      ],
    });
    expect(problems).toContain("guards[0].secrte: unknown key (did you mean secret?)");
    expect(problems.some((p) => p.startsWith("guards[1].tolerance:"))).toBe(true);
    expect(problems.some((p) => p.startsWith("guards[2].algorithm:"))).toBe(true);
  });

  test("a channel naming an unknown guard is a config error", () => {
    expect(problemsOf({ guards: [{ name: "sig", kind: "method" }], channels: [{ name: "c", guards: ["sig", "nope"] }] })).toEqual([
      'channels[0].guards[1]: unknown guard "nope"',
    ]);
  });

  test("createGuards throws the same problems as a ConfigError, and builds guards by name", () => {
    // check-config (buildConfig) reports it; createGuards refuses it too if handed such an entry.
    expect(() => buildConfig({ guards: [{ name: "gh", kind: "github" }] })).toThrow("guards[0].secret");
    const raw = [{ name: "gh", kind: "github", tolerance: "300s" }] as unknown as Parameters<typeof createGuards>[0];
    expect(() => createGuards(raw, { clock: createFakeClock() })).toThrow(ConfigError);
    const ok = buildConfig({
      guards: [
        { name: "gh", kind: "github", secret: "s" },
        { name: "only-post", kind: "method" },
      ],
    });
    const guards = createGuards(ok.guards, { clock: createFakeClock() });
    expect([...guards.keys()]).toEqual(["gh", "only-post"]);
    expect(guards.get("gh")!.kind).toBe("github");
  });
});
