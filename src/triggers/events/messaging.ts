import type { EventFactory, Fresh, Sample } from "../types";

/**
 * Twilio's form-encoded callbacks, from twilio.com/docs/messaging/guides/webhook-request and
 * voice/twiml#request-parameters. Each is named for the event type Mailroom reads from it
 * (hooks/event-type.ts twilioEventType: the resource, then its status).
 */
const account = (f: Fresh) => f.id("AC", 32).toLowerCase();
const sms = (f: Fresh, extra: Record<string, string>): Sample => ({
  form: true,
  body: {
    MessageSid: f.id("SM", 32).toLowerCase(),
    SmsSid: f.id("SM", 32).toLowerCase(),
    AccountSid: account(f),
    MessagingServiceSid: f.id("MG", 32).toLowerCase(),
    From: "+14155551234",
    To: "+15558675310",
    ApiVersion: "2010-04-01",
    ...extra,
  },
});
const call = (f: Fresh, extra: Record<string, string>): Sample => ({
  form: true,
  body: {
    CallSid: f.id("CA", 32).toLowerCase(),
    AccountSid: account(f),
    From: "+14155551234",
    To: "+15558675310",
    Direction: "inbound",
    ApiVersion: "2010-04-01",
    Caller: "+14155551234",
    Called: "+15558675310",
    ...extra,
  },
});

export const TWILIO: Record<string, EventFactory> = {
  "message.received": (f) => sms(f, { Body: "Hello from Twilio", NumMedia: "0", NumSegments: "1", SmsStatus: "received", FromCountry: "US", ToCountry: "US" }),
  "message.delivered": (f) => sms(f, { MessageStatus: "delivered", SmsStatus: "delivered" }),
  "call.ringing": (f) => call(f, { CallStatus: "ringing" }),
  "call.completed": (f) => call(f, { CallStatus: "completed", CallDuration: "42", Duration: "1" }),
  "recording.completed": (f) => ({
    form: true,
    body: {
      AccountSid: account(f),
      CallSid: f.id("CA", 32).toLowerCase(),
      RecordingSid: f.id("RE", 32).toLowerCase(),
      RecordingUrl: "https://api.twilio.com/2010-04-01/Accounts/AC/Recordings/RE",
      RecordingStatus: "completed",
      RecordingDuration: "42",
      RecordingChannels: "1",
      RecordingSource: "DialVerb",
      RecordingStartTime: new Date(f.now).toUTCString(),
    },
  }),
};

/** SendGrid Event Webhook deliveries (an array of events), from twilio.com/docs/sendgrid/for-developers/tracking-events/event. */
const mail = (f: Fresh, event: string, extra: Record<string, unknown> = {}): Sample => ({
  body: [
    {
      email: "example@test.com",
      timestamp: f.unix,
      "smtp-id": `<${f.id("", 16)}@ismtpd-555>`,
      event,
      category: ["cat facts"],
      sg_event_id: f.id("", 22),
      sg_message_id: `${f.id("", 22)}.filter0001.16648.5515E0B88.0`,
      ...extra,
    },
  ],
});
export const SENDGRID: Record<string, EventFactory> = {
  processed: (f) => mail(f, "processed"),
  delivered: (f) => mail(f, "delivered", { response: "250 OK" }),
  open: (f) => mail(f, "open", { useragent: "Mozilla/4.0 (compatible; MSIE 6.1; Windows XP)", ip: "255.255.255.255" }),
  click: (f) => mail(f, "click", { useragent: "Mozilla/4.0", ip: "255.255.255.255", url: "http://www.sendgrid.com/" }),
  bounce: (f) => mail(f, "bounce", { reason: "500 unknown recipient", status: "5.0.0", type: "bounce" }),
  dropped: (f) => mail(f, "dropped", { reason: "Bounced Address", status: "5.0.0" }),
};

/** Discord interactions, from discord.com/developers/docs/interactions/receiving-and-responding#interaction-object. */
const interaction = (f: Fresh, type: number, data?: Record<string, unknown>): Sample => ({
  body: {
    id: String(f.number(12)),
    application_id: String(f.number(12)),
    type,
    ...(data ? { data } : {}),
    guild_id: String(f.number(12)),
    channel_id: String(f.number(12)),
    member: { user: { id: String(f.number(12)), username: "mailroom", discriminator: "0", global_name: "Mailroom" }, roles: [], permissions: "2147483647" },
    token: f.id("", 64),
    version: 1,
  },
});
export const DISCORD: Record<string, EventFactory> = {
  ping: (f) => ({ body: { id: String(f.number(12)), application_id: String(f.number(12)), type: 1, token: f.id("", 64), version: 1 } }),
  application_command: (f) =>
    interaction(f, 2, { id: String(f.number(12)), name: "blep", type: 1, options: [{ name: "animal", type: 3, value: "animal_dog" }] }),
  message_component: (f) => interaction(f, 3, { custom_id: "click_one", component_type: 2 }),
  application_command_autocomplete: (f) =>
    interaction(f, 4, { id: String(f.number(12)), name: "blep", type: 1, options: [{ name: "animal", type: 3, value: "do", focused: true }] }),
  modal_submit: (f) => interaction(f, 5, { custom_id: "my_modal", components: [{ type: 1, components: [{ type: 4, custom_id: "name", value: "Mailroom" }] }] }),
};

/** Zoom webhook events, from developers.zoom.us/docs/api/rest/reference/zoom-api/events. */
const zoom = (f: Fresh, event: string, object: Record<string, unknown>): Sample => ({
  body: {
    event,
    event_ts: f.now,
    payload: {
      account_id: f.id("", 22),
      object: {
        uuid: `${f.id("", 22)}==`,
        id: String(f.number(11)),
        host_id: f.id("", 22),
        topic: "My Meeting",
        type: 2,
        timezone: "UTC",
        duration: 60,
        ...object,
      },
    },
  },
});
export const ZOOM: Record<string, EventFactory> = {
  "meeting.created": (f) => zoom(f, "meeting.created", { start_time: f.iso, join_url: "https://zoom.us/j/123" }),
  "meeting.started": (f) => zoom(f, "meeting.started", { start_time: f.iso }),
  "meeting.ended": (f) => zoom(f, "meeting.ended", { start_time: f.iso, end_time: f.iso }),
  "meeting.participant_joined": (f) =>
    zoom(f, "meeting.participant_joined", {
      participant: { user_id: String(f.number(8)), user_name: "Jill Chill", id: f.id("", 22), join_time: f.iso, email: "jchill@example.com" },
    }),
  "recording.completed": (f) =>
    zoom(f, "recording.completed", {
      recording_count: 1,
      total_size: 529758,
      share_url: "https://zoom.us/rec/share/abc",
      recording_files: [
        {
          id: f.uuid(),
          file_type: "MP4",
          file_size: 529758,
          recording_type: "shared_screen_with_speaker_view",
          status: "completed",
          recording_start: f.iso,
          recording_end: f.iso,
        },
      ],
    }),
  "endpoint.url_validation": (f) => ({ body: { payload: { plainToken: f.id("", 22) }, event_ts: f.now, event: "endpoint.url_validation" } }),
};
