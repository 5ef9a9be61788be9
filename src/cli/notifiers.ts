import { UsageError, noMore, parseFlags, required, unknownSubcommand } from "../lib/args";
import type { Io } from "../lib/io";
import type { NotifierStatus } from "../notify/notifiers";
import type { Client } from "./client";

/** A notifier as GET /v1/notifiers answers it: no secret in it. */
type Notifier = NotifierStatus;

/** One line: name, kind, where it sends, its counts, and its last error when it has one. */
function formatRow(n: Notifier): string {
  const counts = `sent ${n.sent}, failed ${n.failed}, queued ${n.queued}`;
  const error = n.last_error ? `  last error ${n.last_error_at ?? ""}: ${n.last_error}` : "";
  return [n.name, n.kind.padEnd(7), n.target, counts].join("  ") + error;
}

/** `mailroom notifiers ls [--json]`, `mailroom notifiers test NAME` */
export async function notifiersCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case "ls":
    case "list": {
      const p = parseFlags(rest, { json: "bool" });
      noMore(p, 0);
      const notifiers = await client.call<Notifier[]>("GET", "/v1/notifiers");
      if (p.bools.has("json")) return (io.out(JSON.stringify(notifiers, null, 2) + "\n"), 0);
      if (notifiers.length === 0) return (io.err("no notifiers: add [[notifiers]] to the config file (docs/notifiers.md)\n"), 0);
      io.out(notifiers.map(formatRow).join("\n") + "\n");
      return 0;
    }
    case "test": {
      const p = parseFlags(rest, {});
      noMore(p, 1);
      const name = required(p, 0, "notifier name (mailroom notifiers test NAME)");
      const result = await client.call<{ name: string; sent: boolean; error: string | null }>("POST", `/v1/notifiers/${encodeURIComponent(name)}/test`);
      if (result.sent) return (io.out(`${result.name}: test notice sent\n`), 0);
      io.err(`${result.name}: not sent: ${result.error}\n`);
      return 1;
    }
    case undefined:
      throw new UsageError("notifiers needs a subcommand: ls, test");
    default:
      throw unknownSubcommand("notifiers", sub, ["ls", "list", "test"]);
  }
}
