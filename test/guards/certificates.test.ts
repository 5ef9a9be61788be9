import { describe, expect, test } from "bun:test";
import { createCertificateFetcher, type Fetch } from "../../src/hooks/guards/certificates/fetcher";
import { guardProblems } from "../../src/hooks/guards";
import { createSnsGuard } from "../../src/hooks/guards/certificates/sns";
import type { GuardInput } from "../../src/hooks/guards/types";
import { systemClock } from "../../src/lib/clock";
import { CERT_URL, fakeNetwork, notification, selfSigned, snsMessage, TOPIC } from "./certificates-support";

const { cert, key } = selfSigned();
const deps = { clock: systemClock };
const input = (body: string, headers: Record<string, string> = {}): GuardInput => ({
  method: "POST",
  query: "",
  headers: new Headers(headers),
  body: new TextEncoder().encode(body),
  ip: "127.0.0.1",
});
const sns = (more: Record<string, unknown> = {}, certificates?: ReturnType<typeof createCertificateFetcher>) =>
  createSnsGuard({ name: "sns", kind: "aws-sns", topic_arn: TOPIC, certificate: cert, ...more }, { ...deps, certificates });

describe("aws-sns with a configured certificate", () => {
  test("SignatureVersion 1 (SHA1withRSA) and 2 (SHA256withRSA) are accepted, with or without Subject", async () => {
    const guard = sns();
    expect(await guard.check(input(JSON.stringify(notification(key))))).toEqual({ ok: true });
    expect(await guard.check(input(JSON.stringify(notification(key, {}, "2"))))).toEqual({ ok: true });
    const { Subject: _, ...fields } = notification(key);
    const plain = snsMessage(key, { ...fields, Type: "Notification" }, "2");
    expect(await guard.check(input(JSON.stringify(plain)))).toEqual({ ok: true });
  });

  test("a changed field, another signer, another topic, a missing field or an unknown version is refused with its reason", async () => {
    const guard = sns();
    const good = notification(key);
    const refused = async (body: unknown) => {
      const v = await guard.check(input(JSON.stringify(body)));
      return v.ok ? "accepted" : `${v.status} ${v.reason}`;
    };
    expect(await refused({ ...good, Message: '{"order":43}' })).toBe("401 Signature does not match the message's fields");
    expect(await refused(notification(selfSigned().key))).toBe("401 Signature does not match the message's fields");
    expect(await refused({ ...good, SignatureVersion: "2" })).toBe("401 Signature does not match the message's fields");
    expect(await refused(notification(key, { TopicArn: "arn:aws:sns:us-west-2:999999999999:Other" }))).toBe("401 TopicArn is not the guard's topic_arn");
    const { MessageId: _, ...noId } = good;
    expect(await refused(noId)).toBe("401 the SNS message has no MessageId");
    expect(await refused({ ...good, SignatureVersion: "3" })).toBe('401 SignatureVersion is not "1" or "2"');
    expect(await refused({ ...good, Signature: "" })).toBe("401 the SNS message has no Signature");
    expect(await guard.check(input("not json"))).toMatchObject({ ok: false, reason: "the body is not an SNS message (a JSON object)" });
  });

  test("with a tolerance, a stale Timestamp is refused; without one (the default) it is not checked", async () => {
    const old = JSON.stringify(notification(key, { Timestamp: new Date(Date.now() - 3600_000).toISOString() }));
    expect(await sns().check(input(old))).toEqual({ ok: true });
    expect(await sns({ tolerance: 300_000 }).check(input(old))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Timestamp is 3\d{3}s away from now, beyond the tolerance of 300s$/),
    });
  });

  test("the event type is the Subject, else the Type", () => {
    expect(sns().eventType).toEqual({ body: ["Subject", "Type"] });
  });
});

