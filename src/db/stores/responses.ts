import { sql } from "drizzle-orm";
import type { ResponseStore } from "../../responses/store";
import { excluded, name, names, type Dialect } from "./dialect";

/** ResponseStore on either backend (responses/store.ts says what each method returns). */
export function createResponseStore(d: Dialect): ResponseStore {
  const r = d.tables.channelResponses;
  const list = d.query({ channel: r.channel, setting: r.setting }, (cols) => sql`SELECT ${cols} FROM ${r} ORDER BY ${r.channel}`);
  const save = d.prepare<{ channel: string; setting: string; updatedAt: number }>(
    (p) => sql`INSERT INTO ${r} ${names(r.channel, r.setting, r.updatedAt)} VALUES (${p.channel}, ${p.setting}, ${p.updatedAt})
      ON CONFLICT ${names(r.channel)} DO UPDATE SET ${name(r.setting)} = ${excluded(r.setting)}, ${name(r.updatedAt)} = ${excluded(r.updatedAt)}`,
  );
  const remove = d.prepare<{ channel: string }>((p) => sql`DELETE FROM ${r} WHERE ${r.channel} = ${p.channel}`);
  const changed = () => d.report({ kind: "state", part: "responses" });
  return {
    list: () => list.all({}),
    save: (channel, setting, updatedAt) =>
      d.write(async () => {
        await save.run({ channel, setting, updatedAt });
        changed();
      }),
    remove: (channel) =>
      d.write(async () => {
        if ((await remove.run({ channel })) > 0) changed();
      }),
  };
}
