import { noMore, parseFlags } from "../lib/args";
import type { Io } from "../lib/io";
import { printable } from "../lib/terminal";
import type { Client } from "./client";

/**
 * `mailroom <things> ls [--json]`: GET `path`, printed as the API's JSON, or one line per item
 * (`lines`, given them all, for widths), with control and format characters escaped (names,
 * queries and errors may hold text someone else chose); `empty` on stderr when there are none.
 */
export async function listCommand<T>(argv: string[], client: Client, io: Io, path: string, empty: string, lines: (items: T[]) => string[]): Promise<number> {
  const p = parseFlags(argv, { json: "bool" });
  noMore(p, 0);
  const items = await client.call<T[]>("GET", path);
  if (p.bools.has("json")) return (io.out(`${JSON.stringify(items, null, 2)}\n`), 0);
  if (items.length === 0) return (io.err(`${empty}\n`), 0);
  io.out(`${lines(items).map(printable).join("\n")}\n`);
  return 0;
}
