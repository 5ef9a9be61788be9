import { createTestApp } from "../helpers/app";
import { startTarget, type Reply } from "../helpers/target";

export const CUSTOMER = "customer-key-1";
export const CUSTOMER_2 = "customer-key-2";
export const TRANSLATOR = "translator-key-1";
export const TRANSLATOR_2 = "translator-key-2";
export const ADMIN = "admin-key-1";

/** A PNG of 1x2 pixels as base64: the header of one, which is all the image reader looks at. */
export const PNG_1x2 = (() => {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, 1);
  new DataView(b.buffer).setUint32(20, 2);
  return Buffer.from(b).toString("base64");
})();

/** Basic auth as the spec shows it: base64("<key>:"). */
export const basic = (key: string) => ({ authorization: `Basic ${btoa(`${key}:`)}` });
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The issue's example config, with overrides merged into [translate]. */
export function translateConfig(overrides: Record<string, unknown> = {}) {
  return {
    maintenance: false,
    accounts: [
      { id: 1, balance: 100, overdraft: false, api_keys: [CUSTOMER] },
      { id: 2, balance: 5, overdraft: true, api_keys: [CUSTOMER_2] },
    ],
    rates: { default: 20.0, pairs: [{ source: "en", target: "is", rate: 25.0 }] },
    translators: [
      { name: "Ana", api_key: TRANSLATOR },
      { name: "Bo", api_key: TRANSLATOR_2 },
    ],
    admins: [{ api_key: ADMIN }],
    ...overrides,
  };
}

type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Reply>;

/** Calls of each translation role, and the money checks, over any app's JSON call. */
function translateHelpers(call: Call) {
  const as = (key: string) => (method: string, path: string, body?: unknown) => call(method, path, body, basic(key));
  return {
    customer: as(CUSTOMER),
    customer2: as(CUSTOMER_2),
    translator: as(TRANSLATOR),
    translator2: as(TRANSLATOR_2),
    admin: as(ADMIN),
    /** Balance and reserved of an account, in dollars, through the customer API. */
    async money(key = CUSTOMER) {
      const { json } = await call("GET", "/v1/account", undefined, basic(key));
      return { balance: json.balance as number, reserved: json.reserved as number };
    },
    /** The admin API's audit: balance and reserved equal the ledger and the unpaid orders. */
    async consistent(accountId = 1) {
      const { json } = await call("GET", `/admin/v1/accounts/${accountId}/ledger`, undefined, basic(ADMIN));
      return json.consistent as boolean;
    },
  };
}

/** A Mailroom with the translation service configured, in process with a fake clock, and helpers per API. */
export function createTranslateApp(overrides: Record<string, unknown> = {}) {
  const app = createTestApp({ translate: translateConfig(overrides) });
  return { ...app, ...translateHelpers(app.call) };
}

export type TranslateApp = ReturnType<typeof createTranslateApp>;

/**
 * The same helpers on the target chosen by MAILROOM_TEST_TARGET (test/helpers/target.ts): the
 * in-process app or the executable, with the real clock. Tests that move the clock use
 * createTranslateApp instead.
 */
export async function startTranslate(overrides: Record<string, unknown> = {}) {
  const app = await startTarget({ translate: translateConfig(overrides) });
  return { ...app, ...translateHelpers(app.call) };
}
