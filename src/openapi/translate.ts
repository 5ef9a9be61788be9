import { t } from "elysia";
import { apiOf, type Api } from "../translate/gate";
import { CODES_400, STATUS } from "../translate/errors";
import { CalculateA, CommentBody, CompleteBody, TranslateA, TranslateB } from "../translate/model";
import { ID_PATTERN } from "../translate/routes/common";
import type { DocumentDef, ErrorStatus, Operation } from "./generate";
import * as m from "./translate-models";
import { FaultsBody } from "../translate/routes/faults";
import { FaultRule } from "../config/faults";

/** What GET, PUT and DELETE /admin/v1/faults answer: the rules with how often each fired and, with a count, what is left. */
const FaultsView = t.Object(
  {
    faults: t.Array(
      t.Composite([FaultRule, t.Object({ remaining: t.Optional(t.Integer({ minimum: 0 })), fired: t.Integer({ minimum: 0 }) })], {
        additionalProperties: false,
      }),
    ),
  },
  { additionalProperties: false },
);

const WHEN: Record<number, [string, Record<string, string>?]> = {
  400: ["Bad request; `code` says which rule (INVALID_REQUEST names the field in `parameters.field`)."],
  401: ["Missing or invalid API key.", { "WWW-Authenticate": 'Basic realm="translate"' }],
  403: ["The key belongs to another role (customer, translator, administrator)."],
  404: ["The resource does not exist (or is not this account's)."],
  405: ["Invalid method for the resource.", { Allow: "the methods the path has" }],
  406: ["A format other than JSON was requested in Accept."],
  413: ["The body is larger than the configured limit ([translate] max_body, 30 MB by default)."],
  429: ["Too many requests for this key.", { "Retry-After": "seconds to wait" }],
  500: ["Internal error; try again later. The description carries only a request id."],
  503: ["Temporary maintenance (not for administrators).", { "Retry-After": "seconds to wait" }],
};

function errorStatuses(): Record<number, ErrorStatus> {
  const codes = new Map<number, Set<string>>();
  for (const [status, code] of Object.values(STATUS)) (codes.get(status) ?? codes.set(status, new Set()).get(status)!).add(code);
  for (const code of Object.keys(CODES_400)) codes.get(400)!.add(code);
  const out: Record<number, ErrorStatus> = {};
  for (const [status, set] of codes) {
    const [description, headers] = WHEN[status] ?? [`HTTP ${status}`];
    const list = [...set];
    const code = list.length === 1 ? { const: list[0] } : { enum: list };
    out[status] = { description, headers, schema: { $ref: "#/components/schemas/Error", type: "object", properties: { code } } };
  }
  return out;
}

// Ids in paths are read as the routes read them (routes/common.ts): any other text is an unknown
// resource, 404, not a bad request.
const idParam = (what: string) =>
  t.String({ pattern: ID_PATTERN, description: `${what} id, a positive integer in decimal; anything else (0, -1, 01, abc) answers 404` });
const OrderId = idParam("order");
const AccountId = idParam("account");
const ok = (schema: unknown, description = "OK") => ({ status: 200, description, schema });

const customer = (revision: "A" | "B"): Record<string, Operation> => {
  const base = revision === "A" ? "/v1" : "/api/v1";
  const order = revision === "A" ? m.OrderA : m.OrderB;
  const ops: Record<string, Operation> = {
    [`GET ${base}/account`]: { operationId: "getAccount", summary: "Get the account", success: ok(m.Account) },
    [`GET ${base}/orders`]: {
      operationId: "listOrders",
      summary: "List the account's orders",
      description:
        revision === "A" ? "Newest first unless `sort=asc`; `page` from 0, `per_page` default 20." : "Newest first; `page` from 0, `per_page` default 20.",
      success: ok(t.Array(m.OrderSummary)),
    },
    [`GET ${base}/orders/:id`]: { operationId: "getOrder", summary: "Get one order", params: { id: OrderId }, errors: [404], success: ok(order) },
    [`DELETE ${base}/orders/:id`]: {
      operationId: "deleteOrder",
      summary: "Delete an order",
      description: "Only while it is in QUEUE; otherwise 400 WRONG_ORDER_STATUS. Its reserved price returns to the balance.",
      params: { id: OrderId },
      errors: [400, 404],
      success: { status: 204, description: "Deleted; no body." },
    },
    [`POST ${base}/translate`]: {
      operationId: "translate",
      summary: "Create orders",
      description:
        revision === "A"
          ? "One order per target language, each in QUEUE. `resource` is required (`text` is deprecated)."
          : "One order per target language, each in QUEUE. Give exactly one of `text` and `resource`.",
      success: ok(revision === "A" ? m.PlacedOrders : m.PlacedOrdersB),
    },
    [`GET ${base}/rates`]: {
      operationId: "listRates",
      summary: "List all rates",
      description: "Needs no key; a key that is sent must be valid (any role may read).",
      security: "optional",
      notErrors: [403],
      success: ok(t.Array(m.Rate)),
    },
  };
  if (revision === "A") {
    ops["POST /v1/calculate"] = { operationId: "calculate", summary: "Get the price without ordering", success: ok(t.Array(m.Price)) };
  }
  return ops;
};

