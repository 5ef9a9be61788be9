import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary, removeTempDirs, startProcess } from "../helpers/binary";

afterAll(removeTempDirs);

/**
 * A module handler must work from the `bun build --compile` executable: the handler file lives
 * outside the bundle and is imported by path (and transpiled) at run time. The build is shared
 * with test/binary.test.ts when both run in one process.
 */
test("the built executable runs a TypeScript module handler from disk", async () => {
  const bin = await buildBinary();
  const dir = mkdtempSync(join(tmpdir(), "mailroom-binmod-"));
  try {
    mkdirSync(join(dir, "handlers"));
    writeFileSync(join(dir, "handlers/helper.ts"), `export const line = (id: string): string => "handled " + id + "\\n";\n`);
    writeFileSync(
      join(dir, "handlers/record.ts"),
      `import { appendFileSync } from "node:fs";
import { line } from "./helper.ts";
export default function (hook: { id: string; body_text?: string }): string {
  appendFileSync(${JSON.stringify(join(dir, "out.txt"))}, line(hook.id));
  return hook.body_text ?? "";
}
`,
    );
    writeFileSync(
      join(dir, "mailroom.toml"),
      `[server]\nport = 0\n[storage]\npath = "data/hooks.db"\n[[api_keys]]\nlabel = "ci"\ntoken = "binary-test-token"\n` +
        `[[handlers]]\nname = "record"\nkind = "module"\npath = "handlers/record.ts"\n` +
        `[[channels]]\nname = "mod"\nhandlers = ["record"]\n`,
    );
    const run = await startProcess([bin], dir);
    try {
      const caught = await fetch(`${run.url}/?channel=mod`, { method: "POST", body: '{"from":"binary"}' });
      const { id } = (await caught.json()) as { id: string };
      let hook: any;
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await Bun.sleep(50)) {
        hook = await (await fetch(`${run.url}/v1/hooks/${id}`, { headers: { authorization: "Bearer binary-test-token" } })).json();
        if (hook.status !== "pending") break;
      }
      expect(hook.status).toBe("handled");
      expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe(`handled ${id}\n`);
      const attempts = (await (await fetch(`${run.url}/v1/hooks/${id}/attempts`, { headers: { authorization: "Bearer binary-test-token" } })).json()) as any[];
      expect(attempts[0]).toMatchObject({ handler: "record", outcome: "succeeded", excerpt: '{"from":"binary"}' });
    } finally {
      run.proc.kill("SIGTERM");
      await run.proc.exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
