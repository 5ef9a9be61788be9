import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Fixture, FIXTURE_LIMITS, FixtureError, fixtureText, parseFixture, prepareFixture } from "../fixtures";
import { UsageError } from "../lib/args";
import type { Io } from "../lib/io";
import { printable } from "../lib/terminal";
import { ClientError, type Client } from "./client";
import { parseHeader, readKey } from "./send";
import { PROVIDERS, signForTrigger, unknownSigner } from "./sign";

export type FixtureSend = {
  file: string;
  channel?: string;
  to?: string;
  overrides: Record<string, unknown>;
  headers: string[];
  sign?: string;
  secret?: string;
  privateKey?: string;
  edit: boolean;
};

/** The fixture at `file` (`.json` added when the name has none and such a file exists). Throws UsageError. */
function readFixture(file: string): Fixture {
  const tried = [file, ...(file.endsWith(".json") ? [] : [`${file}.json`])];
  for (const path of tried) {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && path !== tried.at(-1)) continue;
      throw new UsageError(`--fixture: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    try {
      return parseFixture(text);
    } catch (error) {
      throw new UsageError(`--fixture ${path}: ${(error as Error).message}`);
    }
  }
  throw new UsageError(`--fixture: cannot read ${file}`);
}

/** The fixture as the user left it in $EDITOR (a copy in a private temp folder; the file itself is not changed). */
function edit(fixture: Fixture, io: Io): Fixture {
  const editor = io.env.VISUAL || io.env.EDITOR;
  if (!editor) throw new UsageError("--edit: set $EDITOR (or $VISUAL) to the editor to open");
  const dir = mkdtempSync(join(tmpdir(), "mailroom-fixture-"));
  const path = join(dir, "fixture.json");
  try {
    writeFileSync(path, fixtureText(fixture), { mode: 0o600 });
    // The editor command may hold arguments (`code --wait`): the shell splits it; the file is its last argument.
    const run = spawnSync("/bin/sh", ["-c", `${editor} "$1"`, "sh", path], { stdio: "inherit" });
    if (run.status !== 0) throw new UsageError(`--edit: the editor exited with ${run.status ?? run.signal}; nothing sent`);
    try {
      return parseFixture(readFileSync(path, "utf8"));
    } catch (error) {
      throw new UsageError(`--edit: ${(error as Error).message}; nothing sent`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `mailroom trigger --fixture FILE [CHANNEL | --to URL]`: the fixture sent with fresh ids and times,
 * overrides and headers applied, signed as --sign (default: the fixture's provider) when a key is given.
 */
export async function triggerFixture(o: FixtureSend, client: Client, io: Io): Promise<number> {
  let fixture = readFixture(o.file);
  if (o.edit) fixture = edit(fixture, io);
  let prepared: ReturnType<typeof prepareFixture>;
  try {
    prepared = prepareFixture(fixture, o.overrides, io.now());
  } catch (error) {
    if (error instanceof FixtureError) throw new UsageError(`trigger: ${error.message}`);
    throw error;
  }
  let headers = prepared.headers;
  for (const h of o.headers) {
    const [k, v] = parseHeader(h);
    headers[k] = v;
  }
  const channel = o.channel ?? (fixture.channel || fixture.provider || "default");
  const query = prepared.query ? `&${prepared.query}` : "";
  let url =
    o.to !== undefined
      ? `${o.to}${prepared.query ? `${o.to.includes("?") ? "&" : "?"}${prepared.query}` : ""}`
      : `${client.base}/?channel=${encodeURIComponent(channel)}${query}`;
  const provider = o.sign ?? fixture.provider;
  const secret = o.secret;
  const privateKey = o.privateKey === undefined ? undefined : readKey(o.privateKey);
  if (secret !== undefined || privateKey !== undefined) {
    if (!provider) throw new UsageError("trigger: the fixture names no provider: give --sign PROVIDER to sign it");
    if (!PROVIDERS.includes(provider)) throw new UsageError(`--sign: ${unknownSigner(provider)}`);
    ({ headers, url } = signForTrigger(provider, { secret, privateKey }, { url, method: prepared.method, headers, body: prepared.body }, io.now()));
  } else if (o.sign !== undefined) throw new UsageError(`--sign ${o.sign} needs --secret S (or $MAILROOM_SIGN_SECRET), or --private-key @FILE`);
  else io.err(`mailroom: sending unsigned (give --secret S or $MAILROOM_SIGN_SECRET to sign${provider ? ` as ${printable(provider)}` : ""})\n`);
  if (prepared.body.byteLength > FIXTURE_LIMITS.bodyBytes) throw new UsageError("trigger: the body is too large");
  const body = prepared.method === "GET" || prepared.method === "HEAD" ? undefined : prepared.body;
  let res: Response;
  try {
    res = await fetch(url, { method: prepared.method, headers, body });
  } catch (error) {
    throw new ClientError(`cannot reach ${o.to === undefined ? `Mailroom at ${client.base}` : printable(o.to)}: ${(error as Error).message}`);
  }
  io.out(`${res.status} ${printable(await res.text())}\n`);
  return res.ok ? 0 : 1;
}