describe("aws-sns fetching its certificate (fetch_certificate = true)", () => {
  test("fetched once from an SNS host, then taken from the cache", async () => {
    const net = fakeNetwork({ [CERT_URL]: cert });
    const guard = sns({ certificate: undefined, fetch_certificate: true }, createCertificateFetcher({ fetch: net.fetch }));
    expect(await guard.check(input(JSON.stringify(notification(key))))).toEqual({ ok: true });
    expect(await guard.check(input(JSON.stringify(notification(key, { MessageId: "2" }, "2"))))).toEqual({ ok: true });
    expect(net.asked).toEqual([CERT_URL]);
  });

  test("a URL off SNS's documented hosts is refused and never fetched; China and GovCloud hosts are fetched", async () => {
    const china = "https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-a.pem";
    const gov = "https://sns.us-gov-west-1.amazonaws.com/SimpleNotificationService-b.pem";
    const net = fakeNetwork({ [china]: cert, [gov]: cert });
    const guard = sns({ certificate: undefined, fetch_certificate: true }, createCertificateFetcher({ fetch: net.fetch }));
    const bad: [string, string][] = [
      ["http://sns.us-west-2.amazonaws.com/a.pem", "SigningCertURL is not https"],
      ["https://evil.example/a.pem", "SigningCertURL is not on the provider's documented hosts"],
      ["https://sns.us-west-2.amazonaws.com.evil.example/a.pem", "SigningCertURL is not on the provider's documented hosts"],
      ["https://s3.amazonaws.com/a.pem", "SigningCertURL is not on the provider's documented hosts"],
      ["https://sns.us-west-2.amazonaws.com:8443/a.pem", "SigningCertURL has a user, password or port"],
      ["https://x@sns.us-west-2.amazonaws.com/a.pem", "SigningCertURL has a user, password or port"],
      ["https://sns.us-west-2.amazonaws.com/a.txt", "SigningCertURL is not a .pem file"],
      ["not a url", "SigningCertURL is not a URL"],
    ];
    for (const [url, reason] of bad) {
      expect(await guard.check(input(JSON.stringify(notification(key, { SigningCertURL: url }))))).toMatchObject({ ok: false, reason });
    }
    expect(net.asked).toEqual([]);
    expect(await guard.check(input(JSON.stringify(notification(key, { SigningCertURL: china }))))).toEqual({ ok: true });
    expect(await guard.check(input(JSON.stringify(notification(key, { SigningCertURL: gov }))))).toEqual({ ok: true });
    expect(net.asked).toEqual([china, gov]);
  });

  test("a failed fetch is refused and not cached: the next message tries again", async () => {
    const net = fakeNetwork({});
    const guard = sns({ certificate: undefined, fetch_certificate: true }, createCertificateFetcher({ fetch: net.fetch }));
    const body = JSON.stringify(notification(key));
    expect(await guard.check(input(body))).toMatchObject({ ok: false, reason: "the certificate could not be fetched: answered 404" });
    expect(await guard.check(input(body))).toMatchObject({ ok: false });
    expect(net.asked).toEqual([CERT_URL, CERT_URL]);
  });
});

describe("the certificate fetcher", () => {
  test("fetches at most perMinute certificates in a minute; cached ones are still served", async () => {
    let clock = 0;
    const net = fakeNetwork({ "https://x/1.pem": cert, "https://x/2.pem": cert, "https://x/3.pem": cert });
    const fetcher = createCertificateFetcher({ fetch: net.fetch, perMinute: 2, now: () => clock });
    await fetcher.key("https://x/1.pem");
    await fetcher.key("https://x/2.pem");
    await expect(fetcher.key("https://x/3.pem")).rejects.toThrow("the certificate was not fetched: 2 were fetched in the last minute");
    await fetcher.key("https://x/1.pem");
    expect(net.asked).toEqual(["https://x/1.pem", "https://x/2.pem"]);
    clock = 60_000;
    await fetcher.key("https://x/3.pem");
    expect(net.asked).toEqual(["https://x/1.pem", "https://x/2.pem", "https://x/3.pem"]);
  });

  test("refuses a body over its size limit, and gives up at its timeout", async () => {
    const big = createCertificateFetcher({ fetch: fakeNetwork({ "https://x/a.pem": "x".repeat(2000) }).fetch, maxBytes: 1000 });
    await expect(big.key("https://x/a.pem")).rejects.toThrow("the certificate could not be fetched: larger than 1000 bytes");
    // The stand-in answers only when the fetcher's signal aborts it.
    const hanging: Fetch = (_url, init) => new Promise((_, reject) => init.signal.addEventListener("abort", () => reject(init.signal.reason)));
    const slow = createCertificateFetcher({ fetch: hanging, timeoutMs: 20 });
    await expect(slow.key("https://x/a.pem")).rejects.toThrow(/the certificate could not be fetched: .*time/i);
  });
});

