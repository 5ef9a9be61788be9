import { Database } from "bun:sqlite";
import { chmodSync, lstatSync, mkdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** Thrown by lockDataFile when another process holds the data file, or could (a hard link to it). */
export class DataFileInUse extends Error {}

/**
 * Holds an exclusive lock on `<path>.lock` (an empty SQLite file beside the data file) for as long
 * as the returned connection stays open: one Mailroom per data file. Two would each batch and
 * count on their own, and their in-memory channel states would disagree. The OS drops the lock
 * with the process, so a restart after a crash (kill -9) is never refused. The lock is taken
 * beside the file's real path, so a symlink to the file or to its folder finds the same lock. A
 * hard link is another path to the same file that no lock by path can see (and SQLite keeps its
 * WAL by path: two names would each have their own), so a data file with more than one link is
 * refused. Throws DataFileInUse.
 */
export function lockDataFile(path: string): Database {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const real = realDataPath(path);
  const links = linksOf(real);
  if (links > 1) {
    throw new DataFileInUse(
      `the data file ${path} has ${links} hard links (other names for the same file, through which another Mailroom could open it beside this one); remove the other names (find them with: find / -samefile ${real}) and start again`,
    );
  }
  const lockPath = `${real}.lock`;
  const lock = new Database(lockPath, { create: true });
  chmodSync(lockPath, 0o600);
  try {
    lock.run("PRAGMA busy_timeout = 0");
    lock.run("PRAGMA journal_mode = MEMORY"); // nothing is written: no journal file beside it
    lock.run("PRAGMA locking_mode = EXCLUSIVE");
    lock.run("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if (/locked|busy/i.test(String(error))) {
      // Named as given; a symlink's real file is named beside it.
      const same = real === resolve(path);
      const named = same ? path : `${path} (${real})`;
      throw new DataFileInUse(`the data file ${named} is in use by another Mailroom (it holds ${same ? `${path}.lock` : lockPath}); stop that one first`);
    }
    throw error;
  }
  return lock;
}

/** How many names (hard links) the file has; 0 when it does not exist yet. */
function linksOf(path: string): number {
  try {
    return statSync(path).nlink;
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return 0;
    throw error;
  }
}

/**
 * The data file's path with every symlink resolved: the file's own when it exists, else its real
 * folder and its name (following a link whose target is not created yet). Throws what realpath
 * throws when the folder is missing.
 */
export function realDataPath(path: string): string {
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      if (!lstatSync(current).isSymbolicLink()) return realpathSync(current);
      link = readlinkSync(current);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
      break;
    }
    current = resolve(dirname(current), link);
  }
  return join(realpathSync(dirname(current)), basename(current));
}
