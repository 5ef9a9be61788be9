import type { IssueNotice, Notify } from "../../src/notify/notice";

/** A Notify that keeps what it was handed: [notifiers, event, rule, scope] per notice. */
export function recordingNotify() {
  const sent: { to: readonly string[]; notice: IssueNotice }[] = [];
  const notify: Notify = { queue: async (to, notice) => void sent.push({ to, notice }) };
  return { notify, sent, events: () => sent.map((s) => `${s.notice.event} ${s.notice.issue.rule} ${s.notice.issue.scope}`) };
}

import { createApp } from "../../src/app";
import { migratePostgres } from "../../src/db/pg/migrate";
import { openPostgres } from "../../src/db/pg/open";
import { createPostgresStorage } from "../../src/db/pg/storage";
import { silentLog } from "../../src/lib/log";
import { buildConfig } from "../../src/load-config";
import { createMetrics } from "../../src/metrics";
import { createRunner } from "../../src/runner";
import { httpClient, TOKEN } from "../helpers/client";
import { createFakeClock } from "../helpers/clock";
import { freshDatabase } from "../helpers/postgres";

/** A Mailroom on a fresh PostgreSQL database with the fake clock, as createTestApp makes one on SQLite. */
export async function pgTestApp(raw: Record<string, unknown>, notify: Notify) {
  const url = await freshDatabase();
  const config = buildConfig({ api_keys: [{ label: "test", token: TOKEN }], ...raw, storage: { url } }, {});
  const clock = createFakeClock();
  const sql = await openPostgres(url, { max: 4 });
  await migratePostgres(sql);
  const storage = await createPostgresStorage(sql, { instance: crypto.randomUUID(), leaseMs: config.storage.attempt_lease, log: silentLog });
  const metrics = createMetrics(config);
  const runner = createRunner({ config, queue: storage.attempts, clock, log: silentLog, metrics });
  const built = createApp({ config, storage, clock, log: silentLog, runner, metrics, notify });
  await built.ready;
  const client = httpClient((path, init) => built.app.handle(new Request(`http://localhost${path}`, init)));
  const close = async () => {
    await built.close();
    await storage.close();
  };
  return { ...built, ...client, runner, clock, close };
}
