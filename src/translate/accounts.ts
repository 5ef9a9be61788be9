import type { Clock } from "../lib/clock";
import { randomToken, sha256Hex } from "../lib/secrets";
import { notFound } from "../lib/errors";
import { bad } from "./errors";
import { toCents, wholeCents } from "./money";
import type { AccountRow, TranslateStore } from "./contract";

/** An account as [[translate.accounts]] opens it. */
export type Opening = { id: number; balance: number; overdraft: boolean };

/** Administrators' money operations; every change is a ledger entry. */
export function createAccountService({ store, clock, opening }: { store: TranslateStore; clock: Clock; opening: readonly Opening[] }) {
  /** In transaction: the configured accounts that do not exist yet, with their opening balance. */
  const seed = async () => {
    for (const a of opening) await store.seedAccount(a.id, toCents(a.balance), a.overdraft, clock.now());
  };
  const cents = (field: string, dollars: number) => {
    if (!wholeCents(dollars)) throw bad("INVALID_AMOUNT", `${field}: use at most two decimals`, { field });
    return toCents(dollars);
  };
  /** Throws NOT_FOUND. In a transaction, `forUpdate` holds the account until the commit. */
  const find = async (id: number, forUpdate = false): Promise<AccountRow> => {
    const account = await (forUpdate ? store.accountForUpdate(id) : store.account(id));
    if (!account) throw notFound(`account ${id} not found`);
    return account;
  };

  return {
    /** The account; throws NOT_FOUND. */
    find: (id: number) => find(id),
    list: () => store.accounts(),
    /** Creates the configured accounts the database does not hold yet (at start). */
    seed: () => store.transaction(seed),

    /**
     * Back to a first start with this config, in one transaction: every order, comment and ledger
     * entry deleted (ids start again from 1), accounts as configured (opening balance and overdraft),
     * accounts no longer configured gone. Returns the accounts.
     */
    reset(): Promise<AccountRow[]> {
      return store.transaction(async () => {
        await store.clear();
        await seed();
        return store.accounts();
      });
    },

    /** A new account with its opening balance and a new API key, returned once (only its hash is kept). Throws INVALID_AMOUNT. */
    async create(balance: number, overdraft: boolean, admin: string): Promise<{ account: AccountRow; apiKey: string }> {
      const opening = cents("balance", balance);
      // An account without overdraft is never below zero: it could not have got there.
      if (opening < 0 && !overdraft) throw bad("INVALID_AMOUNT", "balance: must not be negative unless overdraft is true", { field: "balance" });
      const apiKey = randomToken("tk_");
      const account = await store.transaction(() => store.createAccount(opening, overdraft, sha256Hex(apiKey), `admin:${admin}`, clock.now()));
      return { account, apiKey };
    },

    /** Throws INVALID_AMOUNT or NOT_FOUND. */
    async topUp(id: number, amount: number, admin: string): Promise<AccountRow> {
      const add = cents("amount", amount);
      return store.transaction(async () => {
        await find(id, true);
        return store.move(id, { entry: "top_up", balance: add, reserved: 0, actor: `admin:${admin}`, now: clock.now() });
      });
    },

    /** Throws INVALID_AMOUNT or NOT_FOUND. */
    async setBalance(id: number, balance: number, admin: string): Promise<AccountRow> {
      const target = cents("balance", balance);
      return store.transaction(async () => {
        const account = await find(id, true);
        return store.move(id, { entry: "set_balance", balance: target - account.balance, reserved: 0, actor: `admin:${admin}`, now: clock.now() });
      });
    },

    /** Throws NOT_FOUND. */
    setOverdraft(id: number, allowed: boolean): Promise<AccountRow> {
      return store.transaction(async () => {
        await find(id, true);
        return (await store.setOverdraft(id, allowed))!;
      });
    },

    /**
     * Checks that the account equals its history: balance and reserved are the sums of the
     * ledger, and reserved is the price of its orders not yet paid. The reads run in one
     * transaction, so they see one state of the account, never half of another's change.
     * Throws NOT_FOUND.
     */
    audit(id: number) {
      return store.transaction(async () => {
        const account = await find(id);
        const entries = await store.ledger(id);
        const sum = (f: (e: (typeof entries)[number]) => number) => entries.reduce((a, e) => a + f(e), 0);
        const unpaid = await store.unpaidTotal(id);
        const ledgerBalance = sum((e) => e.balanceDelta);
        const ledgerReserved = sum((e) => e.reservedDelta);
        return {
          consistent: ledgerBalance === account.balance && ledgerReserved === account.reserved && unpaid === account.reserved,
          account,
          entries,
          ledgerBalance,
          ledgerReserved,
          unpaid,
        };
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
