import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { sha256Hex } from "./secrets";

/**
 * The local credentials file that `serve` writes next to its data file (mode 0600): the URL it
 * listens on and the generated API token, so the CLI on the same machine needs no flags.
 * `data/mailroom.db` -> `data/mailroom.credentials.json`. While no dashboard user exists it also
 * holds the pending setup link's token, so a restart prints the same link (dashboard/setup.ts).
 */
export type Credentials = { url: string; token?: string; setup?: string };

export function credentialsPath(dbPath: string): string {
  return dbPath.replace(/\.(db|sqlite3?)$/i, "") + ".credentials.json";
}

export function readCredentials(path: string): Credentials | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as Partial<Credentials>;
    if (typeof value.url !== "string") return undefined;
    const text = (v: unknown) => (typeof v === "string" ? v : undefined);
    return { url: value.url, token: text(value.token), setup: text(value.setup) };
  } catch {
    return undefined;
  }
}

/** Writes the file readable by its owner only (created so, and chmod'ed if it existed), in a folder of the owner's (700 when created here, as the data file's). */
export function writeCredentials(path: string, credentials: Credentials): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(credentials, null, 2) + "\n", { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** Where clients should call a server listening on host:port (a wildcard address means this machine). */
export function localUrl(host: string, port: number): string {
  const h = host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

/**
 * At start-up: the credentials file next to the data file gets the URL the server listens on and
 * the local token (the one just generated, or the one the file already holds if it still matches).
 * Returns the lines `serve` prints about it; the token itself only when it was generated now.
 */
export function saveLocalCredentials(opts: {
  dbPath: string;
  host: string;
  port: number;
  localSha256?: string;
  generated?: string;
  /** The pending setup link's token (none once a dashboard user exists). */
  setup?: string;
}): string[] {
  if (opts.dbPath === ":memory:") {
    return opts.generated ? [`  local token (kept in memory only): Authorization: Bearer ${opts.generated}`] : [];
  }
  const path = credentialsPath(opts.dbPath);
  const existing = readCredentials(path);
  const token = opts.generated ?? (existing?.token && opts.localSha256 === sha256Hex(existing.token) ? existing.token : undefined);
  writeCredentials(path, { url: localUrl(opts.host, opts.port), token, setup: opts.setup });
  if (opts.generated) {
    return [
      "",
      "  A management API token was created for this machine (only its hash is stored in the database).",
      `  It is saved in ${path} (readable by you only), where the mailroom CLI finds it:`,
      `    Authorization: Bearer ${opts.generated}`,
      "",
    ];
  }
  if (!token) return [`  local token: not in ${path} any more; \`mailroom token reset\` issues a new one`];
  return [`  local token: in ${path}`];
}
