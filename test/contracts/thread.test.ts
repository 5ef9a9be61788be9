/**
 * The contract checks' thread (contracts/threaded.ts) gives exactly what the checks on the serving
 * thread give: the same verdicts, violations and fresh field paths, batch by batch, for GitHub's
 * sample events, a channel's own schema and bodies that are not JSON.
 */
import { expect, test } from "bun:test";
import { createAnalyse, type AnalyseInput } from "../../src/contracts/analyse";
import { compileUserSchema, createContractChecker } from "../../src/contracts/check";
import { startAnalyseThread } from "../../src/contracts/threaded";
import examples from "../../src/triggers/github-examples.json";

const enc = (s: string) => new TextEncoder().encode(s);
const own = {
  billing: [{ pattern: "invoice.*", validate: compileUserSchema({ type: "object", required: ["amount"], properties: { amount: { type: "integer" } } }) }],
};

test("the thread's analyses equal the serving thread's, in order, with the seen paths carried across batches", async () => {
  const hooks: AnalyseInput[] = Object.entries(examples as Record<string, unknown>).map(([type, body], i) => ({
    id: `h${i}`,
    channel: "gh",
    eventType: type,
    headers: JSON.stringify({ "x-github-event": type.split(".")[0] }),
    body: enc(JSON.stringify(i % 7 === 0 ? { ...(body as object), repository: 5 } : body)),
  }));
  hooks.push(
    { id: "b1", channel: "billing", eventType: "invoice.paid", headers: "{}", body: enc('{"amount":"12"}') },
    { id: "b2", channel: "billing", eventType: "invoice.paid", headers: "{}", body: enc('{"amount":12,"extra":true}') },
    { id: "b3", channel: "billing", eventType: "invoice.paid", headers: "{}", body: enc("not json") },
  );
  const checker = createContractChecker((c) => own[c as "billing"]);
  const here = createAnalyse(checker);
  const thread = startAnalyseThread({
    url: new URL("../../src/contracts/thread.ts", import.meta.url).href,
    schemas: own,
    checker,
    log: {
      error: (m) => {
        throw new Error(m);
      },
    },
  });
  try {
    for (let i = 0; i < hooks.length; i += 40) {
      const batch = hooks.slice(i, i + 40);
      expect(await thread.analyse(batch)).toEqual(await here(batch));
    }
    // Seen once, never fresh again; on both.
    expect((await thread.analyse(hooks.slice(0, 3))).map((a) => a.fresh)).toEqual([[], [], []]);
    const results = (await here(hooks.slice(-3))).map((a) => a.result);
    expect(results).toEqual(["invalid", "valid", "invalid"]);
  } finally {
    thread.close();
  }
});
