import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import schema from "@octokit/webhooks-schemas";
import { definitionOf, githubExamples } from "../../scripts/github-examples";
import { detectEventType, eventTypeBy } from "../../src/hooks/event-type";
import { PRESETS } from "../../src/hooks/guards/providers";
import { buildEvent, setPath, TriggerError, triggerList } from "../../src/triggers";

// Compiling the GitHub schemas (344 definitions) and completing the examples takes seconds on a busy machine.
setDefaultTimeout(60_000);

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe("trigger's sample events", () => {
  test("GitHub: the embedded examples are every event and action of @octokit/webhooks-examples, completed to their schemas (bun scripts/github-examples.ts)", () => {
    const file = JSON.parse(readFileSync(join(import.meta.dir, "../../src/triggers/github-examples.json"), "utf8"));
    expect(file).toEqual(githubExamples());
    expect(Object.keys(file).length).toBeGreaterThan(150);
  });

  test("every triggered GitHub event validates against @octokit/webhooks-schemas", async () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    ajv.addSchema(schema as object, "webhooks");
    const github = (await triggerList()).find((p) => p.provider === "github")!;
    const failures: string[] = [];
    for (const event of github.events) {
      const built = await buildEvent("github", event);
      const body = JSON.parse(decode(built.body));
      // The event's own schema (issues$opened), and the union of all events the package's root describes.
      const own = ajv.getSchema(`webhooks#/definitions/${definitionOf(event)}`)!;
      if (!own(body)) failures.push(`${event}: ${ajv.errorsText(own.errors)}`);
      expect(built.headers["x-github-event"]).toBe(event.split(".")[0]!);
    }
    expect(failures).toEqual([]);
  });

  test("at least five events for each of Stripe, Shopify, Slack, Twilio, SendGrid, Paddle, Discord, Linear, Zoom, Clerk, Resend, OpenAI", async () => {
    const list = await triggerList();
    for (const provider of ["stripe", "shopify", "slack", "twilio", "sendgrid", "paddle", "discord", "linear", "zoom", "clerk", "resend", "openai"]) {
      expect({ provider, enough: (list.find((p) => p.provider === provider)?.events.length ?? 0) >= 5 }).toEqual({ provider, enough: true });
    }
  });

  test("each event says its type where its provider's guard reads it, and where a channel without a guard looks", async () => {
    for (const { provider, events } of await triggerList()) {
      const rule = PRESETS.get(provider)?.eventType;
      if (!rule || provider === "linear") continue;
      for (const event of events) {
        const built = await buildEvent(provider, event);
        const headers = { "content-type": built.contentType, ...built.headers };
        const type = eventTypeBy(rule, headers, built.body);
        expect({ provider, event, type }).toEqual({ provider, event, type: event });
        // GitHub's event with its action (`pull_request.opened`) and Twilio's forms are recognised without a guard too.
        if (provider === "github" || provider === "twilio")
          expect({ provider, event, detected: detectEventType(headers, built.body) }).toEqual({ provider, event, detected: event });
      }
    }
  });

  test("ids and times are fresh on every build; overrides set dotted paths (and form fields)", async () => {
    const a = JSON.parse(decode((await buildEvent("stripe", "invoice.paid", {}, 1_700_000_000_000)).body));
    const b = JSON.parse(decode((await buildEvent("stripe", "invoice.paid", {}, 1_700_000_100_000)).body));
    expect(a.id).not.toBe(b.id);
    expect([a.created, b.created]).toEqual([1_700_000_000, 1_700_000_100]);
    const o = JSON.parse(decode((await buildEvent("stripe", "invoice.paid", { "data.object.amount_paid": 5000, "data.object.metadata.order": "42" })).body));
    expect(o.data.object.amount_paid).toBe(5000);
    expect(o.data.object.metadata).toEqual({ order: "42" });
    const form = new URLSearchParams(decode((await buildEvent("twilio", "message.received", { Body: "STOP" })).body));
    expect(form.get("Body")).toBe("STOP");
    expect(() => setPath({}, "__proto__.x", 1)).toThrow(TriggerError);
    await expect(buildEvent("stripe", "nope")).rejects.toThrow("stripe has no event nope");
  });
});
