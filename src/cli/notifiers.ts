import { UsageError, noMore, parseFlags, required, unknownSubcommand } from "../lib/args";
import type { Io } from "../lib/io";
import { printable } from "../lib/terminal";
import type { NotifierStatus } from "../notify/notifiers";
import type { Client } from "./client";
import { listCommand } from "./list";

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
      const empty = "no notifiers: add [[notifiers]] to the config file (docs/notifiers.md)";
      return listCommand<Notifier>(rest, client, io, "/v1/notifiers", empty, (notifiers) => notifiers.map(formatRow));
    }
    case "test": {
      const p = parseFlags(rest, {});
      noMore(p, 1);
      const name = required(p, 0, "notifier name (mailroom notifiers test NAME)");
      const result = await client.call<{ name: string; sent: boolean; error: string | null }>("POST", `/v1/notifiers/${encodeURIComponent(name)}/test`);
      if (result.sent) return (io.out(`${result.name}: test notice sent\n`), 0);
      // The reason may quote what the receiving server answered.
      io.err(`${result.name}: not sent: ${printable(result.error ?? "")}\n`);
      return 1;
    }
    case undefined:
      throw new UsageError("notifiers needs a subcommand: ls, test");
    default:
      throw unknownSubcommand("notifiers", sub, ["ls", "list", "test"]);
  }
}
