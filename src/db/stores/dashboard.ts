import { sql } from "drizzle-orm";
import type { DashboardStore, SessionRow, SettingKey, UserRow } from "../../dashboard/store";
import { columnsOf, excluded, name, names, rowValues, type Dialect } from "./dialect";

class AddressTaken extends Error {}

/**
 * DashboardStore (users, sessions, settings) on either backend (dashboard/store.ts says what each
 * method returns). insertFirstUser takes the setup link first: on PostgreSQL the DELETE locks its
 * row, so a racing setup waits and then finds it gone; on SQLite transactions take turns.
 */
export function createDashboardStore(d: Dialect): DashboardStore {
  const { users: u, sessions: s, dashboardSettings: set } = d.tables;
  const user = columnsOf(u);
  const session = columnsOf(s);
  const getUser = d.query<typeof user, { email: string }>(user, (cols, p) => sql`SELECT ${cols} FROM ${u} WHERE ${u.email} = ${p.email}`);
  const countUsers = d.query({ n: sql<number>`count(*)`.mapWith(Number) }, (cols) => sql`SELECT ${cols} FROM ${u}`);
  const listUsers = d.query(user, (cols) => sql`SELECT ${cols} FROM ${u} ORDER BY ${u.email}`);
  const insertUser = d.prepare<UserRow>(() => sql`INSERT INTO ${u} ${rowValues(u)} ON CONFLICT ${names(u.email)} DO NOTHING`);
  const deleteUser = d.prepare<{ email: string }>((p) => sql`DELETE FROM ${u} WHERE ${u.email} = ${p.email}`);
  const setPasswordHash = d.prepare<{ email: string; passwordHash: string }>(
    (p) => sql`UPDATE ${u} SET ${name(u.passwordHash)} = ${p.passwordHash} WHERE ${u.email} = ${p.email}`,
  );
  const setChannels = d.prepare<{ email: string; channels: string | null }>(
    (p) => sql`UPDATE ${u} SET ${name(u.channels)} = ${p.channels} WHERE ${u.email} = ${p.email}`,
  );
  const endSessionsOf = d.prepare<{ email: string }>((p) => sql`DELETE FROM ${s} WHERE ${s.email} = ${p.email}`);
  const endExpired = d.prepare<{ now: number }>((p) => sql`DELETE FROM ${s} WHERE ${s.expiresAt} < ${p.now}`);
  const insertSession = d.prepare<SessionRow>(() => sql`INSERT INTO ${s} ${rowValues(s)}`);
  const getSession = d.query<typeof session, { tokenSha256: string }>(
    session,
    (cols, p) => sql`SELECT ${cols} FROM ${s} WHERE ${s.tokenSha256} = ${p.tokenSha256}`,
  );
  const deleteSession = d.prepare<{ tokenSha256: string }>((p) => sql`DELETE FROM ${s} WHERE ${s.tokenSha256} = ${p.tokenSha256}`);
  const takeSetupLink = d.prepare<{ value: string }>((p) => sql`DELETE FROM ${set} WHERE ${set.key} = 'setup' AND ${set.value} = ${p.value}`);
  const readSetting = d.query<{ value: typeof set.value }, { key: string }>(
    { value: set.value },
    (cols, p) => sql`SELECT ${cols} FROM ${set} WHERE ${set.key} = ${p.key}`,
  );
  const createSetting = d.prepare<{ key: string; value: string }>(
    (p) => sql`INSERT INTO ${set} ${names(set.key, set.value)} VALUES (${p.key}, ${p.value}) ON CONFLICT ${names(set.key)} DO NOTHING`,
  );
  const writeSetting = d.prepare<{ key: string; value: string }>(
    (p) =>
      sql`INSERT INTO ${set} ${names(set.key, set.value)} VALUES (${p.key}, ${p.value}) ON CONFLICT ${names(set.key)} DO UPDATE SET ${name(set.value)} = ${excluded(set.value)}`,
  );

  /** Reports the users as changed when `done` (once the caller's transaction commits). */
  const usersChanged = (done: boolean) => (done && d.report({ kind: "state", part: "users" }), done);
  return {
    getUser: (email) => getUser.get({ email }),
    countUsers: async () => (await countUsers.get({}))?.n ?? 0,
    listUsers: () => listUsers.all({}),
    insertUser: (row) => d.write(async () => usersChanged((await insertUser.run({ ...row, channels: row.channels ?? null })) > 0)),
    insertFirstUser: (row, setup) =>
      d
        .transaction(async () => {
          if ((await takeSetupLink.run({ value: JSON.stringify(setup) })) === 0) return "void" as const;
          // An address taken: the transaction is rolled back, the link kept.
          if ((await insertUser.run({ ...row, channels: row.channels ?? null })) === 0) throw new AddressTaken();
          d.report({ kind: "state", part: "setup" });
          usersChanged(true);
          return "added" as const;
        })
        .catch((error) => {
          if (error instanceof AddressTaken) return "taken" as const;
          throw error;
        }),
    deleteUser: (email) =>
      d.transaction(async () => {
        const removed = (await deleteUser.run({ email })) > 0;
        await endSessionsOf.run({ email });
        return usersChanged(removed);
      }),
    setPasswordHash: (email, passwordHash) =>
      d.transaction(async () => {
        const changed = (await setPasswordHash.run({ email, passwordHash })) > 0;
        await endSessionsOf.run({ email });
        return usersChanged(changed);
      }),

    setChannels: (email, channels) => d.write(async () => usersChanged((await setChannels.run({ email, channels })) > 0)),

    insertSession: (row, now) =>
      d.transaction(async () => {
        await endExpired.run({ now });
        await insertSession.run(row);
      }),
    getSession: (tokenSha256) => getSession.get({ tokenSha256 }),
    deleteSession: (tokenSha256) =>
      d.write(async () => {
        await deleteSession.run({ tokenSha256 });
      }),

    async readSetting<T>(key: SettingKey) {
      const r = await readSetting.get({ key });
      return r ? (JSON.parse(r.value) as T) : undefined;
    },
    updateSetting: <T>(key: Exclude<SettingKey, "device_key">, change: (current: T | undefined) => T | undefined) =>
      d.transaction(async () => {
        await d.lock("settings", key);
        const r = await readSetting.get({ key });
        const current = r ? (JSON.parse(r.value) as T) : undefined;
        const next = change(current);
        if (next === undefined) return current;
        await writeSetting.run({ key, value: JSON.stringify(next) });
        d.report({ kind: "state", part: key });
        return next;
      }),
    createSetting: (key, value) =>
      d.write(async () => {
        await createSetting.run({ key, value: JSON.stringify(value) });
      }),
    writeSetting: (key, value) =>
      d.write(async () => {
        await writeSetting.run({ key, value: JSON.stringify(value) });
        d.report({ kind: "state", part: key });
      }),
  };
}
