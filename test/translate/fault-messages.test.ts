import { expect, test } from "bun:test";
import { buildConfig, type ConfigError } from "../../src/load-config";
import { createTranslateApp, translateConfig } from "./setup";

// A bad fault rule is told in the same words by check-config and by PUT /admin/v1/faults.

/** check-config's problems of one [[translate.faults]] rule, as `path: message`. */
function configProblems(rule: Record<string, unknown>): string[] {
  try {
    buildConfig({ translate: translateConfig({ faults: [rule] }) });
    return [];
  } catch (error) {
    return (error as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
  }
}

test("error = 418: the API answers what check-config says, must be 429, 500 or 503", async () => {
  const app = createTranslateApp();
  const res = await app.admin("PUT", "/admin/v1/faults", { faults: [{ error: 418 }] });
  expect({ status: res.status, json: res.json }).toEqual({
    status: 400,
    json: {
      code: "INVALID_REQUEST",
      description: "invalid body: faults.0.error: must be 429, 500 or 503",
      parameters: { field: "faults.0.error", reason: "must be 429, 500 or 503" },
    },
  });
  expect(configProblems({ error: 418 })).toEqual(["translate.faults[0].error: must be 429, 500 or 503"]);
});

test("every field of a rule: the API's reason is check-config's message", async () => {
  const app = createTranslateApp();
  const bad: [string, unknown][] = [
    ["revision", "C"],
    ["route", "translate"],
    ["error", 418],
    ["error", "500"],
    ["retry_after", "soon"],
    ["latency", "soon"],
    ["count", 0],
    ["rate", 2],
    ["seed", -1],
  ];
  for (const [field, value] of bad) {
    // A valid error (and a rate for a seed) beside the bad field, so that no other check has anything to say.
    const rule = { error: 503, ...(field === "seed" ? { rate: 0.5 } : {}), [field]: value };
    const res = await app.admin("PUT", "/admin/v1/faults", { faults: [rule] });
    const said = configProblems(rule);
    expect({ field, said: said.length }).toEqual({ field, said: 1 });
    const message = said[0]!.replace(`translate.faults[0].${field}: `, "");
    expect({ field, value, status: res.status, reason: res.json.parameters }).toEqual({
      field,
      value,
      status: 400,
      reason: { field: `faults.0.${field}`, reason: message },
    });
  }
});
