import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join, resolve } from "node:path";
import { randomToken } from "../lib/secrets";
import type { ListenerIdentity } from "./client";

/**
 * This laptop as upstream knows it: an id kept next to the data file (so a restarted `listen`, or
 * one reconnecting, is the same listener and takes its relay over at once, while another laptop
 * is told who listens already), the host name and when this process started listening. A data
 * path of ":memory:" gets an id for this process only.
 */
export function listenerIdentity(dataPath: string, startedAt: number): ListenerIdentity {
  const host = hostname();
  if (dataPath === ":memory:") return { listener: randomToken("").slice(0, 32), host, startedAt };
  const file = join(dirname(resolve(dataPath)), "mailroom.listener-id");
  try {
    const saved = readFileSync(file, "utf8").trim();
    if (/^[A-Za-z0-9_-]{8,64}$/.test(saved)) return { listener: saved, host, startedAt };
  } catch {}
  const listener = randomToken("")
    .replace(/[^A-Za-z0-9_-]/g, "")
    .slice(0, 32);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${listener}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { listener, host, startedAt };
}
