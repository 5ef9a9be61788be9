import { sql } from "drizzle-orm";
import type { ShareLinkRow, ShareLinkStore } from "../../share/store";
import { columnsOf, rowValues, type Dialect } from "./dialect";

/** ShareLinkStore on either backend (share/store.ts says what each method returns). */
export function createShareLinkStore(d: Dialect): ShareLinkStore {
  const l = d.tables.shareLinks;
  const cols = columnsOf(l);
  const insert = d.prepare<ShareLinkRow>(() => sql`INSERT INTO ${l} ${rowValues(l)}`);
  const byHash = d.query<typeof cols, { hash: string }>(cols, (list, p) => sql`SELECT ${list} FROM ${l} WHERE ${l.tokenSha256} = ${p.hash}`);
  const live = d.query<typeof cols, { now: number }>(
    cols,
    (list, p) => sql`SELECT ${list} FROM ${l} WHERE ${l.expiresAt} > ${p.now} ORDER BY ${l.createdAt} DESC, ${l.id} DESC`,
  );
  const remove = d.prepare<{ id: string }>((p) => sql`DELETE FROM ${l} WHERE ${l.id} = ${p.id}`);
  const expired = d.prepare<{ now: number }>((p) => sql`DELETE FROM ${l} WHERE ${l.expiresAt} <= ${p.now}`);
  return {
    insert: (row) =>
      d.write(async () => {
        await insert.run(row);
      }),
    byTokenHash: (hash) => byHash.get({ hash }),
    list: (now) => live.all({ now }),
    remove: (id) => d.write(async () => (await remove.run({ id })) > 0),
    removeExpired: (now) => d.write(() => expired.run({ now })),
  };
}
