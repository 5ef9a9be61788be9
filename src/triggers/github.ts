import type { EventFactory, Fresh } from "./types";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The example with its times made now (same format, so the schema still holds). */
function refreshed(value: unknown, f: Fresh): unknown {
  if (typeof value === "string") return ISO.test(value) ? f.iso.replace(/\.\d{3}Z$/, "Z") : value;
  if (Array.isArray(value)) return value.map((v) => refreshed(v, f));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, refreshed(v, f)]));
  return value;
}

/**
 * GitHub's events, every event and action @octokit/webhooks-examples has an example of
 * (src/triggers/github-examples.json, written by scripts/github-examples.ts), read when first used.
 * Each send gets a fresh X-GitHub-Delivery and the example's times set to now.
 */
export async function githubEvents(): Promise<Record<string, EventFactory>> {
  const examples = (await import("./github-examples.json")).default as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(examples).map(([key, example]) => [
      key,
      (f: Fresh) => ({
        body: refreshed(example, f),
        headers: {
          "x-github-event": key.split(".")[0]!,
          "x-github-delivery": f.uuid(),
          "x-github-hook-id": String(f.number(9)),
          "x-github-hook-installation-target-type": "repository",
          "user-agent": "GitHub-Hookshot/mailroom-trigger",
        },
      }),
    ]),
  );
}
