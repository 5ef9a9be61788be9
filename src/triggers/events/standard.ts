import type { EventFactory, Fresh, Sample } from "../types";

/** Clerk webhook events (sent through Svix), from clerk.com/docs/webhooks/overview#payload-structure. */
const clerk = (f: Fresh, type: string, data: Record<string, unknown>): Sample => ({
  body: {
    data,
    object: "event",
    type,
    timestamp: f.now,
    instance_id: f.id("ins_", 27),
    event_attributes: { http_request: { client_ip: "0.0.0.0", user_agent: "mailroom trigger" } },
  },
});
const user = (f: Fresh) => ({
  id: f.id("user_", 27),
  object: "user",
  created_at: f.now,
  updated_at: f.now,
  first_name: "Example",
  last_name: "Example",
  email_addresses: [
    { id: f.id("idn_", 27), object: "email_address", email_address: "example@example.org", verification: { status: "verified", strategy: "ticket" } },
  ],
  primary_email_address_id: f.id("idn_", 27),
  username: null,
  public_metadata: {},
});
export const CLERK: Record<string, EventFactory> = {
  "user.created": (f) => clerk(f, "user.created", user(f)),
  "user.updated": (f) => clerk(f, "user.updated", user(f)),
  "user.deleted": (f) => clerk(f, "user.deleted", { id: f.id("user_", 27), object: "user", deleted: true }),
  "session.created": (f) =>
    clerk(f, "session.created", {
      id: f.id("sess_", 27),
      object: "session",
      user_id: f.id("user_", 27),
      client_id: f.id("client_", 27),
      status: "active",
      created_at: f.now,
      expire_at: f.now + 7 * 86400000,
      last_active_at: f.now,
    }),
  "organization.created": (f) =>
    clerk(f, "organization.created", {
      id: f.id("org_", 27),
      object: "organization",
      name: "Acme Inc",
      slug: "acme-inc",
      created_at: f.now,
      created_by: f.id("user_", 27),
      members_count: 1,
    }),
};

/** Resend webhook events, from resend.com/docs/dashboard/webhooks/event-types. */
const email = (f: Fresh, type: string, extra: Record<string, unknown> = {}): Sample => ({
  body: {
    type,
    created_at: f.iso,
    data: {
      created_at: f.iso,
      email_id: f.uuid(),
      from: "Acme <onboarding@resend.dev>",
      to: ["delivered@resend.dev"],
      subject: "Sending this example",
      ...extra,
    },
  },
});
export const RESEND: Record<string, EventFactory> = {
  "email.sent": (f) => email(f, "email.sent"),
  "email.delivered": (f) => email(f, "email.delivered"),
  "email.bounced": (f) =>
    email(f, "email.bounced", { bounce: { message: "The recipient's email address is on the suppression list.", subType: "Suppressed", type: "Permanent" } }),
  "email.opened": (f) => email(f, "email.opened"),
  "email.clicked": (f) =>
    email(f, "email.clicked", { click: { ipAddress: "122.115.53.11", link: "https://resend.com", timestamp: f.iso, userAgent: "Mozilla/5.0" } }),
  "email.complained": (f) => email(f, "email.complained"),
};

/** OpenAI webhook events, from platform.openai.com/docs/api-reference/webhook-events. */
const openai = (f: Fresh, type: string, prefix: string): Sample => ({
  body: { id: f.id("evt_", 32), object: "event", created_at: f.unix, type, data: { id: f.id(prefix, 32) } },
});
export const OPENAI: Record<string, EventFactory> = {
  "response.completed": (f) => openai(f, "response.completed", "resp_"),
  "response.failed": (f) => openai(f, "response.failed", "resp_"),
  "response.cancelled": (f) => openai(f, "response.cancelled", "resp_"),
  "batch.completed": (f) => openai(f, "batch.completed", "batch_"),
  "batch.failed": (f) => openai(f, "batch.failed", "batch_"),
  "fine_tuning.job.succeeded": (f) => openai(f, "fine_tuning.job.succeeded", "ftjob-"),
};
