/** Makes sure wrk is installed: from Debian's packages when running as root, else says how. */
export function ensureWrk(): void {
  if (Bun.which("wrk")) return;
  if (process.getuid?.() === 0 && Bun.which("apt-get")) {
    console.log("wrk is missing; installing it: apt-get update && apt-get install -y wrk");
    for (const argv of [
      ["apt-get", "update"],
      ["apt-get", "install", "-y", "wrk"],
    ]) {
      const res = Bun.spawnSync(argv, { stdout: "inherit", stderr: "inherit" });
      if (res.exitCode !== 0) break;
    }
    if (Bun.which("wrk")) return;
  }
  console.error("The ingest benchmark needs wrk. Install it, e.g.: sudo apt-get update && sudo apt-get install -y wrk");
  process.exit(1);
}