describe("aws-sns SubscriptionConfirmation (confirm_subscription = true)", () => {
  const confirmation = (subscribeUrl: string) =>
    snsMessage(key, {
      Type: "SubscriptionConfirmation",
      MessageId: "165545c9-2a5c-472c-8df2-7ff2be2b3b1b",
      Token:
        "2336412f37fb687f5d51e6e241d09c805a5a57b30d712f794cc5f6a988666d92768dd60a747ba6f3beb71854e285d6ad02428b09ceece29417f1f02d609c582afbacc99c583a916b9981dd2728f4ae6fdb82efd087cc3b7849e05798d2d2785c03b0879594eeac82c01f235d0e717736",
      TopicArn: TOPIC,
      Message: `You have chosen to subscribe to the topic ${TOPIC}.`,
      SubscribeURL: subscribeUrl,
      Timestamp: new Date().toISOString(),
      SigningCertURL: CERT_URL,
    });
  const request = (body: unknown) => ({ method: "POST", query: "", headers: new Headers(), body: new TextEncoder().encode(JSON.stringify(body)) });

  test("a signed confirmation is confirmed by one GET of its SubscribeURL, on SNS's hosts only", async () => {
    const subscribe = `https://sns.us-west-2.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=2336`;
    const net = fakeNetwork({ [subscribe]: "<ConfirmSubscriptionResponse/>" });
    const guard = sns({ confirm_subscription: true }, createCertificateFetcher({ fetch: net.fetch }));
    const good = confirmation(subscribe);
    expect(await guard.check(input(JSON.stringify(good)))).toEqual({ ok: true });
    const answer = await guard.handshake!.after!(request(good));
    expect(answer?.what).toBe("SubscriptionConfirmation confirmed");
    expect(answer?.response.status).toBe(200);
    expect(net.asked).toEqual([subscribe]);

    const evil = confirmation("https://evil.example/?Action=ConfirmSubscription");
    expect(await guard.check(input(JSON.stringify(evil)))).toEqual({ ok: true });
    const refused = await guard.handshake!.after!(request(evil));
    expect(refused?.response.status).toBe(403);
    expect(refused?.what).toBe("SubscriptionConfirmation refused: SubscribeURL is not on the provider's documented hosts");
    expect(net.asked).toEqual([subscribe]);
    // A notification is not a handshake.
    expect(await guard.handshake!.after!(request(notification(key)))).toBeUndefined();
  });

  test("SubscribeURL answering an error is recorded as failed (502)", async () => {
    const subscribe = "https://sns.us-west-2.amazonaws.com/?Action=ConfirmSubscription&Token=x";
    const guard = sns({ confirm_subscription: true }, createCertificateFetcher({ fetch: fakeNetwork({ [subscribe]: 403 }).fetch }));
    const answer = await guard.handshake!.after!(request(confirmation(subscribe)));
    expect(answer?.response.status).toBe(502);
    expect(answer?.what).toBe("SubscriptionConfirmation failed: SubscribeURL answered 403");
  });

  test("without confirm_subscription there is no handshake: the confirmation is an ordinary hook", () => {
    expect(sns().handshake).toBeUndefined();
  });
});

describe("certificate kinds' config", () => {
  test("every problem of an entry is reported in one run", () => {
    const problems = guardProblems(
      [{ name: "s", kind: "aws-sns", fetch_certificate: false } as never, { name: "p", kind: "paypal", certificate: "nope" } as never],
      deps,
    );
    expect(problems).toEqual([
      { path: "guards[0].certificate", message: "give certificate or certificate_env (PEM), or fetch_certificate = true to fetch it from the provider" },
      { path: "guards[0].topic_arn", message: "give the ARN of the topic whose messages are accepted (any AWS account can make SNS sign a message)" },
      { path: "guards[1].certificate", message: "does not parse as a PEM certificate or public key" },
      { path: "guards[1].webhook_id", message: "give the webhook's id (from the app's Webhooks page): PayPal signs it" },
    ]);
    const both = guardProblems([{ name: "s", kind: "aws-sns", topic_arn: TOPIC, certificate: cert, fetch_certificate: true } as never], deps);
    expect(both).toEqual([
      { path: "guards[0].fetch_certificate", message: "give either certificate (or certificate_env) or fetch_certificate = true, not both" },
    ]);
  });
});
