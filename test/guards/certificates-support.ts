import { sign } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Fetch } from "../../src/hooks/guards/certificates/fetcher";

/** A self-signed RSA certificate and its key, made by openssl for this run. */
export function selfSigned(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-cert-"));
  try {
    const made = Bun.spawnSync(
      [
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-subj",
        "/CN=sns.amazonaws.com",
        "-days",
        "2",
      ],
      { stderr: "pipe" },
    );
    if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
    return { cert: readFileSync(join(dir, "cert.pem"), "utf8"), key: readFileSync(join(dir, "key.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An SNS message signed as AWS documents it ("Verifying the signatures of Amazon SNS messages",
 * https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html): each field's
 * name and value on lines of their own, in this order; Subject only when the message has one.
 */
export function snsMessage(key: string, fields: Record<string, string>, version: "1" | "2" = "1"): Record<string, string> {
  const order =
    fields.Type === "Notification"
      ? ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
      : ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"];
  const text = order
    .filter((n) => fields[n] !== undefined)
    .map((n) => `${n}\n${fields[n]}\n`)
    .join("");
  const signature = sign(version === "1" ? "sha1" : "sha256", Buffer.from(text), key).toString("base64");
  return { ...fields, SignatureVersion: version, Signature: signature };
}

export const TOPIC = "arn:aws:sns:us-west-2:123456789012:MyTopic";
export const CERT_URL = "https://sns.us-west-2.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem";

export function notification(key: string, more: Record<string, string> = {}, version: "1" | "2" = "1") {
  return snsMessage(
    key,
    {
      Type: "Notification",
      MessageId: "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
      TopicArn: TOPIC,
      Subject: "order.created",
      Message: '{"order":42}',
      Timestamp: new Date().toISOString(),
      SigningCertURL: CERT_URL,
      UnsubscribeURL: "https://sns.us-west-2.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=x",
      ...more,
    },
    version,
  );
}

/** A stand-in for the network: serves `pages` by URL and records every URL asked for. */
export function fakeNetwork(pages: Record<string, string | number>): { fetch: Fetch; asked: string[] } {
  const asked: string[] = [];
  const fetch: Fetch = async (url) => {
    asked.push(url);
    const page = pages[url];
    if (page === undefined) return new Response("not found", { status: 404 });
    return typeof page === "number" ? new Response("", { status: page }) : new Response(page);
  };
  return { fetch, asked };
}
