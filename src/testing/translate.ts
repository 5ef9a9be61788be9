import { jsonCaller, query, TranslateApiError } from "./http";
import type {
  Account,
  CalculateRequest,
  CreatedAccount,
  Ledger,
  OrderA,
  OrderB,
  OrderStatus,
  OrderSummary,
  PlacedOrdersA,
  PlacedOrdersB,
  Price,
  Rate,
  TranslateErrorBody,
  TranslateRequestA,
  TranslateRequestB,
} from "./types";

const fail = (status: number, body: unknown, headers: Headers, method: string, path: string) =>
  new TranslateApiError(status, body as TranslateErrorBody, headers, method, path);
const caller = (url: string, key: string) => jsonCaller(url, `Bearer ${key}`, fail);
type Paging = { page?: number; per_page?: number };

/** Revision A's customer API under /v1. Methods throw TranslateApiError for an error answer. */
export function revisionA(url: string, key: string) {
  const call = caller(`${url}/v1`, key);
  return {
    account: () => call<Account>("GET", "/account"),
    translate: (body: TranslateRequestA) => call<PlacedOrdersA>("POST", "/translate", body),
    calculate: (body: CalculateRequest) => call<Price[]>("POST", "/calculate", body),
    orders: (q: Paging & { sort?: "asc" | "desc" } = {}) => call<OrderSummary[]>("GET", `/orders${query(q)}`),
    order: (id: number) => call<OrderA>("GET", `/orders/${id}`),
    deleteOrder: (id: number) => call<void>("DELETE", `/orders/${id}`),
    rates: () => call<Rate[]>("GET", "/rates"),
  };
}

/** Revision B's customer API under /api/v1. */
export function revisionB(url: string, key: string) {
  const call = caller(`${url}/api/v1`, key);
  return {
    account: () => call<Account>("GET", "/account"),
    translate: (body: TranslateRequestB) => call<PlacedOrdersB>("POST", "/translate", body),
    orders: (q: Paging = {}) => call<OrderSummary[]>("GET", `/orders${query(q)}`),
    order: (id: number) => call<OrderB>("GET", `/orders/${id}`),
    deleteOrder: (id: number) => call<void>("DELETE", `/orders/${id}`),
    rates: () => call<Rate[]>("GET", "/rates"),
  };
}

/** The translators' API under /translator/v1. */
export function translatorClient(url: string, key: string) {
  const call = caller(`${url}/translator/v1`, key);
  return {
    orders: (q: Paging & { status?: OrderStatus } = {}) => call<OrderSummary[]>("GET", `/orders${query(q)}`),
    order: (id: number) => call<OrderA>("GET", `/orders/${id}`),
    accept: (id: number) => call<OrderA>("POST", `/orders/${id}/accept`),
    complete: (id: number, targetText: string) => call<OrderA>("POST", `/orders/${id}/complete`, { target_text: targetText }),
    comment: (id: number, text: string, attachments?: { type: string; data: string }[]) =>
      call<OrderA>("POST", `/orders/${id}/comments`, attachments ? { text, attachments } : { text }),
  };
}

/** The administrators' API under /admin/v1, with the helper's own admin key. */
export function adminClient(url: string, key: string) {
  const call = caller(`${url}/admin/v1`, key);
  return {
    accounts: () => call<Account[]>("GET", "/accounts"),
    createAccount: (body: { balance?: number; overdraft?: boolean } = {}) => call<CreatedAccount>("POST", "/accounts", body),
    account: (id: number) => call<Account>("GET", `/accounts/${id}`),
    ledger: (id: number) => call<Ledger>("GET", `/accounts/${id}/ledger`),
    topUp: (id: number, amount: number) => call<Account>("POST", `/accounts/${id}/top-up`, { amount }),
    setBalance: (id: number, balance: number) => call<Account>("PUT", `/accounts/${id}/balance`, { balance }),
    setOverdraft: (id: number, allowed: boolean) => call<Account>("PUT", `/accounts/${id}/overdraft`, { allowed }),
    order: (id: number) => call<OrderA>("GET", `/orders/${id}`),
    reopen: (id: number, comment?: string) => call<OrderA>("POST", `/orders/${id}/reopen`, comment === undefined ? {} : { comment }),
    completeNow: () => call<{ completed: number[] }>("POST", "/simulator/complete-now"),
  };
}

export type TestAccount = Account & {
  /** The account's own API key (Basic username or Bearer token). */
  apiKey: string;
  /** Revision A (/v1) as this account. */
  a: ReturnType<typeof revisionA>;
  /** Revision B (/api/v1) as this account. */
  b: ReturnType<typeof revisionB>;
};

/** Polls this often in waitForOrder: orders have no live stream. */
const ORDER_POLL_MS = 20;

/** `mr.translate`: accounts per test, clients per API, the simulator. */
export function translateHelper(url: string, adminKey: string, translatorKey: string) {
  const admin = adminClient(url, adminKey);
  return {
    /** A fresh account with its own key and balance (default 0), through POST /admin/v1/accounts. */
    async account(opts: { balance?: number; overdraft?: boolean } = {}): Promise<TestAccount> {
      const { api_key, ...account } = await admin.createAccount(opts);
      return { ...account, apiKey: api_key, a: revisionA(url, api_key), b: revisionB(url, api_key) };
    },
    /** Revision A with any key (e.g. one from your config). */
    a: (key: string) => revisionA(url, key),
    /** Revision B with any key. */
    b: (key: string) => revisionB(url, key),
    /** The translator API as the helper's translator ("Testing translator"), or with another translator's key. */
    translator: Object.assign(translatorClient(url, translatorKey), { as: (key: string) => translatorClient(url, key) }),
    admin,
    simulator: {
      /** The simulated translator accepts and completes every open order now; resolves with their ids. */
      completeNow: async () => (await admin.completeNow()).completed,
    },
    /**
     * Resolves with the order once it has `status` (read through the admin API); rejects after
     * `timeout` ms (default 10 s) saying which status it still has.
     */
    async waitForOrder(id: number, status: OrderStatus, opts: { timeout?: number } = {}): Promise<OrderA> {
      const deadline = Date.now() + (opts.timeout ?? 10_000);
      for (;;) {
        const order = await admin.order(id);
        if (order.status === status) return order;
        if (Date.now() >= deadline) {
          throw new Error(`waitForOrder: order ${id} is still ${order.status} after ${opts.timeout ?? 10_000} ms, not ${status}`);
        }
        await new Promise((r) => setTimeout(r, ORDER_POLL_MS));
      }
    },
  };
}

export type TranslateHelper = ReturnType<typeof translateHelper>;
