import { UsageError, noMore, parseFlags, required, unknownSubcommand } from "../lib/args";
import { printable } from "../lib/terminal";
import type { Client } from "./client";
import type { Io } from "../lib/io";

/** An issue as GET /v1/issues answers it (alerts/model.ts Issue). */
type Issue = { id: string; rule: string; kind: string; scope: string; summary: string; state: string; opened_at: string; count: number };

/** One line: id, state, rule, since when, how many times, and what happened (an event type in it is the sender's: escaped). */
function formatRow(i: Issue): string {
  return [i.id, i.state.padEnd(12), i.rule, `since ${i.opened_at}`, `x${i.count}`, printable(i.summary)].join("  ");
}

/** `mailroom issues ls [--state S] [--limit N] [--after ID] [--json]`, `mailroom issues ack|resolve ID` */
export async function issuesCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case "ls":
    case "list": {
      const p = parseFlags(rest, { json: "bool", state: "value", limit: "value", after: "value" });
      noMore(p, 0);
      const query = new URLSearchParams();
      for (const key of ["state", "limit", "after"]) if (p.values[key] !== undefined) query.set(key, p.values[key]!);
      const issues = await client.call<Issue[]>("GET", `/v1/issues${query.size ? `?${query}` : ""}`);
      if (p.bools.has("json")) return (io.out(JSON.stringify(issues, null, 2) + "\n"), 0);
      if (issues.length === 0) return (io.err("no issues\n"), 0);
      io.out(issues.map(formatRow).join("\n") + "\n");
      return 0;
    }
    case "ack":
    case "resolve": {
      const p = parseFlags(rest, {});
      noMore(p, 1);
      const id = required(p, 0, `issue id (mailroom issues ${sub} ID)`);
      const issue = await client.call<Issue>("POST", `/v1/issues/${encodeURIComponent(id)}/${sub}`);
      io.out(`${issue.id}  ${issue.state}\n`);
      return 0;
    }
    case undefined:
      throw new UsageError("issues needs a subcommand: ls, ack, resolve");
    default:
      throw unknownSubcommand("issues", sub, ["ls", "list", "ack", "resolve"]);
  }
}
