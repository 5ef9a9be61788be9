import { openSync, closeSync, writeSync } from "node:fs";
import { UsageError, noMore, parseFlags } from "../lib/args";
import type { Client } from "./client";
import type { Io } from "../lib/io";

/** `mailroom export [--search Q] [--channel C] [--status S] [--since T] [--until T] [--id ID] [--format jsonl|har] [--output FILE]` */
export async function exportCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const p = parseFlags(argv, {
    search: "value",
    channel: "value",
    status: "value",
    since: "value",
    until: "value",
    id: "value",
    format: "value",
    output: "value",
  });
  noMore(p, 0);
  const q = new URLSearchParams();
  for (const k of ["channel", "status", "since", "until", "id", "format"]) if (p.values[k] !== undefined) q.set(k, p.values[k]!);
  if (p.values.search !== undefined) q.set("q", p.values.search);
  const res = await client.send("GET", `/v1/hooks/export${q.size ? `?${q}` : ""}`);
  if (!res.ok) throw await client.errorOf(res);
  const fd = p.values.output ? openSync(p.values.output, "w") : undefined;
  try {
    for await (const chunk of res.body!) {
      if (fd !== undefined) writeSync(fd, chunk);
      else {
        // A reader slower than Mailroom holds the export back instead of the whole of it waiting here.
        io.outBytes(chunk);
        await io.written();
      }
    }
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return 0;
}

/** `mailroom import FILE|-`: JSON lines as export writes them; prints what was imported, skipped and refused. */
export async function importCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const p = parseFlags(argv, {});
  noMore(p, 1);
  const from = p.positional[0];
  if (from === undefined) throw new UsageError("missing the file to import (JSON lines; - for standard input)");
  const bytes = from === "-" ? await io.stdin() : new Uint8Array(await Bun.file(from).arrayBuffer());
  const res = await client.send("POST", "/v1/hooks/import", { "content-type": "application/x-ndjson" }, bytes);
  if (!res.ok) throw await client.errorOf(res);
  const report = (await res.json()) as { imported: number; skipped: number; failed: { line: number; message: string }[] };
  io.out(`imported ${report.imported}, skipped ${report.skipped} (ids already there), failed ${report.failed.length}\n`);
  for (const f of report.failed) io.err(`line ${f.line}: ${f.message}\n`);
  return report.failed.length > 0 ? 1 : 0;
}
