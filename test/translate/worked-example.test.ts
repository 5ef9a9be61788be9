import { afterAll, expect, test } from "bun:test";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { removeTempDirs, startProcess, tempDir } from "../helpers/binary";

afterAll(removeTempDirs);

const ROOT = join(import.meta.dir, "../..");

/** The shell block of docs/translation.md's "Worked example" that talks to Mailroom (it sets B). */
async function workedExample(): Promise<string> {
  const doc = await Bun.file(join(ROOT, "docs/translation.md")).text();
  const section = doc.slice(doc.indexOf("## Worked example"), doc.indexOf("\n## ", doc.indexOf("## Worked example") + 3));
  const block = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.startsWith("B="));
  if (!block) throw new Error("no block setting B= in the worked example");
  return block;
}

type Step = { command: string; status?: number; expected?: string };

/**
 * The block's commands with what the document says they answer: `# {...}` / `# [...]` lines under a
 * command (continued by lines of `#  `), and a status in a `# 204` beside it.
 */
function steps(block: string): Step[] {
  const out: Step[] = [];
  const lines = block.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith("curl")) continue;
    let command = line;
    while (/\\\s*(#.*)?$/.test(command.split("\n").at(-1)!) || (command.match(/'/g)?.length ?? 0) % 2 === 1) command += "\n" + lines[++i]!;
    const status = /#\s*(\d{3})\b/.exec(
      command
        .split("\n")
        .at(-1)!
        .replace(/^[^#]*'[^']*'/, ""),
    )?.[1];
    let expected: string | undefined;
    while (/^# [[{]/.test(lines[i + 1] ?? "") || (expected !== undefined && /^# {2}/.test(lines[i + 1] ?? "")))
      expected = (expected ?? "") + lines[++i]!.replace(/^#\s*/, "");
    out.push({ command, status: status ? Number(status) : undefined, expected });
  }
  return out;
}

/** `...` stands for anything; everything else is literal. */
const pattern = (expected: string) =>
  new RegExp(
    `^${expected
      .split("...")
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*?")}$`,
    "s",
  );

test("docs/translation.md's worked example runs as written against mailroom.example.toml, and again after its reset", async () => {
  const dir = tempDir("mailroom-worked-");
  copyFileSync(join(ROOT, "mailroom.example.toml"), join(dir, "mailroom.example.toml"));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/MAILROOM/.test(k))) as Record<string, string>;
  const run = await startProcess([process.execPath, join(ROOT, "src/main.ts"), "serve", "--config", "mailroom.example.toml", "--port", "0"], dir, env);
  try {
    const block = await workedExample();
    const all = steps(block);
    expect(all.length).toBeGreaterThan(8);
    expect(all.filter((s) => s.expected).length).toBeGreaterThan(6);
    for (const round of [1, 2]) {
      for (const step of all) {
        // Each command as written, with curl printing the status after the body.
        const script = `B=${run.url}\ncurl() { command curl -sS -w '\\n%{http_code}' "$@"; }\n${step.command}\n`;
        const proc = Bun.spawn(["bash", "-c", script], { cwd: dir, stdout: "pipe", stderr: "pipe" });
        const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
        expect({ round, command: step.command, code, stderr }).toEqual({ round, command: step.command, code: 0, stderr: "" });
        const at = stdout.lastIndexOf("\n");
        const [body, status] = [stdout.slice(0, at), Number(stdout.slice(at + 1))];
        expect({ command: step.command, status }).toEqual({ command: step.command, status: step.status ?? 200 });
        if (step.expected) expect(body).toMatch(pattern(step.expected));
      }
    }
  } finally {
    run.proc.kill("SIGTERM");
    await run.proc.exited;
  }
}, 60_000);
