/**
 * The README runs as written: every ```sh block of README.md is run, in order, in one bash session
 * (so a variable set in one block is there in the next), in a fresh copy of the repository that
 * starts with `npm install` like a newcomer's clone. A block says how it runs with an HTML comment on
 * the line before it:
 *
 *   <!-- readme: background "TEXT" as NAME -->   started in the background (a server); the run goes on
 *                                                once it printed TEXT
 *   <!-- readme: stop NAME, background ... -->   stops the background block NAME first (Ctrl-C in the
 *                                                reader's terminal), then starts this one
 *   <!-- readme: skip, REASON -->                not run (REASON says why)
 *
 * Any other block must exit 0. Background processes are stopped at the end. The README uses the fixed
 * ports it tells users about (8080, and 3000 for the example app); the test fails if they are taken.
 */
import { expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Glob } from "bun";
import { COMMANDS } from "../src/cli/commands";
import { CERTIFICATE_PROVIDERS } from "../src/hooks/guards/certificates/table";
import { PRESETS } from "../src/hooks/guards/providers";
import { readmeBlocks, scriptOf } from "./helpers/readme";

const ROOT = join(import.meta.dir, "..");

test("the README's blocks are found with their notes", () => {
  const blocks = readmeBlocks(
    [
      "```sh",
      "a",
      "```",
      '<!-- readme: background "up" as srv -->',
      "```sh",
      "serve",
      "```",
      '<!-- readme: stop srv, background "up" as srv -->',
      "```sh",
      "serve again",
      "```",
      "<!-- readme: skip, slow -->",
      "```sh",
      "x",
      "```",
      "```toml",
      "k = 1",
      "```",
    ].join("\n"),
  );
  expect(blocks.map((b) => [b.mode, b.code, b.ready, b.stop])).toEqual([
    ["run", "a", undefined, undefined],
    ["background", "serve", "up", undefined],
    ["background", "serve again", "up", "srv"],
    ["skip", "x", undefined, undefined],
  ]);
  expect(() => readmeBlocks(["<!-- readme: stop -->", "```sh", "x", "```"].join("\n"))).toThrow("unknown readme note");
});

/** `mailroom NAME SUB` pairs of usage lines (`hooks ls|show` gives `hooks ls` and `hooks show`). */
function commandsOf(lines: string[]): Set<string> {
  const found = new Set<string>();
  for (const line of lines) {
    const words = /^\s*mailroom (.*)$/.exec(line)?.[1]?.split(/\s+/) ?? [];
    const name = words[0]?.replace(/^\[(serve)\]$/, "$1");
    if (!name || !/^[a-z][a-z-]*$/.test(name)) continue;
    const subs = /^([a-z][a-z-]*(\|[a-z-]+)*|--list)$/.test(words[1] ?? "") ? words[1]!.split("|") : [""];
    for (const sub of subs) found.add(`${name} ${sub}`.trim());
  }
  return found;
}

test("the README's command block lists every command and subcommand of mailroom --help", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const block = readme.slice(readme.indexOf("The executable's commands"));
  const listed = commandsOf(block.slice(0, block.indexOf("\n```\n", block.indexOf("```") + 3)).split("\n"));
  const help = commandsOf(COMMANDS.flatMap((c) => c.usage.split("\n")));
  expect(help).toContain("token create");
  expect(help).toContain("trigger --list");
  expect([...help].filter((c) => !listed.has(c))).toEqual([]);
});

test("the README and docs/ give one provider count, the code's", () => {
  const count = PRESETS.size + CERTIFICATE_PROVIDERS.length;
  const files = ["README.md", ...new Glob("docs/*.md").scanSync(ROOT)];
  const said = files.flatMap((f) =>
    [...readFileSync(join(ROOT, f), "utf8").matchAll(/\b(\d+) (?:named )?(?:providers|senders)\b|providers \((\d+)\)/g)].map((m) => `${f}: ${m[1] ?? m[2]}`),
  );
  expect(said.length).toBeGreaterThan(2);
  expect(said.filter((s) => !s.endsWith(`: ${count}`))).toEqual([]);
});

test("every shell example of the README runs when pasted in order into a fresh copy", async () => {
  const blocks = readmeBlocks(readFileSync(join(ROOT, "README.md"), "utf8"));
  expect(blocks.filter((b) => b.mode !== "skip").length).toBeGreaterThan(5);
  for (const port of [8080, 3000]) {
    const taken = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (taken) throw new Error(`port ${port}, which the README uses, is taken on this machine`);
  }

  // A copy of what a clone has: the tracked files (as they are in the work tree) and new ones not ignored.
  const dir = mkdtempSync(join(tmpdir(), "mailroom-readme-"));
  try {
    const listed = Bun.spawnSync(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT });
    for (const file of listed.stdout.toString().split("\0").filter(Boolean)) {
      mkdirSync(join(dir, dirname(file)), { recursive: true });
      try {
        cpSync(join(ROOT, file), join(dir, file));
      } catch {
        // deleted in the work tree, not yet in git
      }
    }
    writeFileSync(join(dir, ".readme.sh"), scriptOf(blocks));
    const env: Record<string, string> = { ...(process.env as Record<string, string>), NO_COLOR: "1" };
    for (const k of ["MAILROOM_TEST_TARGET", "MAILROOM_URL", "MAILROOM_TOKEN", "MAILROOM_CONFIG", "MAILROOM_DB", "NODE_ENV"]) delete env[k];
    const run = Bun.spawn(["bash", ".readme.sh"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    const last = stdout
      .split("\n")
      .filter((l) => l.startsWith("== README"))
      .at(-1);
    if (code !== 0 || last !== "== README done") console.error(`${stdout.slice(-4000)}\n${stderr.slice(-4000)}`);
    expect({ code, last }).toEqual({ code: 0, last: "== README done" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 480_000);
