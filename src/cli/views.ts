import { UsageError, noMore, parseFlags, required, unknownSubcommand } from "../lib/args";
import { printable } from "../lib/terminal";
import type { Client } from "./client";
import type { Io } from "../lib/io";

/** A saved view as GET /v1/views answers it (views/routes.ts View). */
type View = { name: string; query: string; shared: boolean; created_by: string; count?: number; count_exact?: boolean };

/** One line: name, shared or own, its count (with --counts) and its query (the user's text: escaped). */
function formatRow(v: View): string {
  const count = v.count === undefined ? [] : [`${v.count}${v.count_exact === false ? "+" : ""}`.padStart(7)];
  return [v.name.padEnd(20), (v.shared ? "shared" : "own").padEnd(6), ...count, printable(v.query)].join("  ");
}

/** `mailroom views ls [--counts] [--json]`, `views save NAME -q Q [--shared]`, `views rm NAME [--shared]` */
export async function viewsCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case "ls":
    case "list": {
      const p = parseFlags(rest, { json: "bool", counts: "bool" });
      noMore(p, 0);
      const views = await client.call<View[]>("GET", `/v1/views${p.bools.has("counts") ? "?include=count" : ""}`);
      if (p.bools.has("json")) return (io.out(`${JSON.stringify(views, null, 2)}\n`), 0);
      if (views.length === 0) return (io.err("no saved views (mailroom views save NAME -q 'QUERY')\n"), 0);
      io.out(`${views.map(formatRow).join("\n")}\n`);
      return 0;
    }
    case "save": {
      const p = parseFlags(
        rest.map((a) => (a === "-q" ? "--query" : a)),
        { query: "value", shared: "bool" },
      );
      noMore(p, 1);
      const name = required(p, 0, "view name (mailroom views save NAME -q 'QUERY')");
      if (p.values.query === undefined) throw new UsageError("views save needs -q 'QUERY' (docs/search.md)");
      const view = await client.call<View>("POST", "/v1/views", { name, query: p.values.query, shared: p.bools.has("shared") });
      io.out(`${formatRow(view)}\n`);
      return 0;
    }
    case "rm":
    case "delete": {
      const p = parseFlags(rest, { shared: "bool" });
      noMore(p, 1);
      const name = required(p, 0, "view name");
      await client.call("DELETE", `/v1/views/${encodeURIComponent(name)}${p.bools.has("shared") ? "?shared=true" : ""}`);
      io.out(`${name}  removed\n`);
      return 0;
    }
    case undefined:
      throw new UsageError("views needs a subcommand: ls, save, rm");
    default:
      throw unknownSubcommand("views", sub, ["ls", "list", "save", "rm", "delete"]);
  }
}
