import { AppError } from "../lib/errors";
import type { Clock } from "../lib/clock";
import { constantTimeEqual, randomToken, sha256Hex } from "../lib/secrets";
import type { SettingStore, UserStore } from "./store";
import type { User, Users } from "./users";

/** How long a setup link stays valid (across restarts) unless used first. */
export const SETUP_TTL_MS = 24 * 60 * 60 * 1000;

/** What the database keeps of the pending link: its token's hash, never the token. */
type Pending = { sha256: string; expires_at: number };

/** The link start-up prints: the token when this process has it, else only until when the pending one is valid. */
export type SetupLink = { token?: string; expiresAt: number };

const ADD_USER = "or run `mailroom user add EMAIL --role admin`";

const voidLink = () =>
  new AppError("unauthenticated", `this setup link is void (used, replaced by a newer one, or incomplete): use the last link Mailroom printed, ${ADD_USER}`);

/**
 * The first admin: while there is no user, start-up prints a one-time setup link holding a random
 * token (in the URL's fragment, so it is never sent in a request line or a Referer). Whoever opens
 * it creates the first admin; the token then stops working. The token's hash and its expiry are
 * in the database, so the link printed stays valid across restarts (and on every instance sharing
 * a PostgreSQL database) until it is used or expires; the token itself is kept in the credentials
 * file beside the data file, readable by its owner only, so a restart prints the same link.
 */
export function createSetup(deps: { users: Users; store: SettingStore & Pick<UserStore, "insertFirstUser">; clock: Clock }) {
  const { users, store, clock } = deps;
  const pending = async () => (await store.readSetting<Pending | null>("setup")) ?? undefined;

  /** The pending link of this token; throws failed_precondition once a user exists, unauthenticated for a void link. */
  async function check(given: string): Promise<Pending> {
    if ((await users.count()) > 0) throw new AppError("failed_precondition", "the first admin exists already: sign in");
    const stored = await pending();
    if (!stored || !constantTimeEqual(sha256Hex(given), stored.sha256)) throw voidLink();
    if (stored.expires_at <= clock.now())
      throw new AppError(
        "unauthenticated",
        `this setup link expired at ${new Date(stored.expires_at).toISOString()}: restart Mailroom for a new one, ${ADD_USER}`,
      );
    return stored;
  }

  return {
    /**
     * At start-up, while no user exists: the link to print. `saved` is the token this data file's
     * credentials file holds; it is printed again while it is the pending one. Without it a new
     * link replaces the pending one, unless `shared` (PostgreSQL: another instance may have printed
     * it, and replacing it would void a link someone holds), where only its expiry is returned.
     */
    async issue(opts: { saved?: string; shared?: boolean } = {}): Promise<SetupLink | undefined> {
      if ((await users.count()) > 0) return undefined;
      const stored = await pending();
      if (stored && stored.expires_at > clock.now()) {
        if (opts.saved && constantTimeEqual(sha256Hex(opts.saved), stored.sha256)) return { token: opts.saved, expiresAt: stored.expires_at };
        if (opts.shared) return { expiresAt: stored.expires_at };
      }
      const token = randomToken("setup_");
      const expiresAt = clock.now() + SETUP_TTL_MS;
      await store.writeSetting("setup", { sha256: sha256Hex(token), expires_at: expiresAt } satisfies Pending);
      return { token, expiresAt };
    },
    needed: async (): Promise<boolean> => (await users.count()) === 0,
    /** Whether the link can still create the first admin: throws as complete() would. */
    check: async (given: string): Promise<void> => void (await check(given)),
    /** Throws failed_precondition once a user exists, unauthenticated for a void or expired link. */
    async complete(given: string, email: string, password: string): Promise<User> {
      const stored = await check(given);
      // The user is added and the link taken in one transaction: of two racing with one link
      // (two tabs, two instances), one becomes the admin and the other is told the link is void.
      return users.add(email, "admin", password, async (row) => {
        const outcome = await store.insertFirstUser(row, stored);
        if (outcome === "void") throw voidLink();
        return outcome === "added";
      });
    },
  };
}

export type Setup = ReturnType<typeof createSetup>;

/** What start-up prints about the setup link (`base`: where the dashboard is reached). */
export function setupLines(link: SetupLink, base: string): string[] {
  const until = new Date(link.expiresAt).toISOString();
  if (!link.token) {
    return [
      "",
      `  No dashboard user exists yet. A one-time setup link printed by another instance is valid until ${until};`,
      "  or run: mailroom user add EMAIL --role admin",
      "",
    ];
  }
  return [
    "",
    "  No dashboard user exists yet. Create the first admin with this one-time link",
    `  (valid until ${until}, across restarts, until used):`,
    `    ${base}/ui/setup#${link.token}`,
    "  (or run: mailroom user add EMAIL --role admin)",
    "",
  ];
}
