/**
 * `bun scripts/postgres.ts`: starts a throwaway PostgreSQL cluster (test/helpers/postgres.ts),
 * prints `MAILROOM_TEST_PG_URL=<superuser URL>` on stdout and stays until killed; the cluster and
 * its folder go with it. Tests and benchmarks run with that variable set reuse this cluster
 * instead of starting their own:
 *
 *   bun scripts/postgres.ts > .pg.env &    # then: export $(cat .pg.env); bun test test/db/
 */
import { startPostgresCluster } from "../test/helpers/postgres";

const started = performance.now();
const cluster = await startPostgresCluster();
console.log(`MAILROOM_TEST_PG_URL=${cluster.url}`);
console.error(`postgres: started in ${Math.round(performance.now() - started)} ms; stop with Ctrl-C or SIGTERM`);

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    void cluster.stop().finally(() => process.exit(0));
  });
}
// Nothing else keeps the process alive: the cluster runs in other processes.
setInterval(() => {}, 1 << 30);
