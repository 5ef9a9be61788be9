/**
 * DashboardStore's contract (src/dashboard/store.ts: users, sessions, settings) on SQLite and
 * PostgreSQL, with racing writes of one user and one setting.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { SessionRow, UserRow } from "../../../src/dashboard/store";
import { createDashboardStore } from "../../../src/db/stores/dashboard";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const user = (email: string, over: Partial<UserRow> = {}): UserRow => ({
  email,
  role: "member",
  passwordHash: "$argon2id$x",
  createdAt: 1000,
  channels: null,
  ...over,
});
const session = (token: string, email: string, expiresAt = 10_000): SessionRow => ({ tokenSha256: token, email, stamp: "s1", createdAt: 1000, expiresAt });

for (const backend of contractBackends(
  (db) => createDashboardStore(sqliteDialect(db.$client)),
  (t) => createDashboardStore(pgDialect(t)),
)) {
  describe(`dashboard store on ${backend.name}`, () => {
    test("users: insert once (false for an address taken), read, count and list by address", async () => {
      const { store } = await backend.open();
      expect(await store.getUser("ada@example.com")).toBeUndefined();
      expect(await store.countUsers()).toBe(0);
      expect(await store.insertUser(user("zoe@example.com"))).toBe(true);
      expect(await store.insertUser(user("ada@example.com", { role: "admin" }))).toBe(true);
      expect(await store.insertUser(user("ada@example.com"))).toBe(false);
      expect(await store.getUser("ada@example.com")).toEqual(user("ada@example.com", { role: "admin" }));
      expect(await store.countUsers()).toBe(2);
      expect((await store.listUsers()).map((u) => u.email)).toEqual(["ada@example.com", "zoe@example.com"]);
    });

    test("a member limited to channels: stored, changed, lifted; false for no such user", async () => {
      const { store } = await backend.open();
      await store.insertUser(user("sam@example.com", { channels: '["stripe-*"]' }));
      expect((await store.getUser("sam@example.com"))!.channels).toBe('["stripe-*"]');
      expect(await store.setChannels("sam@example.com", '["github"]')).toBe(true);
      expect((await store.listUsers())[0]!.channels).toBe('["github"]');
      expect(await store.setChannels("sam@example.com", null)).toBe(true);
      expect((await store.getUser("sam@example.com"))!.channels).toBeNull();
      expect(await store.setChannels("nobody@example.com", null)).toBe(false);
    });

    test("a new password or the user's removal ends their sessions; false for no such user", async () => {
      const { store } = await backend.open();
      await store.insertUser(user("ada@example.com"));
      await store.insertSession(session("t1", "ada@example.com"), 1000);
      expect(await store.setPasswordHash("ada@example.com", "$argon2id$y")).toBe(true);
      expect(await store.getSession("t1")).toBeUndefined();
      expect((await store.getUser("ada@example.com"))!.passwordHash).toBe("$argon2id$y");
      expect(await store.setPasswordHash("nobody@example.com", "h")).toBe(false);
      await store.insertSession(session("t2", "ada@example.com"), 1000);
      expect(await store.deleteUser("ada@example.com")).toBe(true);
      expect(await store.getSession("t2")).toBeUndefined();
      expect(await store.deleteUser("ada@example.com")).toBe(false);
    });

    test("sessions: stored and read back; expired ones go with the next insert; deleting none is no error", async () => {
      const { store } = await backend.open();
      await store.insertUser(user("ada@example.com"));
      await store.insertSession(session("old", "ada@example.com", 1500), 1000);
      expect(await store.getSession("old")).toEqual(session("old", "ada@example.com", 1500));
      await store.insertSession(session("new", "ada@example.com", 9000), 2000);
      expect(await store.getSession("old")).toBeUndefined();
      await store.deleteSession("new");
      await store.deleteSession("never");
      expect(await store.getSession("new")).toBeUndefined();
      // A token stored twice is the database's error, and nothing changes.
      await store.insertSession(session("dup", "ada@example.com"), 2000);
      await expect(store.insertSession(session("dup", "ada@example.com", 20_000), 2000)).rejects.toThrow();
      expect((await store.getSession("dup"))!.expiresAt).toBe(10_000);
    });

    test("settings: undefined until written, then the last value written", async () => {
      const { store } = await backend.open();
      expect(await store.readSetting("default_guards")).toBeUndefined();
      await store.writeSetting("default_guards", ["sig"]);
      await store.writeSetting("default_guards", ["sig", "ips"]);
      expect(await store.readSetting<string[]>("default_guards")).toEqual(["sig", "ips"]);
    });

    test("the first admin by the setup link: added with the link taken together; racing setups on two instances make one admin", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const link = { sha256: "abc", expires_at: 5000 };
      await store.writeSetting("setup", link);
      // A stale link (another one was written since) adds nobody.
      expect(await store.insertFirstUser(user("eve@example.com", { role: "admin" }), { sha256: "old", expires_at: 5000 })).toBe("void");
      // An address taken keeps the link.
      await store.insertUser(user("zoe@example.com"));
      expect(await store.insertFirstUser(user("zoe@example.com", { role: "admin" }), link)).toBe("taken");
      expect(await store.readSetting("setup")).toEqual(link);
      await store.deleteUser("zoe@example.com");
      const raced = await race(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).insertFirstUser(user(`admin${i}@example.com`, { role: "admin" }), link)),
      );
      expect(raced.errors).toEqual([]);
      expect(raced.values.filter((v) => v === "added")).toHaveLength(1);
      expect(raced.values.filter((v) => v === "void")).toHaveLength(9);
      expect((await store.listUsers()).map((u) => u.email)).toEqual([`admin${raced.values.indexOf("added")}@example.com`]);
      expect(await store.readSetting("setup")).toBeUndefined();
    });

    test("racing inserts of one user and writes of one setting on two instances: one user, one of the values", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const inserted = await race(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).insertUser(user("ada@example.com", { passwordHash: `h${i}` }))));
      expect(inserted.errors).toEqual([]);
      expect(inserted.values.filter(Boolean)).toHaveLength(1);
      expect((await store.getUser("ada@example.com"))!.passwordHash).toBe(`h${inserted.values.indexOf(true)}`);
      const written = await race(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).writeSetting("default_guards", [`g${i}`])));
      expect(written.errors).toEqual([]);
      expect(Array.from({ length: 10 }, (_, i) => [`g${i}`])).toContainEqual((await store.readSetting<string[]>("default_guards"))!);
    });

    test("updateSetting reads and writes as one step: instances adding different names at once keep them all", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const add = (name: string) => (names: string[] | undefined) => (names?.includes(name) ? undefined : [...(names ?? []), name].sort());
      const { errors, values } = await race(Array.from({ length: 12 }, (_, i) => (i % 2 ? store : other).updateSetting("paused_handlers", add(`h${i}`))));
      expect(errors).toEqual([]);
      expect(values.every((v) => v !== undefined)).toBe(true);
      expect(await store.readSetting<string[]>("paused_handlers")).toEqual(Array.from({ length: 12 }, (_, i) => `h${i}`).sort());
      // A change that answers undefined stores nothing and resolves to what is kept.
      expect(await store.updateSetting("paused_handlers", add("h3"))).toHaveLength(12);
    });
  });
}
