/** How often a Mailroom started with a parent pid checks that its parent still runs. */
export const PARENT_POLL_MS = 250;

/**
 * Whether the process `pid` is gone. Signal 0 checks without signalling; EPERM means it exists
 * but belongs to someone else. When `pid` was our parent at start, a changed `process.ppid`
 * (re-parented to init or a subreaper) also means it is gone, even if the pid was reused since.
 */
export function parentGone(pid: number, wasParent: boolean): boolean {
  if (wasParent && process.ppid !== pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === "ESRCH";
  }
}

/**
 * Calls `onGone` once when the process `pid` has ended, however it ended (SIGKILL included), so
 * that a Mailroom started by a test suite never outlives it. One cheap system call per poll.
 * Returns a function that stops watching.
 */
export function watchParent(pid: number, onGone: () => void, pollMs = PARENT_POLL_MS): () => void {
  const wasParent = process.ppid === pid;
  const timer = setInterval(() => {
    if (!parentGone(pid, wasParent)) return;
    clearInterval(timer);
    onGone();
  }, pollMs);
  return () => clearInterval(timer);
}
