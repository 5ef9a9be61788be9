import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { notification, selfSigned, snsMessage, TOPIC } from "../guards/certificates-support";
import { startTarget, type Target } from "../helpers/target";

// Runs on every target (MAILROOM_TEST_TARGET): an aws-sns guard with a configured certificate.
// Nothing here reaches the network: the confirmation's SubscribeURL is refused before any fetch.

const { cert, key } = selfSigned();

describe("aws-sns at the catching endpoint", () => {
  let t: Target;
  let base: string;
  beforeAll(async () => {
    t = await startTarget(
      {
        guards: [{ name: "sns", kind: "aws-sns", topic_arn: TOPIC, certificate_env: "SNS_CERT", confirm_subscription: true }],
        channels: [{ name: "sns", guards: ["sns"] }],
      },
      { env: { SNS_CERT: cert } },
    );
    base = await t.url();
  }, 60_000);
  afterAll(() => t.stop());

  const post = (body: unknown) =>
    fetch(`${base}/?channel=sns`, {
      method: "POST",
      headers: { "content-type": "text/plain; charset=UTF-8", "x-amz-sns-message-type": "Notification" },
      body: JSON.stringify(body),
    });

  test("a signed notification is caught with its Subject as event type; a forged one gets 401", async () => {
    const res = await post(notification(key));
    expect(res.status).toBe(200);
    const hooks = (await t.call("GET", "/v1/hooks?channel=sns&include=extensions")).json as { event_type: string }[];
    expect(hooks.map((h) => h.event_type)).toEqual(["order.created"]);
    const forged = await post({ ...notification(key), Message: "forged" });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { message: string }).message).toBe(`guard "sns": Signature does not match the message's fields`);
  });

  test("a SubscriptionConfirmation whose SubscribeURL is off SNS's hosts is refused (403), recorded as a handshake, never a hook", async () => {
    const before = ((await t.call("GET", "/v1/hooks?channel=sns")).json as unknown[]).length;
    const confirmation = snsMessage(key, {
      Type: "SubscriptionConfirmation",
      MessageId: "165545c9",
      Token: "2336412f37fb",
      TopicArn: TOPIC,
      Message: "You have chosen to subscribe.",
      SubscribeURL: "https://attacker.example/?Action=ConfirmSubscription",
      Timestamp: new Date().toISOString(),
      SigningCertURL: "https://sns.us-west-2.amazonaws.com/SimpleNotificationService-x.pem",
    });
    const res = await post(confirmation);
    expect(res.status).toBe(403);
    expect(((await t.call("GET", "/v1/refusals?channel=sns&limit=1")).json as unknown[])[0]).toMatchObject({
      guard: "sns",
      status: 403,
      reason: "handshake: SubscriptionConfirmation refused: SubscribeURL is not on the provider's documented hosts",
    });
    expect(((await t.call("GET", "/v1/hooks?channel=sns")).json as unknown[]).length).toBe(before);
  });
});
