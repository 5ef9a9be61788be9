import { expect, test } from "bun:test";
import { startTranslate } from "./setup";

test("many simultaneous orders on one account never overdraw it and lose nothing", async () => {
  // 10.00 USD; each order costs 0.40 (20 characters at 20/1000): exactly 25 fit.
  const app = await startTranslate({ accounts: [{ id: 1, balance: 10, api_keys: ["customer-key-1"] }], rate_limit: { requests: 0 } });
  const body = (i: number) => ({ source_language: "en", target_languages: ["de"], text: `order ${String(i).padStart(14, "0")}` });
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) => app.customer("POST", i % 2 ? "/v1/translate" : "/api/v1/translate", body(i))));
  const accepted = results.filter((r) => r.status === 200);
  const refused = results.filter((r) => r.status === 400);
  expect(accepted).toHaveLength(25);
  expect(refused).toHaveLength(175);
  expect(refused.every((r) => r.json.code === "INSUFFICIENT_FUNDS")).toBe(true);

  expect(await app.money()).toEqual({ balance: 0, reserved: 10 });
  const ids = accepted.map((r) => r.json.orders[0].id).sort((a: number, b: number) => a - b);
  const listed = (await app.customer("GET", "/v1/orders?sort=asc&per_page=100")).json.map((o: { id: number }) => o.id);
  expect(listed).toEqual(ids);
  expect(new Set(ids).size).toBe(25);
  expect(await app.consistent()).toBe(true);
});

test("simultaneous orders, deletes and top-ups add up exactly", async () => {
  const app = await startTranslate({ accounts: [{ id: 1, balance: 4, api_keys: ["customer-key-1"] }] });
  const order = () => app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de"], text: "x".repeat(20) });
  await Promise.all(Array.from({ length: 10 }, order));
  expect(await app.money()).toEqual({ balance: 0, reserved: 4 });
  const mixed = await Promise.all([
    ...Array.from({ length: 10 }, (_, i) => app.customer("DELETE", `/api/v1/orders/${i + 1}`)),
    ...Array.from({ length: 20 }, order),
    ...Array.from({ length: 5 }, () => app.admin("POST", "/admin/v1/accounts/1/top-up", { amount: 0.4 })),
  ]);
  expect(mixed.slice(0, 10).every((r) => r.status === 204)).toBe(true);
  const placed = mixed.slice(10, 30).filter((r) => r.status === 200).length;
  const { balance, reserved } = await app.money();
  // 4.00 deposited + 2.00 topped up = what is left + what is reserved.
  expect(Math.round((balance + reserved) * 100)).toBe(600);
  expect(balance).toBeGreaterThanOrEqual(0);
  expect(Math.round(reserved * 100)).toBe(placed * 40);
  expect(await app.consistent()).toBe(true);
});