const translator: Record<string, Operation> = {
  "GET /translator/v1/orders": {
    operationId: "listWork",
    summary: "List open orders and this translator's own",
    description: "Oldest first; `status` filters.",
    success: ok(t.Array(m.OrderA)),
  },
  "GET /translator/v1/orders/:id": { operationId: "getWork", summary: "Get an order", params: { id: OrderId }, errors: [404], success: ok(m.OrderA) },
  "POST /translator/v1/orders/:id/accept": {
    operationId: "acceptOrder",
    summary: "Accept a queued order",
    params: { id: OrderId },
    errors: [400, 404],
    success: ok(m.OrderA),
  },
  "POST /translator/v1/orders/:id/complete": {
    operationId: "completeOrder",
    summary: "Complete an accepted order with its translation",
    params: { id: OrderId },
    errors: [404],
    success: ok(m.OrderA),
  },
  "POST /translator/v1/orders/:id/comments": {
    operationId: "commentOrder",
    summary: "Comment on an order",
    params: { id: OrderId },
    errors: [404],
    success: ok(m.OrderA),
  },
};

const admin: Record<string, Operation> = {
  "GET /admin/v1/accounts": { operationId: "listAccounts", summary: "List accounts", success: ok(t.Array(m.Account)) },
  "POST /admin/v1/accounts": {
    operationId: "createAccount",
    summary: "Create an account with its own API key",
    description:
      "Not in the vendor's API: for test suites (one account per test). The account gets the next free id, the opening " +
      "balance given (default 0) and a new API key, answered once; only the key's hash is stored, and the key works " +
      "on revisions A and B like a configured one.",
    errors: [400],
    success: { status: 201, description: "Created", schema: m.CreatedAccount },
  },
  "POST /admin/v1/simulator/complete-now": {
    operationId: "simulatorCompleteNow",
    summary: "Let the simulator finish every open order now",
    description:
      "Not in the vendor's API: for test suites. The simulated translator accepts every QUEUE and REVISION order and " +
      "completes every order it holds, now, whether or not [translate.simulator] is enabled and whatever its timers say. " +
      "Orders held by other translators are left alone.",
    success: ok(m.CompletedNow),
  },
  "GET /admin/v1/accounts/:id": { operationId: "getAccount", summary: "Get an account", params: { id: AccountId }, errors: [404], success: ok(m.Account) },
  "GET /admin/v1/accounts/:id/ledger": {
    operationId: "getLedger",
    summary: "An account's ledger and audit",
    params: { id: AccountId },
    errors: [404],
    success: ok(m.Ledger),
  },
  "POST /admin/v1/accounts/:id/top-up": {
    operationId: "topUp",
    summary: "Add to the balance",
    params: { id: AccountId },
    errors: [404],
    success: ok(m.Account),
  },
  "PUT /admin/v1/accounts/:id/balance": {
    operationId: "setBalance",
    summary: "Set the balance",
    params: { id: AccountId },
    errors: [404],
    success: ok(m.Account),
  },
  "PUT /admin/v1/accounts/:id/overdraft": {
    operationId: "setOverdraft",
    summary: "Allow or forbid overdraft",
    params: { id: AccountId },
    errors: [404],
    success: ok(m.Account),
  },
  "POST /admin/v1/reset": {
    operationId: "reset",
    summary: "Start again from the configured accounts",
    description:
      "Mailroom's extension, for test suites and the worked example: deletes every order, comment and ledger entry " +
      "(order ids start again from 1), sets each account of [[translate.accounts]] back to its configured opening " +
      "balance and overdraft, and removes accounts the config no longer has. Answers the accounts. No body.",
    success: ok(t.Array(m.Account)),
  },
  "GET /admin/v1/orders/:id": { operationId: "getOrder", summary: "Get any order", params: { id: OrderId }, errors: [404], success: ok(m.OrderA) },
  "POST /admin/v1/orders/:id/reopen": {
    operationId: "reopenOrder",
    summary: "Reopen a DONE order for revision",
    description: "The optional comment is added for the translator.",
    params: { id: OrderId },
    errors: [400, 404],
    success: ok(m.OrderA),
  },
  "GET /admin/v1/faults": {
    operationId: "getFaults",
    summary: "List the fault rules",
    description: "Mailroom's extension: the rules that make revisions A and B answer late or with errors, with how often each fired.",
    success: ok(FaultsView),
  },
  "PUT /admin/v1/faults": {
    operationId: "setFaults",
    summary: "Replace the fault rules",
    description:
      "Mailroom's extension: latency and 429 (with Retry-After), 500 or 503 answers, per revision and route, for the next `count` requests or a `rate` " +
      "of them (deterministic with a `seed`). A faulted request changes nothing. Kept until Mailroom restarts (then the config file's rules apply).",
    body: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/FaultsRequest" } } } },
    errors: [400],
    success: ok(FaultsView),
  },
  "DELETE /admin/v1/faults": { operationId: "clearFaults", summary: "Remove every fault rule", description: "Mailroom's extension.", success: ok(FaultsView) },
};

