import { describe, expect, test } from "bun:test";
import { buildConfig, ConfigError } from "../../src/load-config";
import { translateProblems } from "../../src/translate/config-checks";
import { createTestApp } from "../helpers/app";
import { basic, translateConfig } from "./setup";

const problems = (translate: unknown, env: Record<string, string> = {}) => {
  try {
    buildConfig({ translate }, env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.path);
    throw error;
  }
};

describe("[translate] config", () => {
  test("has defaults for every key (durations in milliseconds, sizes in bytes, as the loader converts them)", () => {
    const c = buildConfig({}).translate;
    expect(c).toEqual({
      maintenance: false,
      maintenance_retry_after: 60_000,
      max_body: 30 * 1024 * 1024,
      accounts: [],
      rates: { default: 20, pairs_only: false, pairs: [] },
      translators: [],
      admins: [],
      simulator: { enabled: false, name: "Simulator", accept_after: 2000, complete_after: 5000 },
      rate_limit: { requests: 100, per: 1000 },
      faults: [],
    });
  });

  test("takes the issue's example", () => {
    const text = `
[translate]
maintenance = false

[[translate.accounts]]
id = 1
balance = 100.00
overdraft = false
api_keys = ["customer-key-1"]

[translate.rates]
default = 20.0
pairs = [{ source = "en", target = "is", rate = 25.0 }]

[[translate.translators]]
name = "Ana"
api_key = "translator-key-1"

[[translate.admins]]
api_key = "admin-key-1"

[translate.simulator]
enabled = false
accept_after = "2s"
complete_after = "5s"
`;
    const c = buildConfig(Bun.TOML.parse(text)).translate;
    expect(c.accounts[0]).toEqual({ id: 1, balance: 100, overdraft: false, api_keys: ["customer-key-1"] });
    expect(translateProblems(c)).toEqual([]);
  });

  test("refuses unknown keys and bad values", () => {
    expect(problems({ maintenence: true })).toEqual(["translate.maintenence"]);
    expect(problems({ simulator: { accept_after: "soon" } })).toEqual(["translate.simulator.accept_after"]);
    expect(problems({ accounts: [{ id: 0 }] })).toEqual(["translate.accounts[0].id"]);
    expect(problems({ rates: { default: -1 } })).toEqual(["translate.rates.default"]);
  });

  test("reads keys from the environment with api_key_env", async () => {
    const config = translateConfig({ accounts: [{ id: 7, balance: 1, api_key_env: "CUSTOMER_KEY" }] });
    expect(problems(config, {})).toContain("translate.accounts[0].api_key_env");
    const app = createTestApp({ translate: config }, { env: { CUSTOMER_KEY: "from-the-environment" } });
    expect((await app.call("GET", "/api/v1/account", undefined, basic("from-the-environment"))).json.id).toBe(7);
  });

  test("checks what the schema cannot: duplicates, languages, cents, missing keys", () => {
    let problems: string[] = [];
    try {
      buildConfig({
        translate: {
          accounts: [
            { id: 1, balance: 1.005, api_keys: ["same-key-123"] },
            { id: 1, api_keys: ["same-key-123"] },
            { id: 2, balance: 1e-9 },
          ],
          rates: {
            default: 0.00001,
            pairs: [
              { source: "en", target: "xx", rate: 1 },
              { source: "de", target: "de", rate: 1 },
              { source: "en", target: "de", rate: 0.01255 },
            ],
          },
          translators: [{ name: "Ana", api_key: "translator-key" }, { name: "Ana" }],
          admins: [{}],
        },
      });
    } catch (error) {
      problems = (error as ConfigError).problems.map((p) => p.path);
    }
    // buildConfig (and so check-config) reports them, through translateProblems.
    expect(problems).toEqual([
      "translate.accounts[0].balance",
      "translate.accounts[1].id",
      "translate.accounts[1].api_keys[0]",
      "translate.accounts[2].balance",
      "translate.translators[1].name",
      "translate.translators[1]",
      "translate.admins[0]",
      "translate.rates.default",
      "translate.rates.pairs[0].target",
      "translate.rates.pairs[1]",
      "translate.rates.pairs[2].rate",
    ]);
    expect(() => createTestApp({ translate: { admins: [{}] } })).toThrow(ConfigError);
  });
});
