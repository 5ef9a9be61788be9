import { Elysia } from "elysia";
import type { Config } from "../config/schema";
import { ConfigError } from "../config/load";
import { translateProblems } from "./config-checks";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import type { Worker } from "../lib/worker";
import { createAccountService } from "./accounts";
import { createKeyring } from "./auth";
import { createErrorResponse } from "./errors";
import { apiOf, createGate } from "./gate";
import { createFaults } from "./faults";
import { createOrderService } from "./orders";
import { createRates } from "./rates";
import { adminRoutes } from "./routes/admin";
import { customerRoutes } from "./routes/customer";
import { translatorRoutes } from "./routes/translator";
import { createSimulator } from "./simulator";
import type { TranslateStore } from "./contract";
import { createWorkService } from "./work";

export type TranslateServices = {
  accounts: ReturnType<typeof createAccountService>;
  orders: ReturnType<typeof createOrderService>;
  work: ReturnType<typeof createWorkService>;
  /** [translate] as running: `maintenance` may be switched while serving (the gate reads it on each request). */
  config: TranslateDeps["config"]["translate"];
};

export type TranslateDeps = { config: Config; store: TranslateStore; clock: Clock; log: Log };

/**
 * The translation ordering service: revision A under /v1, revision B under /api/v1, the
 * translator API, the admin API, its error mapping and its simulator worker.
 * Throws ConfigError when [translate] is inconsistent (duplicate keys, unknown languages).
 * Reads nothing from storage until `init()`, which start-up awaits before serving.
 *
 * request -> gate (503, 406, 413, 401, 403, 429) -> route -> service -> store (one transaction,
 * ledger entry per money move) -> wire model
 */
export function createTranslate({ config, store, clock, log }: TranslateDeps) {
  const c = config.translate;
  const problems = translateProblems(c);
  if (problems.length > 0) throw new ConfigError(problems);

  // The one place the translation service meets a driver: everything below sees the contract.
  const accounts = createAccountService({ store, clock, opening: c.accounts });
  const rates = createRates(c.rates);
  const gate = createGate({ config: c, keyring: createKeyring(c, store.accountOfKey), clock });
  const orders = createOrderService({ store, rates, clock });
  const work = createWorkService({ store, clock });
  const faults = createFaults({ config: c });
  const simulator = createSimulator({ config: c.simulator, store, work, log });
  const deps = { gate, orders, work, accounts, rates, faults, simulator, clock };

  const routes = new Elysia({ normalize: false })
    .onRequest(async ({ request, server }) => {
      const path = pathOf(request.url);
      const api = apiOf(path);
      if (!api) return;
      await gate.check(request, api, path, server?.requestIP(request)?.address ?? "");
      // Faults (translate/faults.ts) answer before any route runs: a faulted request changes nothing.
      if (api === "A" || api === "B") return faults.apply(request.method, api, path);
    })
    .use(customerRoutes("A", deps))
    .use(customerRoutes("B", deps))
    .use(translatorRoutes(deps))
    .use(adminRoutes(deps));

  return {
    /**
     * Start-up's storage work: creates the configured accounts the database does not hold yet,
     * with their opening balance, in one transaction. Await it once before serving; it is safe to
     * run again (existing accounts are left as they are). Rejects when storage fails.
     */
    init: (): Promise<void> => accounts.seed(),
    routes,
    /** The services themselves, for the dashboard (which calls them without an API key) and its maintenance switch. */
    services: { accounts, orders, work, config: c } as TranslateServices,
    /** The simulated translator, or null when [translate.simulator] is off. */
    worker: (c.simulator.enabled ? simulator : null) as Worker | null,
    /** Whether errors on this path are answered in the translation API's format. */
    isTranslatePath: (path: string) => apiOf(path) !== undefined,
    /** Maps any error on a translation path to its wire response. */
    errorResponse: createErrorResponse(log),
    /** For tests and the admin API: the account equals its ledger and its unpaid orders. */
    audit: (accountId: number) => accounts.audit(accountId),
  };
}

/** The path of a request URL without building a URL object (this runs for every request). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const end = url.search(/[?#]/);
  return url.slice(start, end < 0 ? undefined : end);
}
