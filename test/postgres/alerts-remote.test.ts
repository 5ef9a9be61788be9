/**
 * Alert rules on two executables sharing one PostgreSQL database, the hooks caught, failed and
 * typed by the instance that does not evaluate the rules: rates, failures in a row and new event
 * types reach the evaluating one through the change feed. The rules are made through the API of
 * the other instance, and take effect on the evaluating one without a restart.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { eventually, killInstances, newDatabase, startInstance } from "../helpers/instances";

afterEach(killInstances);
setDefaultTimeout(120_000);

const RAW = { channels: [{ name: "busy" }, { name: "types" }] };
const RULES = [
  { name: "storm", kind: "rate", channels: ["busy"], threshold: 2, window: "10m" },
  { name: "invoices", kind: "rate", channels: ["busy"], query: "payload.kind:invoice", threshold: 1, window: "10m" },
  { name: "failing", kind: "handler", channels: ["busy"], threshold: 2 },
  { name: "new-types", kind: "new_event_type", channels: ["types"] },
];

test("hooks caught and failed by B open A's issues: rate (with and without a query), failures in a row, new event type", async () => {
  const url = await newDatabase();
  // A starts alone: it holds the rules' lease and evaluates; B only catches.
  const a = await startInstance(url, RAW);
  const b = await startInstance(url, RAW);
  for (const rule of RULES) expect((await b.call("POST", "/v1/alerts", rule)).status).toBe(201);
  await eventually(async () => (await a.call("GET", "/v1/alerts")).json.length === RULES.length, 10_000, "A reads the rules B made");

  const ids: string[] = [];
  for (const kind of ["invoice", "refund", "invoice"]) {
    const r = await b.post("busy", JSON.stringify({ kind }), { "content-type": "application/json" });
    expect(r.status).toBe(200);
    ids.push(((await r.json()) as { id: string }).id);
  }
  expect((await b.post("types", JSON.stringify({ type: "order.created" }), { "content-type": "application/json" })).status).toBe(200);
  for (const id of ids.slice(0, 2)) expect((await b.call("POST", `/v1/hooks/${id}/fail`, { message: "broken" })).status).toBe(200);

  const issues = async () =>
    ((await a.call("GET", "/v1/issues")).json as { rule: string; scope: string; count: number; summary: string }[]).sort((x, y) =>
      x.rule.localeCompare(y.rule),
    );
  await eventually(async () => (await issues()).length === 4, 15_000, "A opens the four issues");
  expect((await issues()).map((i) => [i.rule, i.scope, i.count])).toEqual([
    ["failing", "busy", 2],
    ["invoices", "busy", 2],
    ["new-types", "types/order.created", 1],
    ["storm", "busy", 3],
  ]);
});
