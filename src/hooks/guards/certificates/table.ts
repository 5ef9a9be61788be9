/** The kinds that sign with a provider's certificate, as `mailroom providers` and docs/providers.md show them. */
export type CertificateProvider = { kind: string; title: string; scheme: string; handshake: string; key: string; config: string; source: string };

export const CERTIFICATE_PROVIDERS: readonly CertificateProvider[] = [
  {
    kind: "aws-sns",
    title: "Amazon SNS",
    scheme:
      "RSA over the message's fields (`Message`, `MessageId`, `Subject`, `Timestamp`, `TopicArn`, `Type`; confirmations: `SubscribeURL`, `Token`), each as `name\\nvalue\\n`: SignatureVersion 1 SHA1withRSA, 2 SHA256withRSA, base64 in body field `Signature`; the certificate configured, or fetched from `SigningCertURL` on `sns.<region>.amazonaws.com[.cn]`; `TopicArn` must be `topic_arn`; event type `Subject`, else `Type`",
    handshake: "`SubscriptionConfirmation` (with `confirm_subscription = true`): GET of its `SubscribeURL` on SNS's hosts",
    key: "the SNS signing certificate (PEM), or fetch_certificate = true",
    config: 'name = "aws-sns", kind = "aws-sns", topic_arn = "arn:aws:sns:...", fetch_certificate = true; confirm_subscription = true',
    source: "https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html",
  },
  {
    kind: "paypal",
    title: "PayPal",
    scheme:
      "SHA256withRSA of `<PAYPAL-TRANSMISSION-ID>|<PAYPAL-TRANSMISSION-TIME>|<webhook_id>|<CRC32 of the body, decimal>`, base64 in `PAYPAL-TRANSMISSION-SIG`; the certificate configured, or fetched from `PAYPAL-CERT-URL` on api(-m).paypal.com or api(-m).sandbox.paypal.com; event type `event_type`",
    handshake: "",
    key: "PayPal's signing certificate (PEM), or fetch_certificate = true",
    config: 'name = "paypal", kind = "paypal", webhook_id = "...", fetch_certificate = true',
    source: "https://developer.paypal.com/api/rest/webhooks/rest/#link-selfverificationmethod",
  },
];
