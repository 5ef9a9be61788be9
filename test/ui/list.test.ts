import { describe, expect, test } from "bun:test";
import { filtersOf, typeMatches } from "../../src/ui/filters";

describe("the hooks list's filters", () => {
  test("live arrivals pass the event type filter as ListHooks does: exact, or a prefix with *", () => {
    expect(typeMatches("invoice.paid", "")).toBe(true);
    expect(typeMatches("invoice.paid", "invoice.paid")).toBe(true);
    expect(typeMatches("invoice.paid", "invoice.*")).toBe(true);
    expect(typeMatches("invoice.paid", "invoice.created")).toBe(false);
    expect(typeMatches("", "invoice.*")).toBe(false);
    expect(typeMatches(undefined, "push")).toBe(false);
  });

  test("live in the URL", () => {
    expect(filtersOf(new URL("http://x/ui/hooks?channel=shop&q=payload.order.id%3A42&type=push&range=1h"))).toEqual({
      channel: "shop",
      status: "",
      type: "push",
      range: "1h",
      q: "payload.order.id:42",
      after: "",
    });
  });

  test("an issue's hooks_query (GET /v1/hooks's event_type) filters the hooks screen by event type", () => {
    expect(filtersOf(new URL("http://x/ui/hooks?channel=shop&event_type=orders%2Fcreate")).type).toBe("orders/create");
  });
});
