/**
 * `[storage] url`, read as Bun.sql reads it, so that a URL the driver would refuse (or misread) is
 * refused by the config check with a sentence saying what is wrong, and the parts named in logs
 * and errors (host, port, database, user) are the ones the driver uses. Bun.sql takes `user`,
 * `password`, `port` and `dbname` from the query string too, over the URL's own parts;
 * `?password=` is honoured, but a password given twice is refused. No message quotes the URL
 * or any part of it (the password may be anywhere in it).
 */
export type PostgresTarget = { host: string; port: string; database: string; user: string; secrets: string[] };

const SSL_MODES = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"];
const CONTROL = /[\u0000-\u001f\u007f]/;
const HINT = "characters such as @ : / ? # % in the user name or password must be percent-encoded, %40 for @";

function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with a PostgreSQL URL, as a sentence; undefined when Bun.sql can use it.
 *
 * @example postgresUrlProblem("postgres://me:50%off@db/app") // "the password is not valid percent-encoding: ..."
 */
export function postgresUrlProblem(url: string): string | undefined {
  if (CONTROL.test(url)) return "must not contain control characters (a tab, CR or LF)";
  if (!/^postgres(ql)?:\/\//.test(url)) return 'must start with postgres:// or postgresql://, as "postgres://user:password@host:5432/database"';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `is not a valid URL: check the host name and that the port is at most 65535 (${HINT})`;
  }
  const parts = [
    ["user name", u.username],
    ["password", u.password],
    ["database name", u.pathname.slice(1)],
  ] as const;
  for (const [what, part] of parts) {
    if (decoded(part) === undefined) return `the ${what} is not valid percent-encoding: a % must be followed by two hex digits (write %25 for a % itself)`;
  }
  const query = u.searchParams;
  if (query.has("password") && u.password !== "") return "gives the password twice, before the host and as ?password=: give it once";
  const port = query.get("port");
  if (port !== null && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) return "?port= must be a port number from 1 to 65535";
  const sslmode = query.get("sslmode");
  if (sslmode !== null && !SSL_MODES.includes(sslmode)) return `?sslmode= must be one of ${SSL_MODES.join(", ")}`;
  return undefined;
}

/**
 * The server, database and user a URL names, and the strings that must never be printed (the
 * password as written and decoded). Call it on a URL postgresUrlProblem accepted.
 */
export function postgresTarget(url: string): PostgresTarget {
  const u = new URL(url);
  const query = u.searchParams;
  const socket = query.get("path") ?? query.get("socket") ?? query.get("host");
  const password = query.get("password") ?? "";
  const raw = /[?&]password=([^&#]*)/.exec(u.search)?.[1] ?? "";
  return {
    host: socket ?? (u.hostname || "localhost"),
    port: query.get("port") ?? (u.port || "5432"),
    database: query.get("dbname") ?? decoded(u.pathname.slice(1)) ?? "",
    user: query.get("user") ?? decoded(u.username) ?? "",
    secrets: [u.password, decoded(u.password) ?? "", password, raw].filter((s) => s.length > 0),
  };
}
