/**
 * `bun scripts/warn-repeats.ts`: prints, as warnings, the duplicated code (jscpd) and the unused
 * exports (knip) that are not in the committed baseline, scripts/warn-repeats.baseline.json, so CI
 * shows what a change added and not the debt it found. It never fails the run for a finding: exit 0
 * with or without warnings (2 on a bad argument). A tool that is not installed or fails to run is a
 * warning too.
 *
 * A duplicate is known by the text it repeats (whitespace collapsed), not by where it is, so moving
 * a file or adding lines above a fragment does not make it new; editing the repeated text does. An
 * unused export is known by its kind, its name and its file's name (not its folder), so a file moved
 * with `git mv` keeps its findings.
 *
 * Options: `--update` writes the baseline from this run (after removing a duplicate or an export,
 * or accepting a new one). The commands run are node_modules/.bin/jscpd and node_modules/.bin/knip;
 * the environment variables JSCPD and KNIP replace them (a command line split on spaces, e.g.
 * `JSCPD="npx -y jscpd@4.3.0"`).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

const BASELINE = "scripts/warn-repeats.baseline.json";
/** What jscpd and knip look at: the TypeScript of the repository that git tracks, without generated or example code. */
const JSCPD_ARGS = [
  "--format",
  "typescript,tsx",
  "--ignore",
  "**/node_modules/**,dist/**,examples/**,drizzle/**,drizzle-pg/**",
  "--reporters",
  "json",
  "--silent",
];
const KNIP_ARGS = ["--exports", "--reporter", "json", "--no-progress"];

/** One finding: `key` is what the baseline compares, `where` what it says beside the key, `text` what a warning says. */
type Finding = { key: string; where: string; text: string };
type Baseline = { duplicates: Record<string, string>; unusedExports: Record<string, string> };

type JscpdPlace = { name: string; start: number; end: number };
type JscpdReport = { duplicates: { firstFile: JscpdPlace; secondFile: JscpdPlace; fragment: string; lines: number }[] };
type KnipReport = { issues: ({ file: string } & Record<string, unknown>)[] };

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** jscpd's clones, each known by a hash of its fragment; a fragment found in several pairs of places is one finding. */
export function duplicates(report: JscpdReport): Finding[] {
  const found = new Map<string, { places: Set<string>; lines: number }>();
  for (const d of report.duplicates) {
    const key = hash(d.fragment.replace(/\s+/g, " ").trim());
    const entry = found.get(key) ?? { places: new Set<string>(), lines: d.lines };
    found.set(key, entry);
    for (const f of [d.firstFile, d.secondFile]) entry.places.add(`${f.name}:${f.start}-${f.end}`);
  }
  return [...found].map(([key, { places, lines }]) => {
    const sorted = [...places].sort();
    return { key, where: [...new Set(sorted.map((p) => p.replace(/:\d+-\d+$/, "")))].join(", "), text: `${lines} lines repeated in ${sorted.join(", ")}` };
  });
}

/** knip's findings of the kinds asked for, each known by kind, name and file name. */
export function unusedExports(report: KnipReport): Finding[] {
  const found: Finding[] = [];
  for (const issue of report.issues) {
    for (const [kind, list] of Object.entries(issue)) {
      if (!Array.isArray(list)) continue;
      for (const item of list as unknown[]) {
        // knip lists duplicate exports as arrays of the names exported twice.
        const name = Array.isArray(item) ? item.map((i: { name: string }) => i.name).join(" = ") : (item as { name: string }).name;
        const line = Array.isArray(item) ? item[0]?.line : (item as { line?: number }).line;
        found.push({ key: `${kind} ${name} in ${basename(issue.file)}`, where: issue.file, text: `${issue.file}${line ? `:${line}` : ""}: ${kind} ${name}` });
      }
    }
  }
  return found.sort((a, b) => a.text.localeCompare(b.text));
}

/** The findings whose key the baseline does not have. */
export const fresh = (findings: Finding[], known: Record<string, string>) => findings.filter((f) => !(f.key in known));

function command(env: string, bin: string): string[] | undefined {
  const given = process.env[env]?.trim();
  if (given) return given.split(/\s+/);
  const local = join("node_modules", ".bin", bin);
  return existsSync(local) ? [local] : undefined;
}

function runJscpd(): JscpdReport | string {
  const cmd = command("JSCPD", "jscpd");
  if (!cmd) return "jscpd is not installed (a devDependency: npm install)";
  const out = mkdtempSync(join(tmpdir(), "mailroom-jscpd-"));
  try {
    const run = Bun.spawnSync([...cmd, ...JSCPD_ARGS, "--output", out, "."], { stderr: "pipe", stdout: "pipe" });
    const file = join(out, "jscpd-report.json");
    if (!existsSync(file)) return `jscpd wrote no report (exit ${run.exitCode}): ${run.stderr.toString().trim().slice(0, 500)}`;
    return JSON.parse(readFileSync(file, "utf8")) as JscpdReport;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function runKnip(): KnipReport | string {
  const cmd = command("KNIP", "knip");
  if (!cmd) return "knip is not installed (a devDependency: npm install)";
  // knip exits 1 when it finds anything; only an answer that is not its JSON is a failure to run.
  const run = Bun.spawnSync([...cmd, ...KNIP_ARGS], { stderr: "pipe", stdout: "pipe" });
  try {
    return JSON.parse(run.stdout.toString()) as KnipReport;
  } catch {
    return `knip gave no report (exit ${run.exitCode}): ${run.stderr.toString().trim().slice(0, 500)}`;
  }
}

function main(argv: string[]): number {
  const update = argv.includes("--update");
  const unknown = argv.filter((a) => a !== "--update");
  if (unknown.length > 0) {
    console.error(`warn-repeats: unknown argument ${unknown[0]}; usage: warn-repeats [--update]`);
    return 2;
  }
  const baseline: Baseline = existsSync(BASELINE) ? JSON.parse(readFileSync(BASELINE, "utf8")) : { duplicates: {}, unusedExports: {} };
  const jscpd = runJscpd();
  const knip = runKnip();
  for (const problem of [jscpd, knip]) if (typeof problem === "string") console.log(`warning: ${problem}; not checked`);
  const dups = typeof jscpd === "string" ? undefined : duplicates(jscpd);
  const unused = typeof knip === "string" ? undefined : unusedExports(knip);

  if (update) {
    const next: Baseline = {
      duplicates: dups ? Object.fromEntries(dups.map((f) => [f.key, f.where])) : baseline.duplicates,
      unusedExports: unused ? Object.fromEntries(unused.map((f) => [f.key, f.where])) : baseline.unusedExports,
    };
    writeFileSync(BASELINE, `${JSON.stringify(next, null, 2)}\n`);
    console.log(`${BASELINE}: ${Object.keys(next.duplicates).length} duplicates, ${Object.keys(next.unusedExports).length} unused exports`);
    return 0;
  }
  for (const [what, found, known] of [
    ["duplicated code (jscpd)", dups, baseline.duplicates],
    ["unused exports (knip)", unused, baseline.unusedExports],
  ] as const) {
    if (!found) continue;
    const added = fresh(found, known);
    const gone = Object.keys(known).length - (found.length - added.length);
    console.log(`${what}: ${found.length} found, ${added.length} new since ${BASELINE}${gone > 0 ? `, ${gone} gone` : ""}`);
    for (const f of added) console.log(`  warning: new ${what.split(" (")[0]}: ${f.text}`);
  }
  console.log("(warnings only; remove them, or accept them with bun scripts/warn-repeats.ts --update)");
  return 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
