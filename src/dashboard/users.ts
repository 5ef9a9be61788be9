import { scryptSync } from "node:crypto";
import type { Config } from "../config/schema";
import type { Clock } from "../lib/clock";
import { AppError, invalid, notFound } from "../lib/errors";
import { sha256Hex } from "../lib/secrets";
import type { UserRow, UserStore } from "./store";

export type Role = "admin" | "member";
/** `stamp`: what sessions of a config-file user with a plain password remember (stampOf). */
/** `channels`: a member limited to them (glob patterns, lib/caller.ts); absent, every channel. */
export type User = {
  email: string;
  role: Role;
  passwordHash: string;
  source: "config" | "dashboard";
  createdAt: number;
  stamp?: string;
  channels?: string[];
};
/** `channels`: present for a member limited to them (glob patterns). */
export type UserWire = { email: string; role: Role; read_only: boolean; created_at: string | null; channels?: string[] };

/** No space, no @ but one, and no U+0000 (a PostgreSQL text cannot hold it). */
export const EMAIL_PATTERN = "^[^\\s@\\u0000]+@[^\\s@\\u0000]+\\.?[^\\s@\\u0000]*$";
export const MIN_PASSWORD = 8;

/**
 * A hash verified when no user has the e-mail given, so that a sign-in takes as long either way.
 * Made at the first sign-in of an unknown e-mail, not at import: an argon2id hash costs about a
 * tenth of a second, which every command (`mailroom --version` too) would pay at start.
 */
let dummy: Promise<string> | undefined;
const dummyHash = (): Promise<string> => (dummy ??= Bun.password.hash("no user has this password", { algorithm: "argon2id" }));

/**
 * What a session remembers of the password: a change of password ends every session. It must be
 * the same on every instance sharing the database, so a config-file user given a plain password
 * (hashed at start with a random salt, differently by each instance) gets a stamp derived from the
 * password itself, slowly (scrypt, salted with the address), instead of from that hash.
 */
export function stampOf(user: User): string {
  return user.stamp ?? sha256Hex(user.passwordHash).slice(0, 32);
}

function configStamp(email: string, password: string): string {
  return sha256Hex(scryptSync(password, `mailroom session stamp ${email}`, 32).toString("hex")).slice(0, 32);
}

/**
 * The dashboard's users: those of the config file (read-only, kept in memory, winning on a name
 * clash) and those created in the dashboard or with `mailroom user add` (stored). E-mail addresses
 * are compared in lower case. Passwords are hashed with argon2id; only hashes are kept.
 */
