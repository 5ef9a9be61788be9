import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

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