const basic = {
  type: "http",
  scheme: "basic",
  description: "The API key is the user name and the password is blank: `Authorization: Basic base64(<key>:)`.",
};
const bearer = { type: "http", scheme: "bearer", description: "The same API key as a bearer token." };

function translateDocument(
  api: Api,
  name: string,
  title: string,
  description: string,
  operations: Record<string, Operation>,
  models: Record<string, unknown>,
): DocumentDef {
  return {
    name,
    title,
    version: "1.0.0",
    description:
      `${description} Every error has one body: \`{"code", "description", "parameters"}\`. All prices are US dollars; ` + "timestamps are ISO 8601 in UTC.",
    owns: (path) => apiOf(path) === api,
    securitySchemes: { basicAuth: basic, bearerAuth: bearer },
    security: [{ basicAuth: [] }, { bearerAuth: [] }],
    models: { ...models, Error: m.TranslateError },
    errorStatuses: errorStatuses(),
    errors: { all: api === "admin" ? [401, 403, 406, 429, 500] : [401, 403, 406, 429, 500, 503], withInput: [400], withBody: [400, 413] },
    operations,
  };
}

const shared = { Account: m.Account, OrderSummary: m.OrderSummary, Rate: m.Rate, Comment: m.OrderComment, Attachment: m.CommentAttachment };

export const translateDocuments: DocumentDef[] = [
  translateDocument("A", "translate-a", "Mailroom translation API, revision A", "The customer API of revision A, under /v1.", customer("A"), {
    ...shared,
    Order: m.OrderA,
    Resource: m.ResourceA,
    TranslateRequest: TranslateA,
    TranslateResponse: m.PlacedOrders,
    CalculateRequest: CalculateA,
    Price: m.Price,
  }),
  translateDocument("B", "translate-b", "Mailroom translation API, revision B", "The customer API of revision B, under /api/v1.", customer("B"), {
    ...shared,
    Order: m.OrderB,
    TranslateRequest: TranslateB,
    TranslateResponse: m.PlacedOrdersB,
  }),
  translateDocument(
    "translator",
    "translate-translator",
    "Mailroom translation API for translators",
    "The translators' API under /translator/v1: take, complete and comment on orders (shown in revision A's shape).",
    translator,
    {
      Order: m.OrderA,
      Resource: m.ResourceA,
      Comment: m.OrderComment,
      Attachment: m.CommentAttachment,
      CompleteRequest: CompleteBody,
      CommentRequest: CommentBody,
    },
  ),
  translateDocument(
    "admin",
    "translate-admin",
    "Mailroom translation API for administrators",
    "The administrators' API under /admin/v1: accounts, their ledger, balances, reopening orders, faults, accounts with their own key and the simulator's work done now (for test suites), and a reset to the configured accounts.",
    admin,
    {
      FaultsRequest: FaultsBody,
      Faults: FaultsView,
      Account: m.Account,
      CreatedAccount: m.CreatedAccount,
      CompletedNow: m.CompletedNow,
      Ledger: m.Ledger,
      LedgerEntry: m.LedgerEntry,
      Order: m.OrderA,
      Resource: m.ResourceA,
      Comment: m.OrderComment,
      Attachment: m.CommentAttachment,
    },
  ),
];