export function createUsers(deps: { store: UserStore; config: Config; clock: Clock }) {
  const { store, clock } = deps;
  const configured = new Map<string, User>();
  for (const u of deps.config.users) {
    const email = u.email.toLowerCase();
    const passwordHash = u.password_hash ?? Bun.password.hashSync(u.password!, { algorithm: "argon2id" });
    const stamp = u.password_hash ? undefined : configStamp(email, u.password!);
    configured.set(email, {
      email,
      role: u.role,
      passwordHash,
      source: "config",
      createdAt: 0,
      ...(stamp ? { stamp } : {}),
      ...(u.channels ? { channels: [...u.channels] } : {}),
    });
  }

  const fromRow = (r: UserRow): User => ({
    email: r.email,
    role: r.role,
    passwordHash: r.passwordHash,
    source: "dashboard",
    createdAt: r.createdAt,
    ...(r.channels ? { channels: JSON.parse(r.channels) as string[] } : {}),
  });

  async function stored(email: string): Promise<User | undefined> {
    const row = await store.getUser(email);
    return row && fromRow(row);
  }

  /** The user of this e-mail address (any case): the config file's first, then the stored one. */
  async function find(email: string): Promise<User | undefined> {
    const key = email.toLowerCase();
    return configured.get(key) ?? (await stored(key));
  }

  function checkPassword(password: string): void {
    if (password.length < MIN_PASSWORD) throw invalid(`password: must have at least ${MIN_PASSWORD} characters`);
  }

  /** Throws failed_precondition for a user of the config file, not_found for an unknown one. */
  async function requireStored(key: string): Promise<void> {
    if (configured.has(key)) throw new AppError("failed_precondition", `user "${key}" is declared in the config file`);
    if (!(await stored(key))) throw notFound(`user "${key}" not found`);
  }

  return {
    find,
    async count(): Promise<number> {
      return configured.size + (await store.countUsers());
    },
    async list(): Promise<User[]> {
      const all = [...configured.values()];
      for (const r of await store.listUsers()) if (!configured.has(r.email)) all.push(fromRow(r));
      return all.sort((a, b) => a.email.localeCompare(b.email));
    },
    /**
     * Throws invalid_argument for a bad e-mail or a short password, failed_precondition when the
     * e-mail is taken. `insert` stores the row instead of the store's insertUser (the setup link's).
     */
    async add(email: string, role: Role, password: string, insert = store.insertUser, channels?: readonly string[]): Promise<User> {
      if (channels && role === "admin") throw invalid("channels: only a member can be limited to channels (an admin manages every one)");
      if (!new RegExp(EMAIL_PATTERN).test(email) || email.length > 254) throw invalid("email: must be an e-mail address");
      checkPassword(password);
      const key = email.toLowerCase();
      const taken = () => new AppError("failed_precondition", `user "${key}" exists already`);
      if (await find(key)) throw taken();
      const passwordHash = await Bun.password.hash(password, { algorithm: "argon2id" });
      // Another request may have added the same address while the hash was computed.
      if (!(await insert({ email: key, role, passwordHash, createdAt: clock.now(), channels: channels ? JSON.stringify(channels) : null }))) throw taken();
      return (await find(key))!;
    },
    /**
     * Limits a stored member to `channels` (glob patterns), or lifts the limit (null): their next
     * request sees only those channels. Throws for an unknown or configured user, invalid_argument for an admin.
     */
    async setChannels(email: string, channels: readonly string[] | null): Promise<User> {
      const key = email.toLowerCase();
      await requireStored(key);
      if (channels && (await stored(key))?.role === "admin") throw invalid("channels: only a member can be limited to channels (an admin manages every one)");
      if (!(await store.setChannels(key, channels ? JSON.stringify(channels) : null))) throw notFound(`user "${key}" not found`);
      return (await find(key))!;
    },
    /** Removes a stored user and ends their sessions; throws for an unknown or configured one. */
    async remove(email: string): Promise<void> {
      const key = email.toLowerCase();
      await requireStored(key);
      if (!(await store.deleteUser(key))) throw notFound(`user "${key}" not found`);
    },
    /** Sets a stored user's password; their sessions end (their stamp no longer matches). */
    async setPassword(email: string, password: string): Promise<void> {
      checkPassword(password);
      const key = email.toLowerCase();
      await requireStored(key);
      const passwordHash = await Bun.password.hash(password, { algorithm: "argon2id" });
      if (!(await store.setPasswordHash(key, passwordHash))) throw notFound(`user "${key}" not found`);
    },
    /** The user whose password this is, or undefined; takes as long for an unknown e-mail. */
    async verify(email: string, password: string): Promise<User | undefined> {
      const user = await find(email);
      const ok = await Bun.password.verify(password, user?.passwordHash ?? (await dummyHash())).catch(() => false);
      return ok && user ? user : undefined;
    },
  };
}

export type Users = ReturnType<typeof createUsers>;

export function toWireUser(u: User): UserWire {
  return {
    email: u.email,
    role: u.role,
    read_only: u.source === "config",
    created_at: u.source === "config" ? null : new Date(u.createdAt).toISOString(),
    ...(u.channels ? { channels: u.channels } : {}),
  };
}
