import { expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import https from "node:https";
import MessageValidator from "sns-validator";
import { createCertificateFetcher } from "../../src/hooks/guards/certificates/fetcher";
import { createSnsGuard } from "../../src/hooks/guards/certificates/sns";
import { systemClock } from "../../src/lib/clock";
import { CERT_URL, fakeNetwork, notification, selfSigned, snsMessage, TOPIC } from "./certificates-support";

// The judge: sns-validator, a standalone validator of SNS messages. It fetches the certificate with
// https.get; here https.get serves the test's self-signed certificate (the machine has no network),
// so the judge and Mailroom verify the same messages against the same key.

const { cert, key } = selfSigned();

function judge(message: Record<string, string>): Promise<true | string> {
  const real = https.get;
  (https as { get: unknown }).get = (url: string, cb: (res: EventEmitter & { statusCode: number }) => void) => {
    const res = Object.assign(new EventEmitter(), { statusCode: url === CERT_URL ? 200 : 404 });
    queueMicrotask(() => {
      cb(res);
      res.emit("data", Buffer.from(cert));
      res.emit("end");
    });
    return new EventEmitter();
  };
  return new Promise<true | string>((resolve) => new MessageValidator().validate(message, (error) => resolve(error ? error.message : true))).finally(() => {
    (https as { get: unknown }).get = real;
  });
}

test("sns-validator and Mailroom agree on signed SNS messages (versions 1 and 2, with and without Subject, a confirmation) and on a tampered one", async () => {
  const guard = createSnsGuard(
    { name: "sns", kind: "aws-sns", topic_arn: TOPIC, fetch_certificate: true },
    { clock: systemClock, certificates: createCertificateFetcher({ fetch: fakeNetwork({ [CERT_URL]: cert }).fetch }) },
  );
  const { Subject: _, ...noSubject } = notification(key);
  const messages = [
    notification(key),
    notification(key, {}, "2"),
    snsMessage(key, noSubject, "2"),
    snsMessage(key, {
      Type: "SubscriptionConfirmation",
      MessageId: "165545c9",
      Token: "2336412f37fb",
      TopicArn: TOPIC,
      Message: "You have chosen to subscribe.",
      SubscribeURL: "https://sns.us-west-2.amazonaws.com/?Action=ConfirmSubscription&Token=2336412f37fb",
      Timestamp: new Date().toISOString(),
      SigningCertURL: CERT_URL,
    }),
  ];
  for (const m of messages) {
    expect(await judge(m)).toBe(true);
    const body = new TextEncoder().encode(JSON.stringify(m));
    expect(await guard.check({ method: "POST", query: "", headers: new Headers(), body, ip: "127.0.0.1" })).toEqual({ ok: true });
  }
  const tampered = { ...notification(key), Message: "changed" };
  expect(await judge(tampered)).not.toBe(true);
  const body = new TextEncoder().encode(JSON.stringify(tampered));
  expect(await guard.check({ method: "POST", query: "", headers: new Headers(), body, ip: "127.0.0.1" })).toMatchObject({ ok: false });
});
