import type { EventFactory, Fresh, Sample } from "../types";

/** Slack Events API deliveries (the event_callback envelope), from api.slack.com/apis/events-api. */
function callback(f: Fresh, event: Record<string, unknown>): Sample {
  const team = f.id("T", 10).toUpperCase();
  return {
    body: {
      token: f.id("", 24),
      team_id: team,
      api_app_id: f.id("A", 10).toUpperCase(),
      event: { ...event, event_ts: `${f.unix}.000100` },
      type: "event_callback",
      event_id: f.id("Ev", 10).toUpperCase(),
      event_time: f.unix,
      authorizations: [{ enterprise_id: null, team_id: team, user_id: f.id("U", 10).toUpperCase(), is_bot: true, is_enterprise_install: false }],
      is_ext_shared_channel: false,
    },
  };
}

const user = (f: Fresh) => f.id("U", 10).toUpperCase();
const channel = (f: Fresh) => f.id("C", 10).toUpperCase();

export const SLACK: Record<string, EventFactory> = {
  app_mention: (f) =>
    callback(f, { type: "app_mention", user: user(f), text: "<@U0LAN0Z89> is it everything a river should be?", ts: `${f.unix}.000200`, channel: channel(f) }),
  message: (f) =>
    callback(f, { type: "message", channel: channel(f), user: user(f), text: "Live long and prospect.", ts: `${f.unix}.000300`, channel_type: "channel" }),
  reaction_added: (f) =>
    callback(f, {
      type: "reaction_added",
      user: user(f),
      reaction: "thumbsup",
      item_user: user(f),
      item: { type: "message", channel: channel(f), ts: `${f.unix}.000400` },
    }),
  member_joined_channel: (f) =>
    callback(f, { type: "member_joined_channel", user: user(f), channel: channel(f), channel_type: "C", team: f.id("T", 10).toUpperCase() }),
  app_home_opened: (f) => callback(f, { type: "app_home_opened", user: user(f), channel: f.id("D", 10).toUpperCase(), tab: "home" }),
  url_verification: (f) => ({ body: { token: f.id("", 24), challenge: f.id("", 48), type: "url_verification" } }),
};
