import { AppError } from "../lib/errors";
import { constantTimeEqual, randomToken, sha256Hex } from "../lib/secrets";
import type { User, Users } from "./users";

/**
 * The first admin: while there is no user, start-up prints a one-time setup link holding a random
 * token (in the URL's fragment, so it is never sent in a request line or a Referer). Whoever opens
 * it creates the first admin; the token then stops working.
 */
export function createSetup(users: Users) {
  let token: string | undefined;
  return {
    /** The token to print (made on the first call), while setup is still needed; start-up asks once. */
    async token(): Promise<string | undefined> {
      return (await users.count()) === 0 ? (token ??= randomToken("setup_")) : undefined;
    },
    needed: async (): Promise<boolean> => (await users.count()) === 0,
    /** Throws failed_precondition once a user exists, unauthenticated for a wrong token. */
    async complete(given: string, email: string, password: string): Promise<User> {
      if (!token || (await users.count()) > 0) throw new AppError("failed_precondition", "the first admin exists already: sign in");
      if (!constantTimeEqual(sha256Hex(given), sha256Hex(token)))
        throw new AppError("unauthenticated", "invalid setup token: use the link printed at start-up");
      const user = await users.add(email, "admin", password);
      token = undefined;
      return user;
    },
  };
}

export type Setup = ReturnType<typeof createSetup>;
