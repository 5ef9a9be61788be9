import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkFixtureName, fixtureFileName, fixtureText, parseFixture } from "../fixtures";
import { UsageError, noMore, parseFlags, required, unknownSubcommand } from "../lib/args";
import type { Io } from "../lib/io";
import { printable } from "../lib/terminal";
import { ClientError, type Client } from "./client";

const ID = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

/**
 * `mailroom fixtures save ID [--name NAME] [--dir fixtures/] [--no-scrub] [--force]`: the hook as a
 * fixture file (GET /v1/hooks/{id}/fixture), scrubbed by the server, checked again here and written
 * under --dir; never over a file unless --force. The file name comes from --name (checked) or from
 * the provider and event type cut down to [a-z0-9-], never from a hook's text as it is.
 */
export async function fixturesCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== "save") throw sub === undefined ? new UsageError("missing subcommand: mailroom fixtures save ID") : unknownSubcommand("fixtures", sub, ["save"]);
  const p = parseFlags(rest, { name: "value", dir: "value", "no-scrub": "bool", force: "bool" });
  const id = required(p, 0, "hook id (mailroom fixtures save ID)");
  noMore(p, 1);
  if (!ID.test(id)) throw new UsageError(`not a hook id: ${id} (ids are lowercase ULIDs, as hooks ls prints them)`);
  let name: string | undefined;
  try {
    name = p.values.name === undefined ? undefined : checkFixtureName(p.values.name);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const res = await client.request("GET", `/v1/hooks/${id}/fixture${p.bools.has("no-scrub") ? "?scrub=false" : ""}`);
  if (!res.ok) throw await client.errorOf(res);
  let fixture: ReturnType<typeof parseFixture>;
  try {
    fixture = parseFixture(await res.text());
  } catch (error) {
    throw new ClientError(`the answer is not a fixture: ${(error as Error).message}`);
  }
  const dir = p.values.dir ?? "fixtures";
  const path = join(dir, name ?? fixtureFileName(fixture.provider, fixture.event_type, id));
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path, fixtureText(fixture), { flag: p.bools.has("force") ? "w" : "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new UsageError(`${path} exists: give another --name, or --force to replace it`);
    throw error;
  }
  const what = fixture.scrub
    ? `scrubbed ${fixture.scrubbed.length ? fixture.scrubbed.join(", ") : "nothing"}; dropped ${fixture.dropped.length ? fixture.dropped.join(", ") : "nothing"}`
    : "not scrubbed (--no-scrub): it holds every value as caught";
  io.out(`${printable(path)}\n`);
  io.err(`mailroom: ${printable(fixture.provider || "unknown provider")} ${printable(fixture.event_type || "(no event type)")}: ${printable(what)}\n`);
  return 0;
}
