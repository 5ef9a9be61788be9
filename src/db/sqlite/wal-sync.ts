import { closeSync, fdatasync, openSync } from "node:fs";

/**
 * Group fsync of the WAL file, off the thread that serves HTTP (node:fs runs it on its thread
 * pool). Batches of caught hooks are committed with `synchronous = NORMAL` (written to the WAL,
 * not yet synced) and answered only once `sync()` resolves, so a 2xx still means "on disk"
 * while the next batch is already being committed.
 *
 * `sync()` resolves once everything written to the WAL before the call is on disk. Calls made
 * while a sync runs share the next one, which starts when the running one ends.
 */
export function createWalSync(walPath: string, syncFile?: () => Promise<void>) {
  let fd: number | undefined;
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  const once =
    syncFile ??
    (() =>
      new Promise<void>((resolve, reject) => {
        try {
          fd ??= openSync(walPath, "r");
        } catch (error) {
          return reject(error); // the batch fails (503 to its senders) instead of the flush throwing
        }
        fdatasync(fd, (error) => (error ? reject(error) : resolve()));
      }));

  function start(): Promise<void> {
    const p = once();
    running = p;
    const clear = () => {
      if (running === p) running = null;
    };
    p.then(clear, clear);
    return p;
  }

  return {
    sync(): Promise<void> {
      if (queued) return queued;
      if (!running) return start();
      const after = running.then(
        () => undefined,
        () => undefined,
      );
      queued = after.then(() => {
        queued = null;
        return start();
      });
      return queued;
    },
    close(): void {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

export type WalSync = ReturnType<typeof createWalSync>;
