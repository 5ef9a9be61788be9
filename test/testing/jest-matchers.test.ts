import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

setDefaultTimeout(120_000);
const ROOT = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "mailroom-jest-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** jest's default setup (CommonJS, no transform of its own) with the helper bundled as the npm package bundles it. */
const SUITE = `
const { startMailroom, matchers, HookExpectationError } = require("./helper.cjs");
expect.extend(matchers);
let mr;
beforeAll(async () => { mr = await startMailroom({ command: JSON.parse(process.env.MAILROOM_TEST_COMMAND) }); });
afterAll(() => mr.stop());

test("expectHooks and toMatchSchema under jest", async () => {
  const channel = mr.channel();
  await mr.send(channel, { type: "invoice.paid", data: { amount: 5 } });
  const [hook] = await mr.expectHooks({ channel, where: "type:invoice.paid", count: 1, within: "5s" });
  expect(hook).toMatchSchema({ type: "object", required: ["data"], properties: { data: { type: "object", properties: { amount: { type: "integer" } } } } });
  expect(hook).not.toMatchSchema({ type: "object", properties: { data: { properties: { amount: { type: "string" } } } } });
  expect(() => expect(hook).toMatchSchema({ type: "object", required: ["missing"] })).toThrow("/: must have required property 'missing'");
  await expect(mr.expectNoHook({ channel, during: 100 })).rejects.toThrow(HookExpectationError);
});
`;

test("the matcher and the proofs run under jest (node), from the helper's CommonJS bundle", async () => {
  const build = Bun.spawnSync(
    [
      process.execPath,
      "build",
      "src/testing/index.ts",
      "--target",
      "node",
      "--format",
      "cjs",
      "--define",
      "MAILROOM_BUNDLED=true",
      "--outfile",
      join(dir, "helper.cjs"),
    ],
    { cwd: ROOT, stderr: "pipe", stdout: "pipe" },
  );
  expect(build.stderr.toString()).toBe("");
  expect(build.exitCode).toBe(0);
  writeFileSync(join(dir, "matchers.test.js"), SUITE);
  writeFileSync(join(dir, "package.json"), '{"name":"jest-matchers","private":true}');
  const jest = Bun.spawn(["node", join(ROOT, "node_modules/jest/bin/jest.js"), "--ci", "--rootDir", dir], {
    cwd: dir,
    env: { ...process.env, MAILROOM_TEST_COMMAND: JSON.stringify([process.execPath, join(ROOT, "src/main.ts")]) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(jest.stdout).text(), new Response(jest.stderr).text(), jest.exited]);
  expect({ code, output: code === 0 ? "" : out + err }).toEqual({ code: 0, output: "" });
  expect(err).toContain("Tests:       1 passed, 1 total");
});
