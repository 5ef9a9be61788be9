/**
 * The event type of a hook, recognised from well-known headers (GitHub, GitLab, Bitbucket, Shopify,
 * CloudEvents and the generic ones), else from a top-level `type` or `event` string of its payload
 * when a well-known signature header says who sent it (Stripe, Standard Webhooks). Undefined when
 * nothing says. Pure: the dashboard's list and the search index agree on it.
 */
const TYPE_HEADERS = ["x-github-event", "x-gitlab-event", "x-event-key", "x-shopify-topic", "ce-type", "x-event-type", "x-webhook-event", "event-type"];
const PAYLOAD_SENDERS = ["stripe-signature", "webhook-signature", "svix-signature", "x-twilio-signature"];

export function recogniseEventType(headers: Record<string, string>, payload: Record<string, unknown> | null): string | undefined {
  for (const name of TYPE_HEADERS) {
    const value = headers[name];
    if (value) return value.slice(0, 200);
  }
  if (payload && PAYLOAD_SENDERS.some((h) => headers[h] !== undefined)) {
    const value = payload.type ?? payload.event;
    if (typeof value === "string" && value) return value.slice(0, 200);
  }
  return undefined;
}
