import { UsageError, noMore, parseFlags, required } from "../lib/args";
import { printable } from "../lib/terminal";
import { ClientError, type Client } from "./client";
import type { Io } from "../lib/io";

/** A bulk job as GET /v1/hooks/bulk/{id} answers it (bulk/routes.ts BulkJob). */
type Job = { id: string; action: string; state: string; total: number; done: number; skipped: number; failed: number; message: string };

const ACTIONS = ["retry", "redeliver", "discard", "delete", "export", "send", "tag", "untag", "mark-read"];
const POLL_MS = 250;
const BAR = 30;

/** One progress line: a bar on a terminal (rewritten in place), plain text when piped. */
function progressLine(job: Job, terminal: boolean): string {
  const handled = job.done + job.skipped + job.failed;
  const share = job.total === 0 ? 1 : handled / job.total;
  const counts = `${handled}/${job.total}  ${job.done} ${job.action === "delete" ? "deleted" : "done"}, ${job.skipped} skipped, ${job.failed} failed`;
  if (!terminal) return `${job.state}  ${counts}\n`;
  const filled = Math.round(share * BAR);
  return `\r[${"#".repeat(filled)}${"-".repeat(BAR - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%  ${counts}\x1b[K`;
}

/**
 * `mailroom hooks bulk ACTION -q 'QUERY' [--url URL] [--tags T,U] [--dry-run] [--yes] [--json]`: counts the
 * hooks first; on a terminal asks before acting unless --yes, and refuses when piped without it.
 * A job's progress is a bar on a terminal and plain lines when piped; Ctrl-C cancels the job.
 */
export async function bulkCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const p = parseFlags(
    argv.map((a) => (a === "-q" ? "--query" : a)),
    { query: "value", url: "value", tags: "value", "dry-run": "bool", yes: "bool", json: "bool" },
  );
  noMore(p, 1);
  const action = required(p, 0, `action (${ACTIONS.join(", ")})`);
  if (!ACTIONS.includes(action)) throw new UsageError(`unknown bulk action ${action}: ${ACTIONS.join(", ")}`);
  const query = p.values.query;
  if (query === undefined) throw new UsageError(`hooks bulk ${action} needs -q 'QUERY' (docs/search.md); -q '' takes every hook`);
  // --tags billing,big: the tags of tag and untag (the server checks each).
  const tags = p.values.tags
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const body = { query, action, ...(p.values.url !== undefined ? { url: p.values.url } : {}), ...(tags ? { tags } : {}) };
  const dry = await client.call<{ count: number }>("POST", "/v1/hooks/bulk", { ...body, dry_run: true });
  if (p.bools.has("dry-run")) {
    io.out(p.bools.has("json") ? `${JSON.stringify(dry)}\n` : `${dry.count} hooks would be ${action === "export" ? "exported" : `touched by ${action}`}\n`);
    return 0;
  }
  if (action === "export") {
    const res = await client.send("POST", "/v1/hooks/bulk", { "content-type": "application/json" }, new TextEncoder().encode(JSON.stringify(body)));
    if (!res.ok) throw await client.errorOf(res);
    for await (const chunk of res.body!) io.outBytes(chunk);
    return 0;
  }
  const terminal = process.stderr.isTTY === true && process.stdin.isTTY === true;
  if (!p.bools.has("yes")) {
    if (!terminal) throw new UsageError(`${action} would touch ${dry.count} hooks: add --yes to do it (or --dry-run to count only)`);
    const answer = prompt(`${action} ${dry.count} hooks matching ${printable(query)}? [y/N]`);
    if (!/^y(es)?$/i.test(answer?.trim() ?? "")) return (io.err("nothing done\n"), 1);
  }
  let job = await client.call<Job>("POST", "/v1/hooks/bulk", body);
  const cancel = () => void client.call("DELETE", `/v1/hooks/bulk/${job.id}`).catch(() => {});
  process.once("SIGINT", cancel);
  try {
    let last = "";
    for (;;) {
      const line = progressLine(job, terminal);
      if (line !== last) io.err((last = line));
      if (job.state !== "running") break;
      await Bun.sleep(POLL_MS);
      job = await client.call<Job>("GET", `/v1/hooks/bulk/${job.id}`);
    }
  } finally {
    process.off("SIGINT", cancel);
  }
  if (terminal) io.err("\n");
  if (p.bools.has("json")) io.out(`${JSON.stringify(job)}\n`);
  else io.out(`${job.id}  ${job.state}  ${job.done} of ${job.total} hooks${job.message ? `  (${printable(job.message)})` : ""}\n`);
  if (job.state === "failed") throw new ClientError(`bulk job ${job.id} failed: ${job.message}`);
  return job.state === "done" ? 0 : 1;
}
