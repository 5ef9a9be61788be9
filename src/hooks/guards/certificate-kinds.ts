import { Type as t } from "@sinclair/typebox";
import { common, strict, tolerance } from "./kind-keys";

/** Keys of the kinds that sign with a provider's certificate (hooks/guards/certificates). */
const certificate = {
  certificate: t.Optional(t.String({ minLength: 1, description: "the provider's signing certificate (or its RSA public key), PEM" })),
  certificate_env: t.Optional(t.String({ description: "environment variable holding the certificate" })),
  fetch_certificate: t.Boolean({
    default: false,
    description:
      "true: fetch the certificate the message names, from the provider's documented hosts only (https, 5s timeout, 64 KiB, at most 20 a minute), kept in memory by URL",
  }),
  tolerance: tolerance("0s"),
};

export const SnsGuard = t.Object(
  {
    ...common("aws-sns"),
    ...certificate,
    topic_arn: t.Optional(t.String({ minLength: 1, description: "ARN of the SNS topic whose messages are accepted (required)" })),
    confirm_subscription: t.Boolean({
      default: false,
      description: "true: answer a signed SubscriptionConfirmation by a GET of its SubscribeURL (SNS hosts only); kept with the refusals, not as a hook",
    }),
  },
  { ...strict, description: "Amazon SNS: SignatureVersion 1 (SHA1withRSA) or 2 (SHA256withRSA) over the message's fields" },
);

export const PaypalGuard = t.Object(
  {
    ...common("paypal"),
    ...certificate,
    webhook_id: t.Optional(t.String({ minLength: 1, description: "the webhook's id in the PayPal app (required: it is signed)" })),
  },
  { ...strict, description: "PayPal: SHA256withRSA of <transmission id>|<time>|<webhook id>|<CRC32 of the body>" },
);
