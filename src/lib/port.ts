/**
 * Whether host:port is taken: a listener opened and closed at once. `serve` asks before it opens
 * storage, so that a port in use fails before anything (a data folder, a database) is created.
 * Port 0 (any free port) is never taken.
 */
export function portTaken(host: string, port: number): boolean {
  if (port === 0) return false;
  try {
    Bun.listen({ hostname: host, port, socket: { data() {} } }).stop(true);
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === "EADDRINUSE") return true;
    // Anything else (an address this machine does not have) is for the real listener to report.
    return false;
  }
}
